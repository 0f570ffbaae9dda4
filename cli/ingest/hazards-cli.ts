/**
 * `landgraph ingest hazards <file> --state VIC|NSW|QLD [--layout NAME] [--kind flood|bushfire|contamination]
 * [--coverage <file>] [--dataset live] [--snapshot <id>]`: migrates the configured database and
 * loads hazard overlays, a state hazard layer or a contamination register into it, progress on stderr and a summary
 * on stdout. Exit codes as `ingest planning`: 2 for bad input, 1 for a load that failed.
 */
import { type HazardsIngestOptions, type HazardsIngestResult, loadHazards, prepareHazardsIngest } from './hazards.ts';
import { LAYOUT_NAMES } from './hazards-state-layouts.ts';
import type { FeatureNote } from './planning-load.ts';
import { seconds } from './progress.ts';
import { formatCount, formatTable, noteLines, parseFileArgs, runIngest } from './run.ts';

export const HAZARDS_USAGE = `Usage: landgraph ingest hazards <file> --state VIC|NSW|QLD [--layout NAME] [--kind flood|bushfire|contamination]
                               [--coverage FILE] [--dataset live] [--snapshot ID]
  <file>           a hazard layer as GeoJSON, line-delimited GeoJSON (.geojsonl...), FlatGeobuf (.fgb) or a shapefile's
                   .shp with its .dbf and .prj beside it, in longitude/latitude; its layout is told by its attributes:
                   VIC  a Vicmap Planning PLAN_OVERLAY layer (ZONE_CODE): its hazard overlays are loaded (FO flood
                        high, LSIO flood medium, SBO flood low, BMO bushfire high, EAO contamination medium), the
                        others skipped; or the Designated Bushfire Prone Area (BUSHFIRE_PRONE_AREA, told by its file
                        name or --layout vic-bpa): BPA bushfire medium;
                        or a contamination register .csv with a site name, latitude and longitude per row (and
                        optionally a site id, address, suburb and status)
                   NSW  RFS Bush Fire Prone Land (d_Category / Category): BFPL_CAT1 high, BFPL_CAT2 and BFPL_CAT3
                        medium, BFPL_BUFFER low, and categories 1, 2, 3 also as the BAL's classified vegetation
                        (forest, rainforest, grassland); or the EPI Flood Planning layer (EPI_NAME, LAY_CLASS; its
                        file name must say flood, else --layout nsw-flood-planning): FPA flood
                   QLD  SPP Bushfire prone area (CLASS): BPA_VERY_HIGH extreme, BPA_HIGH high, BPA_MEDIUM medium,
                        BPA_BUFFER (potential impact buffer) low; or SPP Flood hazard area Level 1, the Queensland
                        floodplain assessment overlay (sub_name, sub_number): FLOOD_HAZARD_MEDIUM
  --state CODE     the state the data belongs to (VIC, NSW, QLD)
  --layout NAME    the file's layout where its attributes do not tell it, one of
                   ${LAYOUT_NAMES.slice(0, 3).join(', ')},
                   ${LAYOUT_NAMES.slice(3).join(', ')}
  --kind KIND      load only this hazard's areas (a register is contamination); coverage is written for
                   this kind, else for each hazard the file holds
  --coverage FILE  polygons of the area the data covers, e.g. the LGA or state boundary (default: per LGA the
                   planning coverage in the dataset, else the box around its areas; a layer without an LGA
                   attribute, the box around all its areas; for a register the box around its sites)
  --dataset NAME   the dataset to load into (default: live, which only live keys and keyless map calls read;
                   test keys and the demo key read the sandbox, so query what you load with a live key)
  --snapshot ID    names the load in its source; a date in it (YYYY-MM-DD) is the hazards' freshness
                   (default: the file's name and date)`;

/** Lines of refusals and repairs printed in full; the rest are counted. */
/** The summary: per hazard, rows read, loaded and refused; what was skipped; the coverage and every refusal. */
export function formatHazardsSummary(result: HazardsIngestResult): string {
  const lines = [
    `Hazards ${result.source.file} (${result.source.layout}; ${result.source.format}) into dataset '${result.dataset}', ${result.state}, snapshot ${result.snapshot} (${result.snapshotDate}), in ${seconds(result.ms)}`,
  ];
  const cells = [
    ['hazard', 'read', 'loaded', 'refused'],
    ...result.kinds.map((c) => [c.kind, formatCount(c.read), formatCount(c.loaded), formatCount(c.refused)]),
  ];
  lines.push(...formatTable(cells));
  if (result.skipped > 0)
    lines.push(`skipped: ${formatCount(result.skipped)} overlays that are not the hazards loaded`);
  if (result.vegetation > 0)
    lines.push(`classified vegetation for the BAL: ${formatCount(result.vegetation)} polygons`);
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
      layout: { type: 'string' },
      kind: { type: 'string' },
      coverage: { type: 'string' },
      dataset: { type: 'string', default: 'live' },
      snapshot: { type: 'string' },
    },
    'hazards',
    'name the state the data belongs to with --state (VIC, NSW or QLD)',
  );
  const { state, layout, kind, coverage, dataset, snapshot } = values;
  return { file, state, layout, kind, coverage, dataset, snapshot };
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
