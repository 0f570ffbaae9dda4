/**
 * `landgraph ingest planning <file> --state VIC [--layer zone|overlay|ugb] [--coverage <file>]
 * [--dataset live] [--snapshot <id>]`: migrates the configured database and loads a Vicmap
 * Planning layer into it, progress on stderr and a summary on stdout. Returns the exit code:
 * 2 for bad input (usage, files, CRS, layout), 1 for a load that failed.
 */
import { parseArgs } from 'node:util';
import {
  loadPlanning,
  type PlanningIngestOptions,
  type PlanningIngestResult,
  preparePlanningIngest,
} from './planning.ts';
import type { FeatureNote } from './planning-load.ts';
import { seconds } from './progress.ts';
import { UsageError, formatTable, runIngest } from './run.ts';

export const PLANNING_USAGE = `Usage: landgraph ingest planning <file> --state VIC [--layer zone|overlay|ugb] [--coverage <file>]
                                [--dataset live] [--snapshot ID]
  <file>           a Vicmap Planning layer (PLAN_ZONE, PLAN_OVERLAY or the UGB) as GeoJSON, or a shapefile's .shp
                   with its .dbf and .prj beside it; in longitude/latitude (WGS 84, GDA94 or GDA2020)
  --state CODE     the state the layer belongs to (VIC)
  --layer NAME     zone, overlay or ugb (default: from the file's name, else each feature's description)
  --coverage FILE  polygons of the area the layer covers, e.g. the LGA boundary (default for zones: their union)
  --dataset NAME   the dataset to load into (default: live, which only live keys and keyless map calls read;
                   test keys and the demo key read the sandbox, so query what you load with a live key)
  --snapshot ID    names the load in its source (default: the file's name and date)`;

/** Lines of refusals and repairs printed in full; the rest are counted. */
const LISTED = 20;

const n = (value: number) => value.toLocaleString('en-AU');

function noteLines(title: string, notes: readonly FeatureNote[]): string[] {
  const lines = notes
    .slice(0, LISTED)
    .map((note) => `  ${note.file} feature ${note.feature}${note.key ? ` (${note.key})` : ''}: ${note.reason}`);
  if (notes.length > LISTED) lines.push(`  ... and ${n(notes.length - LISTED)} more`);
  return lines.length > 0 ? [`${title}:`, ...lines] : [];
}

/** The summary: per layer, features read, loaded, repaired and refused; then the coverage and every refusal. */
export function formatPlanningSummary(result: PlanningIngestResult): string {
  const lines = [
    `Vicmap Planning ${result.source.file} (${result.source.format}, ${result.source.crs}) into dataset '${result.dataset}', ${result.state}, snapshot ${result.snapshot}, in ${seconds(result.ms)}`,
  ];
  const cells = [
    ['layer', 'read', 'loaded', 'repaired', 'refused'],
    ...result.layers.map((c) => [c.layer, n(c.read), n(c.loaded), n(c.repaired), n(c.refused)]),
  ];
  lines.push(...formatTable(cells));
  if (result.coverage) {
    lines.push(`coverage: ${result.coverage.names.join(', ')} (from ${result.coverage.from})`);
  }
  lines.push(
    result.coverageAreas === 0
      ? `warning: ${result.state} has no planning coverage in '${result.dataset}', so every lookup answers not_covered; give --coverage`
      : `${result.state} planning coverage: ${n(result.coverageAreas)} area${result.coverageAreas === 1 ? '' : 's'}`,
  );
  lines.push(...noteLines('refused', result.refused), ...noteLines('repaired', result.repaired));
  return `${lines.join('\n')}\n`;
}

function parsePlanningArgs(args: string[]): PlanningIngestOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: {
        state: { type: 'string' },
        layer: { type: 'string' },
        coverage: { type: 'string' },
        dataset: { type: 'string', default: 'live' },
        snapshot: { type: 'string' },
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const [file, ...extra] = parsed.positionals;
  if (!file) throw new UsageError('name the planning file to load');
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  const { state, layer, coverage, dataset, snapshot } = parsed.values;
  if (!state) throw new UsageError('name the state the layer belongs to with --state (VIC)');
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
