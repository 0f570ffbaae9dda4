/**
 * `landgraph ingest development-applications <file> --format planningalerts|nsw-portal
 * [--dataset live] [--snapshot ID]`: migrate the configured database and load the file, a summary
 * on stdout. Exit codes as `ingest planning`: 2 for bad input, 1 for a load that failed.
 */
import { parseArgs } from 'node:util';
import { type DevelopmentIngestResult, loadDevelopmentApplications, prepareDevelopmentIngest } from './development.ts';
import { seconds } from './progress.ts';
import { UsageError, formatCount, noteLines, runIngest } from './run.ts';

export const DEVELOPMENT_USAGE = `Usage: landgraph ingest development-applications <file> --format planningalerts|nsw-portal
                                                [--dataset live] [--snapshot ID]
  <file>           development applications as JSON in the source's published shape:
                   planningalerts: the PlanningAlerts API's applications.json (an array of
                     {"application": {...}}, or the v2 body with "applications"); every record is lodged,
                     as PlanningAlerts publishes no outcome
                   nsw-portal: the NSW Planning Portal Online DA data API's answer ({"Application": [...]})
                   Records are upserted by source, council and council reference: a rerun changes only what
                   changed. Each application's point is matched to the parcel and address under it.
  --format NAME    planningalerts or nsw-portal
  --dataset NAME   the dataset to load into (default: live, which only live keys read; the sandbox is refused)
  --snapshot ID    names the load in its credit (default: the file's name and date)
`;

export function formatDevelopmentSummary(r: DevelopmentIngestResult): string {
  return `${[
    `Development applications ${r.file} (${r.format}) into dataset '${r.dataset}', ${r.states.join(', ') || 'no state'}, snapshot ${r.snapshot}, in ${seconds(r.ms)}`,
    `read ${formatCount(r.read)}, inserted ${formatCount(r.inserted)}, updated ${formatCount(r.updated)}, unchanged ${formatCount(r.unchanged)}, matched to a parcel ${formatCount(r.matched)}, refused ${formatCount(r.refused.length)}`,
    ...noteLines('refused', 'application', r.refused),
  ].join('\n')}\n`;
}

/** `args` are those after `ingest development-applications`. */
export function runIngestDevelopmentCommand(args: string[]): Promise<number> {
  return runIngest(
    'development-applications',
    DEVELOPMENT_USAGE,
    async () => {
      let parsed;
      try {
        parsed = parseArgs({
          args,
          options: { format: { type: 'string' }, dataset: { type: 'string' }, snapshot: { type: 'string' } },
          strict: true,
          allowPositionals: true,
        });
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
      const [file, ...extra] = parsed.positionals;
      if (!file) throw new UsageError('name the development applications file to load');
      if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
      return prepareDevelopmentIngest({ file, ...parsed.values });
    },
    loadDevelopmentApplications,
    formatDevelopmentSummary,
  );
}
