/**
 * `landgraph ingest hazards <file> --state VIC [--kind flood|bushfire|contamination]
 * [--coverage <file>] [--dataset live] [--snapshot <id>]`: migrates the configured database and
 * loads hazard overlays or a contamination register into it, progress on stderr and a summary
 * on stdout. Exit codes as `ingest planning`: 2 for bad input, 1 for a load that failed.
 */
import { type HazardsIngestOptions, type HazardsIngestResult, loadHazards, prepareHazardsIngest } from './hazards.ts';
import type { FeatureNote } from './planning-load.ts';
import { seconds } from './progress.ts';
import { formatCount, formatTable, noteLines, parseFileArgs, runIngest } from './run.ts';

export const HAZARDS_USAGE = `Usage: landgraph ingest hazards <file> --state VIC [--kind flood|bushfire|contamination] [--coverage FILE]
                               [--dataset live] [--snapshot ID]
  <file>           a Vicmap Planning PLAN_OVERLAY layer as GeoJSON, or a shapefile's .shp with its .dbf and .prj
                   beside it, in longitude/latitude: its hazard overlays are loaded (FO flood high, LSIO flood
                   medium, SBO flood low, BMO bushfire high, EAO contamination medium) and the others skipped;
                   or a contamination register .csv with a site name, latitude and longitude per row (and
                   optionally a site id, address, suburb and status)
  --state CODE     the state the data belongs to (VIC)
  --kind KIND      load only this hazard's overlays (a register is contamination); coverage is written for
                   this kind, else for each hazard the file holds
  --coverage FILE  polygons of the area the data covers, e.g. the LGA boundary (default: for overlays each LGA's
                   planning coverage in the dataset, else the box around its overlays; for a register the box
                   around its sites)
  --dataset NAME   the dataset to load into (default: live, which only live keys and keyless map calls read;
                   test keys and the demo key read the sandbox, so query what you load with a live key)
  --snapshot ID    names the load in its source; a date in it (YYYY-MM-DD) is the hazards' freshness
                   (default: the file's name and date)`;

/** Lines of refusals and repairs printed in full; the rest are counted. */
/** The summary: per hazard, rows read, loaded and refused; what was skipped; the coverage and every refusal. */
export function formatHazardsSummary(result: HazardsIngestResult): string {
  const lines = [
    `Hazards ${result.source.file} (${result.source.format}) into dataset '${result.dataset}', ${result.state}, snapshot ${result.snapshot} (${result.snapshotDate}), in ${seconds(result.ms)}`,
  ];
  const cells = [
    ['hazard', 'read', 'loaded', 'refused'],
    ...result.kinds.map((c) => [c.kind, formatCount(c.read), formatCount(c.loaded), formatCount(c.refused)]),
  ];
  lines.push(...formatTable(cells));
  if (result.skipped > 0)
    lines.push(`skipped: ${formatCount(result.skipped)} overlays that are not the hazards loaded`);
  lines.push(
    `coverage (${result.coverage.kinds.join(', ')}): ${result.coverage.names.join(', ')} (from ${result.coverage.from})`,
  );
  const areas = Object.entries(result.coverageAreas).map(([kind, count]) => `${kind} ${formatCount(count)}`);
  lines.push(`${result.state} hazard coverage areas: ${areas.join(', ')}`);
  lines.push(...noteLines('refused', noteUnit, result.refused), ...noteLines('repaired', noteUnit, result.repaired));
  return `${lines.join('\n')}\n`;
}

/** A register is a CSV, whose notes name lines; an overlay layer's name features. */
const noteUnit = (note: FeatureNote): string => (note.file.endsWith('.csv') ? 'line' : 'feature');

function parseHazardsArgs(args: string[]): HazardsIngestOptions {
  const { file, values } = parseFileArgs(
    args,
    {
      state: { type: 'string' },
      kind: { type: 'string' },
      coverage: { type: 'string' },
      dataset: { type: 'string', default: 'live' },
      snapshot: { type: 'string' },
    },
    'hazards',
    'name the state the data belongs to with --state (VIC)',
  );
  const { state, kind, coverage, dataset, snapshot } = values;
  return { file, state, kind, coverage, dataset, snapshot };
}

/** `args` are those after `ingest hazards`. */
export function runIngestHazardsCommand(args: string[]): Promise<number> {
  return runIngest(
    'hazards',
    HAZARDS_USAGE,
    () => prepareHazardsIngest(parseHazardsArgs(args)),
    loadHazards,
    formatHazardsSummary,
  );
}
