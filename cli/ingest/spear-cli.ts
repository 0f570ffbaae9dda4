/**
 * `landgraph ingest spear <file> [--dataset live] [--snapshot ID] [--attribution TEXT] [--license TEXT]`:
 * migrate the configured database and load the export, a summary on stdout. Exit codes as
 * `ingest planning`: 2 for bad input, 1 for a load that failed.
 */
import { parseArgs } from 'node:util';
import { seconds } from './progress.ts';
import { UsageError, formatCount, noteLines, runIngest } from './run.ts';
import { type SpearIngestResult, loadSpear, prepareSpearIngest } from './spear.ts';

export const SPEAR_USAGE = `Usage: landgraph ingest spear <file> [--dataset live] [--snapshot ID] [--attribution TEXT] [--license TEXT]
  <file>             SPEAR applications (Victoria) as JSON: the rows of SPEAR's public search answer
                     ({"data": {"resultRows": [...]}}) or a bare array of them, in SPEAR's field names
                     (spearReference, responsibleAuthority, applicationType, status, submittedDate dd/mm/yyyy,
                     decisionDate, property, intendedUse, councilReference, lastModified) plus the touched lots'
                     parcelPfis (array, or one text split by ;) and/or lat and lng.
                     Or a .csv with the same columns (header names matched without case or spaces: "SPEAR
                     Reference", "Responsible Authority", "Submitted Date", "Parcel PFIs", "Latitude", ...);
                     spearReference, responsibleAuthority and parcelPfis or lat and lng are required.
                     Rows are upserted by SPEAR reference: a rerun changes only what changed. Rows that cannot
                     be read are listed (a CSV's by line).
  --dataset NAME     the dataset to load into (default: live, which only live keys read; the sandbox is refused)
  --snapshot ID      names the load in its credit (default: the file's name and date)
  --attribution TEXT the credit your SPEAR agreement gives (default: SPEAR, State of Victoria (Land Use Victoria))
  --license TEXT     the terms of that agreement (SPEAR has no open licence)
`;

export function formatSpearSummary(r: SpearIngestResult): string {
  return `${[
    `SPEAR applications ${r.file} into dataset '${r.dataset}', snapshot ${r.snapshot}, in ${seconds(r.ms)}`,
    `read ${formatCount(r.read)}, inserted ${formatCount(r.inserted)}, updated ${formatCount(r.updated)}, unchanged ${formatCount(r.unchanged)}, written on a lot ${formatCount(r.on_lot)}, refused ${formatCount(r.refused.length)}`,
    ...noteLines('refused', r.file.toLowerCase().endsWith('.csv') ? 'line' : 'row', r.refused),
  ].join('\n')}\n`;
}

/** `args` are those after `ingest spear`. */
export function runIngestSpearCommand(args: string[]): Promise<number> {
  return runIngest(
    'spear',
    SPEAR_USAGE,
    async () => {
      let parsed;
      try {
        parsed = parseArgs({
          args,
          options: {
            dataset: { type: 'string' },
            snapshot: { type: 'string' },
            attribution: { type: 'string' },
            license: { type: 'string' },
          },
          strict: true,
          allowPositionals: true,
        });
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
      const [file, ...extra] = parsed.positionals;
      if (!file) throw new UsageError('name the SPEAR export file to load');
      if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
      return prepareSpearIngest({ file, ...parsed.values });
    },
    loadSpear,
    formatSpearSummary,
  );
}
