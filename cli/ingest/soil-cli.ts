/**
 * `landgraph ingest soil <file> --state VIC|NSW|QLD [--clay FIELD] [--depth FIELD]
 * [--depth-unit m|cm|mm] [--reactivity FIELD] [--product TEXT] [--attribution TEXT --license TEXT]
 * [--dataset live] [--snapshot ID]`: migrates the configured database and loads soil polygons,
 * progress on stderr and a summary on stdout. Exit codes as `ingest planning`: 2 for bad input,
 * 1 for a load that failed.
 */
import { loadSoil, prepareSoilIngest, type SoilIngestResult } from './soil.ts';
import { GEOJSONSEQ_EXTENSIONS } from './geojsonseq.ts';
import { seconds } from './progress.ts';
import { formatCount, noteLines, parseFileArgs, runIngest } from './run.ts';

export const SOIL_USAGE = `Usage: landgraph ingest soil <file> --state VIC|NSW|QLD [--clay FIELD] [--depth FIELD] [--depth-unit m|cm|mm]
                            [--reactivity FIELD] [--product TEXT] [--attribution TEXT --license TEXT]
                            [--dataset live] [--snapshot ID]
  <file>              soil polygons as GeoJSON, line-delimited GeoJSON (${GEOJSONSEQ_EXTENSIONS.join(' ')}), FlatGeobuf
                      (.fgb) or a shapefile's .shp, in longitude/latitude, each with a clay content (percent) and a depth of soil: the Soil
                      and Landscape Grid of Australia summarised over polygons, by its names CLY (or its slices
                      CLY_000_005_EV..CLY_100_200_EV, averaged over the soil depth) and DES (metres). Polygons
                      without usable figures are listed and left out. Maps of soil landscape codes only (eSPADE,
                      Atlas of Australian Soils) have no figures and are refused.
  --state CODE        the state to load (VIC, NSW or QLD); polygons in other states are left for their run
  --clay FIELD        the attribute holding clay percent (default: CLY, CLY_EV, CLAY, ... or the CLY slices)
  --depth FIELD       the attribute holding the depth of soil (default: DES, DES_EV, DEPTH_M, SOIL_DEPTH)
  --depth-unit UNIT   the depth's unit: m (default, as SLGA), cm or mm
  --reactivity FIELD  the attribute holding a shrink-swell class (nil, low, moderate, high, very high, extreme,
                      problem; default: REACTIVITY or SHRINK_SWELL where present, else none is recorded)
  --product TEXT      names the product in answers (default: ${'SLGA CLY/DES (summarised over polygons)'})
  --attribution TEXT  the credit answers carry, with --license (default: the Soil and Landscape Grid's, CC BY 4.0)
  --license TEXT      the licence of that credit
  --dataset NAME      the dataset to load into (default: live, which only live keys read; the sandbox is refused)
  --snapshot ID       names the load in its credit; its date is the figures' freshness (default: the file's
                      name and date)
`;

export function formatSoilSummary(r: SoilIngestResult): string {
  const unit = r.file.format === 'GeoJSONSeq' ? 'line' : 'feature';
  return `${[
    `Soil ${r.file.name} (${r.file.format}, ${r.file.crs}) into dataset '${r.dataset}', ${r.state}, snapshot ${r.snapshot} (${r.snapshotDate}), in ${seconds(r.ms)}`,
    `mapping: ${r.mapping}; product ${r.product}`,
    `read ${formatCount(r.read)}, loaded ${formatCount(r.loaded)} (${formatCount(r.withoutReactivity)} without a shrink-swell class), repaired ${formatCount(r.repaired.length)}, refused ${formatCount(r.refused.length)}, in other states ${formatCount(r.elsewhere)}`,
    `coverage: ${r.coverage} (the area the loaded polygons span)`,
    `credit: ${r.credit.attribution} (${r.credit.license})`,
    ...noteLines('refused', unit, r.refused),
    ...noteLines('repaired', unit, r.repaired),
  ].join('\n')}\n`;
}

/** `args` are those after `ingest soil`. */
export function runIngestSoilCommand(args: string[]): Promise<number> {
  return runIngest(
    'soil',
    SOIL_USAGE,
    async () => {
      const { file, values } = parseFileArgs(
        args,
        {
          state: { type: 'string' },
          clay: { type: 'string' },
          depth: { type: 'string' },
          'depth-unit': { type: 'string' },
          reactivity: { type: 'string' },
          product: { type: 'string' },
          attribution: { type: 'string' },
          license: { type: 'string' },
          dataset: { type: 'string' },
          snapshot: { type: 'string' },
        },
        'soil',
        'name the state with --state',
      );
      return prepareSoilIngest({ file, ...values, depthUnit: values['depth-unit'] });
    },
    loadSoil,
    formatSoilSummary,
  );
}
