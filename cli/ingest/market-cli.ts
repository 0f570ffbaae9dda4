/**
 * `landgraph ingest nsw-sales <file|zip|folder>`, `landgraph ingest nsw-rental-bonds --lodgements
 * <xlsx|csv> [--holdings <xlsx|csv> --holdings-month YYYY-MM]` and `landgraph ingest abs-building-approvals
 * <csv>`: migrate the configured database and load, a summary on stdout. Exit codes as the other
 * ingests: 2 for bad input, 1 for a load that failed.
 */
import { parseArgs } from 'node:util';
import {
  type AbsApprovalsIngestResult,
  loadAbsApprovals,
  loadRentalBonds,
  prepareAbsApprovalsIngest,
  prepareRentalBondsIngest,
  type RentalBondsIngestResult,
} from './market-stats.ts';
import { loadNswSales, type NswSalesIngestResult, prepareNswSalesIngest } from './nsw-sales.ts';
import { ingestSa2Names, type Sa2NamesIngestResult } from './abs-sa2-names.ts';
import { checkDataset } from './planning.ts';
import { seconds } from './progress.ts';
import { formatCount, noteLines, runIngest, UsageError } from './run.ts';

export const NSW_SALES_USAGE = `Usage: landgraph ingest nsw-sales <file|zip|folder> [--dataset live] [--snapshot ID]
  <file>           NSW Valuer General bulk Property Sales Information of the 2001-to-current layout: a weekly
                   .DAT file (';'-separated A/B/C/D/Z records), a .zip of them (a yearly zip of weekly zips
                   too) or a folder of either. Each sale is matched to the parcel its legal description
                   (lot/plan) names in the NSW cadastre already loaded, and to the G-NAF address on it;
                   a sale that reaches no address so is matched by its address text (the address
                   matcher of /api/address/match, confident matches only).
                   Sales are keyed by district/property/strata lot/dealing number: reruns update in place.
  --dataset NAME   the dataset to load into (default: live, which only live keys read; the sandbox is refused)
  --snapshot ID    names the load in its credit (default: the file's name and date)
`;

export const NSW_RENTAL_BONDS_USAGE = `Usage: landgraph ingest nsw-rental-bonds [--lodgements <xlsx|csv>] [--holdings <xlsx|csv> --holdings-month YYYY-MM]
                                         [--dataset live] [--snapshot ID]
  --lodgements FILE     NSW Fair Trading rental bond lodgements of a month: the published workbook (.xlsx, its
                        first sheet, title rows above the header skipped) or that sheet saved as CSV with its
                        header row first: Lodgement Date, Postcode, Dwelling Type, Bedrooms, Weekly Rent.
                        Rerunning a file replaces its rows; its quarters' medians are recomputed.
  --holdings FILE       bonds held at a month's end, workbook or CSV: Postcode, Dwelling Type, Bedrooms,
                        Bonds Held
  --holdings-month M    the month (YYYY-MM) the holdings are at the end of (default: a YYYY-MM in the file name)
  --dataset NAME        the dataset to load into (default: live; the sandbox is refused)
  --snapshot ID         names the load in its credit (default: the file's name and date)
`;

export const ABS_APPROVALS_USAGE = `Usage: landgraph ingest abs-building-approvals <csv> [--dataset live] [--snapshot ID]
  <csv>            ABS Data Explorer CSV of building approvals by SA2 (dataflow BA_SA2), codes only or with
                   labels: DATAFLOW, MEASURE, SECTOR, WORK_TYPE, BUILDING_TYPE, REGION_TYPE, REGION, FREQ,
                   TIME_PERIOD, OBS_VALUE. Rows of region type SA2 are loaded; reruns upsert.
  --dataset NAME   the dataset to load into (default: live; the sandbox is refused)
  --snapshot ID    names the load in its credit (default: the file's name and date)
`;

export const ABS_SA2_NAMES_USAGE = `Usage: landgraph ingest abs-sa2-names <csv> [--dataset live]
  <csv>            ABS ASGS SA2 allocation file (e.g. SA2_2021_AUST.csv): columns SA2_CODE_<year> (or
                   SA2_MAINCODE_<year>) and SA2_NAME_<year>. Names the SA2s of building approvals loaded
                   from a code-only export, so they are tied to suburbs; reruns replace names.
  --dataset NAME   the dataset to load into (default: live; the sandbox is refused)
`;

function parse(args: string[], options: Record<string, { type: 'string' }>) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function onePositional(positionals: string[], what: string): string {
  const [file, ...extra] = positionals;
  if (!file) throw new UsageError(`name the ${what} to load`);
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  return file;
}

export function formatNswSalesSummary(r: NswSalesIngestResult): string {
  return `${[
    `NSW property sales (${r.files.length} file${r.files.length === 1 ? '' : 's'}) into dataset '${r.dataset}', snapshot ${r.snapshot} (${r.snapshotDate}), in ${seconds(r.ms)}`,
    `records read ${formatCount(r.read)}, sales loaded ${formatCount(r.loaded)}, matched to a parcel ${formatCount(r.matchedParcel)}, to an address ${formatCount(r.matchedAddress)} (${formatCount(r.matchedByText)} by its address text), refused ${formatCount(r.refused.length)}`,
    ...noteLines('refused', 'line', r.refused),
    ...noteLines('not matched to a parcel', 'line', r.unmatched),
    ...noteLines('address text not taken', 'line', r.textUnmatched),
  ].join('\n')}\n`;
}

export function formatRentalBondsSummary(r: RentalBondsIngestResult): string {
  return `${[
    `NSW rental bonds into dataset '${r.dataset}' in ${seconds(r.ms)}`,
    ...(r.lodgements
      ? [
          `lodgements ${r.lodgements.file}: read ${formatCount(r.lodgements.read)}, loaded ${formatCount(r.lodgements.loaded)}, quarters ${r.lodgements.quarters.join(', ')}`,
        ]
      : []),
    ...(r.holdings
      ? [
          `holdings ${r.holdings.file}: read ${formatCount(r.holdings.read)}, postcodes ${formatCount(r.holdings.postcodes)}, quarter from ${r.holdings.quarter}`,
        ]
      : []),
    ...noteLines('refused', 'line', r.refused),
  ].join('\n')}\n`;
}

export function formatAbsApprovalsSummary(r: AbsApprovalsIngestResult): string {
  return `${[
    `ABS building approvals ${r.file} into dataset '${r.dataset}' in ${seconds(r.ms)}`,
    `read ${formatCount(r.read)}, loaded ${formatCount(r.loaded)} (${formatCount(r.sa2s)} SA2s in ${r.states.join(', ')}), other region types ${formatCount(r.otherRegions)}, refused ${formatCount(r.refused.length)}`,
    ...noteLines('refused', 'line', r.refused),
  ].join('\n')}\n`;
}

export function formatSa2NamesSummary(r: Sa2NamesIngestResult): string {
  return `${[
    `ASGS ${r.edition} SA2 names ${r.file} into dataset '${r.dataset}' in ${seconds(r.ms)}`,
    `read ${formatCount(r.read)}, loaded ${formatCount(r.loaded)}, refused ${formatCount(r.refused.length)}`,
    ...noteLines('refused', 'line', r.refused),
  ].join('\n')}\n`;
}

export function runIngestSa2NamesCommand(args: string[]): Promise<number> {
  return runIngest(
    'abs-sa2-names',
    ABS_SA2_NAMES_USAGE,
    async () => {
      const { positionals, values } = parse(args, { dataset: { type: 'string' } });
      // the dataset is checked before the database is opened, like every ingest's input
      return {
        file: onePositional(positionals, 'SA2 allocation CSV'),
        dataset: checkDataset(values.dataset ?? 'live'),
      };
    },
    ingestSa2Names,
    formatSa2NamesSummary,
  );
}

export function runIngestNswSalesCommand(args: string[]): Promise<number> {
  return runIngest(
    'nsw-sales',
    NSW_SALES_USAGE,
    async () => {
      const { positionals, values } = parse(args, { dataset: { type: 'string' }, snapshot: { type: 'string' } });
      return prepareNswSalesIngest({ file: onePositional(positionals, 'sales file, zip or folder'), ...values });
    },
    loadNswSales,
    formatNswSalesSummary,
  );
}

export function runIngestNswRentalBondsCommand(args: string[]): Promise<number> {
  return runIngest(
    'nsw-rental-bonds',
    NSW_RENTAL_BONDS_USAGE,
    async () => {
      const { positionals, values } = parse(args, {
        lodgements: { type: 'string' },
        holdings: { type: 'string' },
        'holdings-month': { type: 'string' },
        dataset: { type: 'string' },
        snapshot: { type: 'string' },
      });
      if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
      if (!values.lodgements && !values.holdings) throw new UsageError('name a file with --lodgements or --holdings');
      return prepareRentalBondsIngest({
        lodgements: values.lodgements,
        holdings: values.holdings,
        holdingsMonth: values['holdings-month'],
        dataset: values.dataset,
        snapshot: values.snapshot,
      });
    },
    loadRentalBonds,
    formatRentalBondsSummary,
  );
}

export function runIngestAbsApprovalsCommand(args: string[]): Promise<number> {
  return runIngest(
    'abs-building-approvals',
    ABS_APPROVALS_USAGE,
    async () => {
      const { positionals, values } = parse(args, { dataset: { type: 'string' }, snapshot: { type: 'string' } });
      return prepareAbsApprovalsIngest({ file: onePositional(positionals, 'building approvals CSV'), ...values });
    },
    loadAbsApprovals,
    formatAbsApprovalsSummary,
  );
}
