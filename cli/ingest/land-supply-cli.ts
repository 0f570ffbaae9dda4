/**
 * `landgraph ingest land-supply --estates FILE --lots FILE [--week DAY] [--dataset live] ...`:
 * migrate the configured database and load the estates and this week's lot list, a summary on
 * stdout. Exit codes as the other ingests: 2 for bad input, 1 for a load that failed.
 */
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { type LandSupplyIngestResult, loadLandSupply, prepareLandSupplyIngest } from './land-supply.ts';
import { seconds } from './progress.ts';
import { UsageError, formatCount, noteLines, runIngest } from './run.ts';

export const LAND_SUPPLY_INGEST_USAGE = `Usage: landgraph ingest land-supply [--estates FILE] [--lots FILE] [--week YYYY-MM-DD] [--dataset live]
                                   [--snapshot ID] [--attribution TEXT] [--license TEXT]
  Each FILE is CSV with a header row (lat and lng columns give the location) or a GeoJSON FeatureCollection
  (the properties are the columns; the geometry is the location: a Point, or a Polygon for the drawn lot or
  estate). Column names match without case, spaces or punctuation; aliases in brackets.
  --estates FILE     estates: estate_id [id, project_id], name [estate_name], state (VIC, NSW, QLD, ...),
                     status (selling, coming soon, sold out); optional developer, lga_code, lga_name [lga],
                     suburb [locality]. Upserted by estate_id.
  --lots FILE        this week's lot list: estate_id, lot_number [lot, lot_no], sales_status [status]
                     (available, under offer / deposit taken / on hold, sold / settled, withdrawn / off market),
                     title_status [title] (titled / registered, untitled / proposed); optional lot_id (default
                     <estate_id>-<lot_number>), asking_price [price] ($ and commas allowed), area_m2 [area, lot_size],
                     frontage_m [frontage], depth_m [depth], listing_text [description]; for the aspect
                     frontage_edge (GeoJSON: the index i of the drawn ring's edge from vertex i to i+1 on the road),
                     or plan_front_to_rear_deg and plan_north_point_deg, or words in listing_text ("north-facing
                     rear"). Upserted by lot_id; each listed lot is snapshotted for the week (a rerun of the week
                     replaces it); a lot missing from a week's list counts as no longer listed in that week's rollup.
                     A lot's estate must be in the estates file or already loaded.
  --week DAY         the week (Monday to Sunday) the lot list is for; default: this week. The week is rolled up.
  --dataset NAME     the dataset to load into (default: live, which only live keys read; the sandbox is refused)
  --snapshot ID      names the load in its credit (default: the lots file's name and date)
  --attribution TEXT the credit of the lists (default: collected by the operator from developers)
  --license TEXT     their terms
`;

export function formatLandSupplySummary(r: LandSupplyIngestResult): string {
  const line = (what: string, file: string | null, c: LandSupplyIngestResult['estates'], extra = '') =>
    `${what} ${file ? basename(file) : '(no file)'}: read ${formatCount(c.read)}, inserted ${formatCount(c.inserted)}, updated ${formatCount(c.updated)}, unchanged ${formatCount(c.unchanged)}, refused ${formatCount(c.refused.length)}${extra}`;
  return `${[
    `Land supply into dataset '${r.dataset}', week ${r.week}, snapshot ${r.snapshot}, in ${seconds(r.ms)}`,
    line('estates', r.estates.file, r.estates),
    line('lots', r.lots.file, r.lots, `, snapshotted ${formatCount(r.lots.snapshotted)}`),
    `credited in ${r.states.join(', ') || 'no state'}; rollup of week ${r.week}: ${formatCount(r.rollup_rows)} rows`,
    ...noteLines('refused estates', (n) => (n.file.endsWith('.csv') ? 'line' : 'feature'), r.estates.refused),
    ...noteLines('refused lots', (n) => (n.file.endsWith('.csv') ? 'line' : 'feature'), r.lots.refused),
  ].join('\n')}\n`;
}

/** `args` are those after `ingest land-supply`. */
export function runIngestLandSupplyCommand(args: string[]): Promise<number> {
  return runIngest(
    'land-supply',
    LAND_SUPPLY_INGEST_USAGE,
    async () => {
      let parsed;
      try {
        parsed = parseArgs({
          args,
          options: {
            estates: { type: 'string' },
            lots: { type: 'string' },
            week: { type: 'string' },
            dataset: { type: 'string' },
            snapshot: { type: 'string' },
            attribution: { type: 'string' },
            license: { type: 'string' },
          },
          strict: true,
          allowPositionals: false,
        });
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
      if (!parsed.values.estates && !parsed.values.lots)
        throw new UsageError('give --estates FILE, --lots FILE or both');
      return prepareLandSupplyIngest(parsed.values);
    },
    loadLandSupply,
    formatLandSupplySummary,
  );
}
