/**
 * `landgraph ingest buildings <file> --state VIC|NSW|QLD [--source osm|state] [--dataset live]
 * [--snapshot ID]` and `landgraph ingest land-values <file> --state NSW [--base-date YYYY-MM-DD]
 * [--dataset live] [--snapshot ID]`: migrate the configured database and load the file, progress
 * on stderr and a summary on stdout. Exit codes as `ingest planning`: 2 for bad input, 1 for a
 * load that failed.
 */
import { type BuildingsIngestResult, loadBuildings, prepareBuildingsIngest } from './buildings.ts';
import { GEOJSONSEQ_EXTENSIONS } from './geojsonseq.ts';
import { type LandValuesIngestResult, loadLandValues, prepareLandValuesIngest } from './land-values.ts';
import { seconds } from './progress.ts';
import { formatCount, noteLines, parseFileArgs, runIngest } from './run.ts';

export const BUILDINGS_USAGE = `Usage: landgraph ingest buildings <file> --state VIC|NSW|QLD [--source osm|state] [--dataset live]
                                 [--snapshot ID]
  <file>           building footprints as GeoJSON, line-delimited GeoJSON (${GEOJSONSEQ_EXTENSIONS.join(' ')}; one
                   Feature a line, read as a stream, e.g. Microsoft's Australia building footprints), FlatGeobuf
                   (.fgb) or a shapefile's .shp; in longitude/latitude. Only footprints inside --state are loaded.
                   Heights and storeys are kept where the source tags them (height, building:levels).
  --state CODE     the state to load (VIC, NSW or QLD)
  --source NAME    osm: OpenStreetMap or Microsoft outlines, credited ODbL (default); state: the state's
                   building layer, credited CC BY 4.0
  --dataset NAME   the dataset to load into (default: live, which only live keys read; the sandbox is refused)
  --snapshot ID    names the load in its credit; its date is the layer's freshness (default: the file's
                   name and date)
`;

export const LAND_VALUES_USAGE = `Usage: landgraph ingest land-values <file> --state NSW [--base-date YYYY-MM-DD] [--dataset live]
                                   [--snapshot ID]
  <file>             a NSW Valuer General bulk land value file (comma or pipe separated, with its header:
                     DISTRICT CODE, PROPERTY ID, PROPERTY DESCRIPTION, BASE DATE 1..5, LAND VALUE 1..5, ...)
                     Each value goes to the parcel its PROPERTY DESCRIPTION (lot/plan, e.g. 1/DP123456)
                     names in the NSW cadastre already loaded; properties of several or part lots are listed
                     and left out.
  --state CODE       NSW (the only valuer-general layout read so far)
  --base-date DATE   load the valuation at this base date (default: each property's newest)
  --dataset NAME     the dataset to load into (default: live, which only live keys read; the sandbox is refused)
  --snapshot ID      names the load in its credit; its date is the layer's freshness (default: the file's
                     name and date)
`;

export function formatBuildingsSummary(r: BuildingsIngestResult): string {
  const unit = r.file.format === 'GeoJSONSeq' ? 'line' : 'feature';
  return `${[
    `Building footprints ${r.file.name} (${r.file.format}, ${r.file.crs}) into dataset '${r.dataset}', ${r.state}, source ${r.source}, snapshot ${r.snapshot} (${r.snapshotDate}), in ${seconds(r.ms)}`,
    `read ${formatCount(r.read)}, loaded ${formatCount(r.loaded)}, repaired ${formatCount(r.repaired.length)}, refused ${formatCount(r.refused.length)}, in other states ${formatCount(r.elsewhere)}`,
    `coverage: ${r.coverage} (the area the loaded footprints span)`,
    `credit: ${r.credit.attribution} (${r.credit.license})`,
    ...noteLines('refused', unit, r.refused),
    ...noteLines('repaired', unit, r.repaired),
  ].join('\n')}\n`;
}

export function formatLandValuesSummary(r: LandValuesIngestResult): string {
  return `${[
    `Land values ${r.file.name} (delimiter "${r.file.delimiter}") into dataset '${r.dataset}', ${r.state}, snapshot ${r.snapshot} (${r.snapshotDate}), in ${seconds(r.ms)}`,
    `read ${formatCount(r.read)}, loaded ${formatCount(r.loaded)}, not linked to a parcel ${formatCount(r.unlinked.length)}, without a valuation ${formatCount(r.unvalued)}`,
    `coverage: ${r.districts.join(', ')}`,
    ...noteLines('not linked', 'line', r.unlinked),
  ].join('\n')}\n`;
}

/** `args` are those after `ingest buildings`. */
export function runIngestBuildingsCommand(args: string[]): Promise<number> {
  return runIngest(
    'buildings',
    BUILDINGS_USAGE,
    async () => {
      const { file, values } = parseFileArgs(
        args,
        {
          state: { type: 'string' },
          source: { type: 'string' },
          dataset: { type: 'string' },
          snapshot: { type: 'string' },
        },
        'building footprint',
        'name the state with --state',
      );
      return prepareBuildingsIngest({ file, ...values });
    },
    loadBuildings,
    formatBuildingsSummary,
  );
}

/** `args` are those after `ingest land-values`. */
export function runIngestLandValuesCommand(args: string[]): Promise<number> {
  return runIngest(
    'land-values',
    LAND_VALUES_USAGE,
    async () => {
      const { file, values } = parseFileArgs(
        args,
        {
          state: { type: 'string' },
          'base-date': { type: 'string' },
          dataset: { type: 'string' },
          snapshot: { type: 'string' },
        },
        'land value',
        'name the state with --state',
      );
      return prepareLandValuesIngest({
        file,
        state: values.state,
        baseDate: values['base-date'],
        dataset: values.dataset,
        snapshot: values.snapshot,
      });
    },
    loadLandValues,
    formatLandValuesSummary,
  );
}
