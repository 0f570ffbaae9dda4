/**
 * `landgraph ingest planning <file> --state VIC [--layer zone|overlay|ugb] [--coverage <file>]
 * [--dataset live] [--snapshot <id>]`: migrates the configured database and loads a Vicmap
 * Planning layer into it, progress on stderr and a summary on stdout. Returns the exit code:
 * 2 for bad input (usage, files, CRS, layout), 1 for a load that failed.
 */
import {
  loadPlanning,
  type PlanningIngestOptions,
  type PlanningIngestResult,
  preparePlanningIngest,
} from './planning.ts';
import { seconds } from './progress.ts';
import { formatCount, formatTable, noteLines, parseFileArgs, runIngest } from './run.ts';

export const PLANNING_USAGE = `Usage: landgraph ingest planning <file> --state VIC [--layer zone|overlay|ugb] [--coverage <file>]
                                [--dataset live] [--snapshot ID]
  <file>           a Vicmap Planning layer (PLAN_ZONE, PLAN_OVERLAY or the UGB) as GeoJSON, FlatGeobuf (.fgb) or a shapefile's .shp
                   with its .dbf and .prj beside it; in longitude/latitude (WGS 84, GDA94 or GDA2020)
  --state CODE     the state the layer belongs to (VIC)
  --layer NAME     zone, overlay or ugb (default: from the file's name, else each feature's description)
  --coverage FILE  polygons of the area the layer covers, e.g. the LGA boundary (default for zones: their union)
  --dataset NAME   the dataset to load into (default: live, which only live keys and keyless map calls read;
                   test keys and the demo key read the sandbox, so query what you load with a live key)
  --snapshot ID    names the load in its source (default: the file's name and date)`;

/** Lines of refusals and repairs printed in full; the rest are counted. */
/** The summary: per layer, features read, loaded, repaired and refused; then the coverage and every refusal. */
export function formatPlanningSummary(result: PlanningIngestResult): string {
  const lines = [
    `Vicmap Planning ${result.source.file} (${result.source.format}, ${result.source.crs}) into dataset '${result.dataset}', ${result.state}, snapshot ${result.snapshot}, in ${seconds(result.ms)}`,
  ];
  const cells = [
    ['layer', 'read', 'loaded', 'repaired', 'refused'],
    ...result.layers.map((c) => [
      c.layer,
      formatCount(c.read),
      formatCount(c.loaded),
      formatCount(c.repaired),
      formatCount(c.refused),
    ]),
  ];
  lines.push(...formatTable(cells));
  if (result.coverage) {
    lines.push(`coverage: ${result.coverage.names.join(', ')} (from ${result.coverage.from})`);
  }
  lines.push(
    result.coverageAreas === 0
      ? `warning: ${result.state} has no planning coverage in '${result.dataset}', so every lookup answers not_covered; give --coverage`
      : `${result.state} planning coverage: ${formatCount(result.coverageAreas)} area${result.coverageAreas === 1 ? '' : 's'}`,
  );
  lines.push(...noteLines('refused', 'feature', result.refused), ...noteLines('repaired', 'feature', result.repaired));
  return `${lines.join('\n')}\n`;
}

function parsePlanningArgs(args: string[]): PlanningIngestOptions {
  const { file, values } = parseFileArgs(
    args,
    {
      state: { type: 'string' },
      layer: { type: 'string' },
      coverage: { type: 'string' },
      dataset: { type: 'string', default: 'live' },
      snapshot: { type: 'string' },
    },
    'planning',
    'name the state the layer belongs to with --state (VIC)',
  );
  const { state, layer, coverage, dataset, snapshot } = values;
  return { file, state, layer, coverage, dataset, snapshot };
}

/** `args` are those after `ingest planning`. */
export function runIngestPlanningCommand(args: string[]): Promise<number> {
  return runIngest(
    'planning',
    PLANNING_USAGE,
    () => preparePlanningIngest(parsePlanningArgs(args)),
    loadPlanning,
    formatPlanningSummary,
  );
}
