/**
 * `landgraph ingest census --datapack <dir> [--geography SAL|SA1] [--attribution TEXT --license TEXT]
 * [--dataset live] [--snapshot ID]` and `landgraph ingest census-boundaries --geography SAL|SA1
 * --file <file> [...]`: migrate the configured database and load the ABS Census 2021 General
 * Community Profile figures, or the boundaries they refer to. Exit codes as the other ingests:
 * 2 for bad input, 1 for a load that failed.
 */
import { parseArgs } from 'node:util';
import { GEOJSONSEQ_EXTENSIONS } from './geojsonseq.ts';
import type { BoundaryIngestResult, CensusIngestResult } from './census.ts';
import {
  ABS_CREDIT,
  CENSUS_TABLES,
  loadBoundaries,
  loadCensus,
  prepareBoundaryIngest,
  prepareCensusIngest,
} from './census.ts';
import { seconds } from './progress.ts';
import { formatCount, noteLines, runIngest, UsageError } from './run.ts';

const tableList = CENSUS_TABLES.map((t) => `${t.id}${t.required ? ' (required)' : ''}`).join(', ');

export const CENSUS_USAGE = `Usage: landgraph ingest census --datapack <dir> [--geography SAL|SA1] [--attribution TEXT --license TEXT]
                              [--dataset live] [--snapshot ID]
  --datapack DIR      an ABS Census 2021 General Community Profile DataPack, unzipped (short headers): its
                      2021Census_<table>_AUST_<geography>.csv files are found anywhere below DIR (a state pack's
                      2021Census_<table>_VIC_<geography>.csv too). Tables read: ${tableList}.
                      Every column read is checked in each file's header first; a missing one is refused, naming
                      the file and the column. '..' cells and medians of 0 (not computed) load as null.
  --geography GEO     SAL (suburbs and localities, the default) or SA1 (statistical areas level 1)
  --attribution TEXT  the credit answers carry, with --license (default: ${ABS_CREDIT.attribution})
  --license TEXT      the licence of that credit (default: ${ABS_CREDIT.license})
  --dataset NAME      the dataset to load into (default: live, which only live keys read; the sandbox is refused)
  --snapshot ID       names the load in its credit (default: census-2021-gcp-<geography>)
  A rerun replaces the figures of every area it holds. Load the boundaries with ingest census-boundaries.
`;

export const CENSUS_BOUNDARIES_USAGE = `Usage: landgraph ingest census-boundaries --geography SAL|SA1 --file <file> [--attribution TEXT --license TEXT]
                                         [--dataset live] [--snapshot ID]
  --geography GEO     SAL or SA1: which ASGS 2021 boundaries the file holds
  --file FILE         the ABS digital boundary file (SAL_2021_AUST_GDA2020 or SA1_2021_AUST_GDA2020) as GeoJSON,
                      line-delimited GeoJSON (${GEOJSONSEQ_EXTENSIONS.join(' ')}), FlatGeobuf (.fgb) or a shapefile's .shp,
                      in longitude/latitude, with the ABS's fields: SAL_CODE21 and SAL_NAME21, or SA1_CODE21 (named
                      by SA2_NAME21 where present), and AREASQKM21. Areas without geometry are listed and left out.
  --attribution TEXT  the credit answers carry, with --license (default: the ABS's, CC BY 4.0)
  --license TEXT      the licence of that credit
  --dataset NAME      the dataset to load into (default: live, which only live keys read; the sandbox is refused)
  --snapshot ID       names the load in its credit (default: the file's name and date)
`;

export function formatCensusSummary(r: CensusIngestResult): string {
  return `${[
    `Census 2021 ${r.geography} figures into dataset '${r.dataset}', snapshot ${r.snapshot}, in ${seconds(r.ms)}`,
    `tables: ${r.tables.join(', ')}${r.missingTables.length > 0 ? `; not in the pack: ${r.missingTables.join(', ')}` : ''}`,
    `read ${formatCount(r.read)} rows, loaded ${formatCount(r.loaded)} areas (${r.states.join(', ')}), refused ${formatCount(r.refused.length)}`,
    `credit: ${r.credit.attribution} (${r.credit.license})`,
    ...noteLines('refused', 'line', r.refused),
  ].join('\n')}\n`;
}

export function formatBoundarySummary(r: BoundaryIngestResult): string {
  const unit = r.file.format === 'GeoJSONSeq' ? 'line' : 'feature';
  return `${[
    `Census 2021 ${r.geography} boundaries ${r.file.name} (${r.file.format}, ${r.file.crs}) into dataset '${r.dataset}', snapshot ${r.snapshot}, in ${seconds(r.ms)}`,
    `read ${formatCount(r.read)}, loaded ${formatCount(r.loaded)} (${r.states.join(', ')}), refused ${formatCount(r.refused.length)}, repaired ${formatCount(r.repaired.length)}`,
    `credit: ${r.credit.attribution} (${r.credit.license})`,
    ...noteLines('refused', unit, r.refused),
    ...noteLines('repaired', unit, r.repaired),
  ].join('\n')}\n`;
}

const COMMON = {
  geography: { type: 'string' },
  attribution: { type: 'string' },
  license: { type: 'string' },
  dataset: { type: 'string' },
  snapshot: { type: 'string' },
} as const;

function parse<T extends Record<string, { type: 'string' }>>(args: string[], options: T) {
  try {
    const parsed = parseArgs({ args, options, strict: true, allowPositionals: true });
    if (parsed.positionals.length > 0) throw new UsageError(`unexpected argument "${parsed.positionals[0]}"`);
    return parsed.values as Partial<Record<keyof T, string>>;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError((error as Error).message);
  }
}

/** `args` are those after `ingest census`. */
export function runIngestCensusCommand(args: string[]): Promise<number> {
  return runIngest(
    'census',
    CENSUS_USAGE,
    async () => {
      const values = parse(args, { ...COMMON, datapack: { type: 'string' } });
      if (!values.datapack) throw new UsageError('name the DataPack directory with --datapack');
      return prepareCensusIngest({ ...values, datapack: values.datapack });
    },
    loadCensus,
    formatCensusSummary,
  );
}

/** `args` are those after `ingest census-boundaries`. */
export function runIngestCensusBoundariesCommand(args: string[]): Promise<number> {
  return runIngest(
    'census-boundaries',
    CENSUS_BOUNDARIES_USAGE,
    async () => {
      const values = parse(args, { ...COMMON, file: { type: 'string' } });
      if (!values.geography) throw new UsageError('name the geography with --geography SAL or SA1');
      if (!values.file) throw new UsageError('name the boundary file with --file');
      return prepareBoundaryIngest({ ...values, file: values.file });
    },
    loadBoundaries,
    formatBoundarySummary,
  );
}
