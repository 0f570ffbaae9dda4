/**
 * Loads the ABS Census 2021 General Community Profile (GCP) into census.profile, and the ASGS
 * 2021 boundaries the figures refer to into census.boundary, for one geography at a time:
 * Suburbs and Localities (SAL) or Statistical Areas Level 1 (SA1).
 *
 * The figures come from the published DataPack CSVs, as the ABS names and lays them out
 * (short headers): `2021Census_G01_AUST_SAL.csv` and its siblings, found anywhere under the
 * DataPack directory given (the national pack nests them under
 * `2021 Census GCP All Geographies for AUS/SAL/AUS/`, a state pack writes VIC for AUST). G01
 * (persons and age groups) and G02 (medians and averages) are required; G29 (family
 * composition), G35 (households), G36 (dwelling structure) and G37 (tenure) are read where the
 * pack holds them, and a profile records which tables it came from. Every column read is checked
 * in each file's header first: a missing one is refused naming the file and the column.
 *
 * The DataPacks write '..' where a cell does not apply and 0 for a median they could not
 * compute (no renters, too few people): both load as null, never as a figure of 0.
 *
 * The boundaries come from the ABS's digital boundary files (SAL_2021_AUST_GDA2020, SA1_2021_
 * AUST_GDA2020) as GeoJSON, line-delimited GeoJSON, FlatGeobuf or a shapefile, by their own
 * field names: SAL_CODE21 and SAL_NAME21, or SA1_CODE21 with SA2_NAME21, and STE_CODE21,
 * AREASQKM21. Features without geometry (the ABS's "No usual address" and "Migratory - Offshore
 * - Shipping" areas) are listed and left out.
 *
 * As the other ingests: checked before writing, one transaction, an area keyed by its code so a
 * rerun replaces its row, and the layer's credit written per state the load touched.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from '../../core/db.ts';
import type { StateCode } from '../../core/geo.ts';
import { suburbKey } from '../../core/suburb-metrics.ts';
import { withoutAbsSuffix } from '../../subgraphs/demographics/profile.ts';
import { IngestError } from './gnaf-release.ts';
import { openDelimited } from './delimited.ts';
import { lowerKeys } from './buildings.ts';
import { checkDataset, snapshotId } from './planning.ts';
import { cleanPolygons, RefusedGeometry } from './planning-geometry.ts';
import type { FeatureNote } from './planning-load.ts';
import * as PLANNING from './planning-sql.ts';
import { type FeatureSource, openFeatureSource } from './planning-source.ts';
import * as CENSUS from './census-sql.ts';

export const CENSUS_GEOGRAPHIES = ['SAL', 'SA1'] as const;
export type CensusGeography = (typeof CENSUS_GEOGRAPHIES)[number];

/** The layer's name in public.dataset_source, as the demographics subgraph reads it. */
export const DEMOGRAPHICS_LAYER = 'demographics';

export const ABS_CREDIT = {
  attribution:
    'Source: Australian Bureau of Statistics, Census of Population and Housing 2021, General Community Profile; ASGS Edition 3 boundaries. CC BY 4.0',
  license: 'CC BY 4.0',
};

/** The ABS state code that opens every SAL and SA1 code. */
const STATE_OF_DIGIT: Record<string, StateCode> = {
  '1': 'NSW',
  '2': 'VIC',
  '3': 'QLD',
  '4': 'SA',
  '5': 'WA',
  '6': 'TAS',
  '7': 'NT',
  '8': 'ACT',
  '9': 'OT',
};

/** G01's age groups: the key the profile writes, and the DataPack's persons column. */
const G01_AGES: ReadonlyArray<readonly [string, string]> = [
  ['0_4', 'Age_0_4_yr_P'],
  ['5_14', 'Age_5_14_yr_P'],
  ['15_19', 'Age_15_19_yr_P'],
  ['20_24', 'Age_20_24_yr_P'],
  ['25_34', 'Age_25_34_yr_P'],
  ['35_44', 'Age_35_44_yr_P'],
  ['45_54', 'Age_45_54_yr_P'],
  ['55_64', 'Age_55_64_yr_P'],
  ['65_74', 'Age_65_74_yr_P'],
  ['75_84', 'Age_75_84_yr_P'],
  ['85_over', 'Age_85ov_P'],
];

/** G02's columns and the profile's names for them. */
const G02_MEDIANS: ReadonlyArray<readonly [keyof Medians, string]> = [
  ['median_age', 'Median_age_persons'],
  ['median_mortgage_monthly', 'Median_mortgage_repay_monthly'],
  ['median_personal_income_weekly', 'Median_tot_prsnl_inc_weekly'],
  ['median_rent_weekly', 'Median_rent_weekly'],
  ['median_family_income_weekly', 'Median_tot_fam_inc_weekly'],
  ['average_persons_per_bedroom', 'Average_num_psns_per_bedroom'],
  ['median_household_income_weekly', 'Median_tot_hhd_inc_weekly'],
  ['average_household_size', 'Average_household_size'],
];

/** Blocks of counts: the profile's key for each figure and the DataPack column it is read from. */
const BLOCKS = {
  // G29: couple families with children are all couple families less those without
  families: [
    ['couple_no_children', 'CF_no_children_F'],
    ['couple_families', 'CF_Total_F'],
    ['one_parent', 'OPF_Total_F'],
    ['other', 'Other_family_F'],
    ['total', 'Total_F'],
  ],
  // G35: a lone person is a non-family household of one; a group household is any other non-family one
  households: [
    ['family', 'Total_FamHhold'],
    ['lone_person', 'Num_Psns_UR_1_NonFamHhold'],
    ['non_family', 'Total_NonFamHhold'],
    ['total', 'Total_Total'],
  ],
  dwellings: [
    ['separate_house', 'OPDs_Separate_house_Dwellings'],
    ['semi_detached', 'OPDs_SD_r_t_h_th_Tot_Dwgs'],
    ['flat_apartment', 'OPDs_Flt_apart_Tot_Dwgs'],
    ['other', 'OPDs_Other_dwelling_Tot_Dwgs'],
    ['not_stated', 'OPDs_Dwlling_structur_NS_Dwgs'],
    ['occupied', 'OPDs_Tot_OPDs_Dwellings'],
    ['unoccupied', 'Unoccupied_PDs_Dwgs'],
    ['total', 'Total_PDs_Dwellings'],
  ],
  tenure: [
    ['owned_outright', 'O_OR_Total'],
    ['owned_with_mortgage', 'O_MTG_Total'],
    ['rented', 'R_Tot_Total'],
    ['other', 'Oth_ten_type_Total'],
    ['not_stated', 'Ten_type_NS_Total'],
    ['total', 'Total_Total'],
  ],
} as const satisfies Record<string, ReadonlyArray<readonly [string, string]>>;
type Block = keyof typeof BLOCKS;

/** The DataPack tables the ingest reads, the columns it reads from each, and whether a load needs it. */
export const CENSUS_TABLES = [
  { id: 'G01', required: true, columns: ['Tot_P_M', 'Tot_P_F', 'Tot_P_P', ...G01_AGES.map(([, c]) => c)] },
  { id: 'G02', required: true, columns: G02_MEDIANS.map(([, c]) => c) },
  { id: 'G29', required: false, block: 'families', columns: BLOCKS.families.map(([, c]) => c) },
  { id: 'G35', required: false, block: 'households', columns: BLOCKS.households.map(([, c]) => c) },
  { id: 'G36', required: false, block: 'dwellings', columns: BLOCKS.dwellings.map(([, c]) => c) },
  { id: 'G37', required: false, block: 'tenure', columns: BLOCKS.tenure.map(([, c]) => c) },
] as const satisfies ReadonlyArray<{ id: string; required: boolean; block?: Block; columns: readonly string[] }>;
type TableId = (typeof CENSUS_TABLES)[number]['id'];

type Medians = {
  median_age: number | null;
  median_personal_income_weekly: number | null;
  median_family_income_weekly: number | null;
  median_household_income_weekly: number | null;
  median_rent_weekly: number | null;
  median_mortgage_monthly: number | null;
  average_household_size: number | null;
  average_persons_per_bedroom: number | null;
};
type Counts = Record<string, number | null>;

export type ProfileFigures = Partial<Medians> & {
  code: string;
  state: StateCode;
  population?: number | null;
  males?: number | null;
  females?: number | null;
  age_groups?: Counts;
  families?: Counts;
  households?: Counts;
  dwellings?: Counts;
  tenure?: Counts;
  tables: TableId[];
};

export function checkGeography(value: string | undefined): CensusGeography {
  const geography = (value ?? 'SAL').trim().toUpperCase();
  if (!(CENSUS_GEOGRAPHIES as readonly string[]).includes(geography)) {
    throw new IngestError(`--geography ${value}: one of ${CENSUS_GEOGRAPHIES.join(', ')}`);
  }
  return geography as CensusGeography;
}

/** An area's code as the boundary files write it (the DataPacks prefix SAL codes with "SAL"), or null. */
export function areaCode(geography: CensusGeography, raw: string): string | null {
  const code = raw
    .trim()
    .toUpperCase()
    .replace(/^SAL(?=\d)/, '');
  const valid = geography === 'SAL' ? /^\d{5}$/ : /^\d{11}$/;
  return valid.test(code) && STATE_OF_DIGIT[code[0]!] ? code : null;
}

export const stateOfCode = (code: string): StateCode => STATE_OF_DIGIT[code[0]!]!;

/** A DataPack cell: a count or a figure; '..' (not applicable) and blank are null. */
export function cell(value: string | null): number | null {
  if (value === null || value === '..' || value === '') return null;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new Error(`"${value}" is not a number`);
  return n;
}

/** Every file of the pack for a table and geography, at any depth (a state pack writes VIC for AUST). */
export function findTableFiles(dir: string, table: string, geography: CensusGeography): string[] {
  const pattern = new RegExp(`^2021Census_${table}_[A-Z]+_${geography}\\.csv$`, 'i');
  const found: string[] = [];
  const walk = (at: string, depth: number) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory() && depth < 6) walk(path, depth + 1);
      else if (entry.isFile() && pattern.test(entry.name)) found.push(path);
    }
  };
  walk(dir, 0);
  return found.sort();
}

export interface CensusIngestOptions {
  datapack: string;
  geography?: string;
  attribution?: string;
  license?: string;
  dataset?: string;
  snapshot?: string;
  batchRows?: number;
}

export interface PreparedCensusIngest {
  readonly dataset: string;
  readonly geography: CensusGeography;
  /** The files of each table the pack holds; the required ones are never empty. */
  readonly files: ReadonlyArray<{ readonly table: (typeof CENSUS_TABLES)[number]; readonly paths: readonly string[] }>;
  readonly credit: { readonly attribution: string; readonly license: string };
  readonly snapshot: string;
  readonly batchRows: number;
}

export interface CensusIngestResult {
  readonly dataset: string;
  readonly geography: CensusGeography;
  readonly snapshot: string;
  readonly tables: readonly string[];
  readonly missingTables: readonly string[];
  readonly read: number;
  readonly loaded: number;
  readonly states: readonly string[];
  readonly refused: readonly FeatureNote[];
  readonly credit: { readonly attribution: string; readonly license: string };
  readonly ms: number;
}

export async function prepareCensusIngest(options: CensusIngestOptions): Promise<PreparedCensusIngest> {
  const geography = checkGeography(options.geography);
  const dataset = checkDataset(options.dataset ?? 'live');
  if ((options.attribution === undefined) !== (options.license === undefined)) {
    throw new IngestError('--attribution and --license go together: the credit names its licence');
  }
  if (!statSync(options.datapack, { throwIfNoEntry: false })?.isDirectory()) {
    throw new IngestError(`--datapack ${options.datapack}: no such directory`);
  }
  const files = CENSUS_TABLES.map((table) => ({
    table,
    paths: findTableFiles(options.datapack, table.id, geography),
  }));
  for (const { table, paths } of files) {
    if (table.required && paths.length === 0) {
      throw new IngestError(
        `${options.datapack} holds no 2021Census_${table.id}_AUST_${geography}.csv: the ${table.id} table is required (the ${geography} General Community Profile DataPack)`,
      );
    }
    // every column read must be in every file's header before anything is written
    for (const path of paths) {
      const file = await openDelimited(path, [`${geography}_CODE_2021`, ...table.columns]);
      // the header alone was needed: leaving the loop at once closes the stream
      for await (const _record of file) break;
    }
  }
  return {
    dataset,
    geography,
    files: files.filter((f) => f.paths.length > 0),
    credit:
      options.attribution !== undefined && options.license !== undefined
        ? { attribution: options.attribution, license: options.license }
        : ABS_CREDIT,
    snapshot: snapshotId(options.snapshot ?? `census-2021-gcp-${geography.toLowerCase()}`, options.datapack),
    batchRows: options.batchRows ?? 1000,
  };
}

/** The figures one table gives an area (row `get`), merged into its profile. */
function readTable(
  table: (typeof CENSUS_TABLES)[number],
  get: (column: string) => number | null,
  into: ProfileFigures,
): void {
  if (table.id === 'G01') {
    into.population = get('Tot_P_P');
    into.males = get('Tot_P_M');
    into.females = get('Tot_P_F');
    into.age_groups = Object.fromEntries(G01_AGES.map(([key, column]) => [key, get(column)]));
  } else if (table.id === 'G02') {
    for (const [key, column] of G02_MEDIANS) {
      const value = get(column);
      // a median of 0 is one the ABS could not compute (no renters, too few people), not a figure
      into[key] = value === 0 ? null : value;
    }
  } else {
    const counts: Counts = Object.fromEntries(BLOCKS[table.block].map(([key, column]) => [key, get(column)]));
    if (table.block === 'families') {
      const { couple_families, couple_no_children, ...rest } = counts;
      into.families = {
        couple_no_children: couple_no_children ?? null,
        couple_with_children:
          couple_families != null && couple_no_children != null ? couple_families - couple_no_children : null,
        ...rest,
      };
    } else if (table.block === 'households') {
      const { non_family, lone_person, ...rest } = counts;
      into.households = {
        ...rest,
        lone_person: lone_person ?? null,
        group: non_family != null ? non_family - (lone_person ?? 0) : null,
      };
    } else {
      into[table.block] = counts;
    }
  }
  into.tables.push(table.id);
}

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

export async function loadCensus(db: Database, run: PreparedCensusIngest): Promise<CensusIngestResult> {
  const started = performance.now();
  const { dataset, geography } = run;
  const refused: FeatureNote[] = [];
  const profiles = new Map<string, ProfileFigures>();
  let read = 0;
  for (const { table, paths } of run.files) {
    for (const path of paths) {
      const file = await openDelimited(path, [`${geography}_CODE_2021`, ...table.columns]);
      for await (const record of file) {
        read += 1;
        const raw = record.get(`${geography}_CODE_2021`) ?? '';
        const code = areaCode(geography, raw);
        const note = (reason: string) =>
          refused.push({ file: file.name, feature: record.line, key: raw || null, reason });
        if (!code) {
          note(`"${raw}" is not a ${geography} code`);
          continue;
        }
        const profile = profiles.get(code) ?? { code, state: stateOfCode(code), tables: [] };
        try {
          readTable(
            table,
            (column) => {
              try {
                return cell(record.get(column));
              } catch (error) {
                throw new Error(`${column} ${(error as Error).message}`);
              }
            },
            profile,
          );
        } catch (error) {
          note((error as Error).message);
          continue;
        }
        profiles.set(code, profile);
      }
    }
  }
  const complete = [...profiles.values()].filter((p) => p.tables.includes('G01') && p.tables.includes('G02'));
  if (complete.length === 0) {
    throw new IngestError(`no ${geography} area of the DataPack has both its G01 and G02 rows: nothing to load`);
  }
  const states = [...new Set(complete.map((p) => p.state))].sort();
  await db.transaction(async (query) => {
    for (let i = 0; i < complete.length; i += run.batchRows) {
      const batch = complete.slice(i, i + run.batchRows);
      const col = <T>(pick: (p: ProfileFigures) => T) => batch.map(pick);
      await query(CENSUS.UPSERT_PROFILES, [
        dataset,
        geography,
        col((p) => p.code),
        col((p) => p.state),
        col((p) => p.population ?? null),
        col((p) => p.males ?? null),
        col((p) => p.females ?? null),
        col((p) => json(p.age_groups)),
        col((p) => p.median_age ?? null),
        col((p) => p.median_personal_income_weekly ?? null),
        col((p) => p.median_family_income_weekly ?? null),
        col((p) => p.median_household_income_weekly ?? null),
        col((p) => p.median_rent_weekly ?? null),
        col((p) => p.median_mortgage_monthly ?? null),
        col((p) => p.average_household_size ?? null),
        col((p) => p.average_persons_per_bedroom ?? null),
        col((p) => json(p.families)),
        col((p) => json(p.households)),
        col((p) => json(p.dwellings)),
        col((p) => json(p.tenure)),
        col((p) => [...new Set(p.tables)].sort().join(',')),
      ]);
    }
    for (const state of states) {
      await query(PLANNING.WRITE_DATASET_SOURCE, [
        dataset,
        state,
        DEMOGRAPHICS_LAYER,
        run.credit.attribution,
        run.credit.license,
        run.snapshot,
      ]);
    }
  });
  await db.exec(CENSUS.ANALYZE_CENSUS_TABLES);
  return {
    dataset,
    geography,
    snapshot: run.snapshot,
    tables: run.files.map((f) => f.table.id),
    missingTables: CENSUS_TABLES.filter((t) => !run.files.some((f) => f.table.id === t.id)).map((t) => t.id),
    read,
    loaded: complete.length,
    states,
    refused: [...refused].sort((a, b) => a.file.localeCompare(b.file) || a.feature - b.feature),
    credit: run.credit,
    ms: performance.now() - started,
  };
}

export async function ingestCensus(db: Database, options: CensusIngestOptions): Promise<CensusIngestResult> {
  return loadCensus(db, await prepareCensusIngest(options));
}

// ---------------------------------------------------------------------------------------------
// Boundaries

/** The ABS boundary files' field names per geography (ASGS Edition 3, 2021). */
const BOUNDARY_FIELDS = {
  SAL: { code: 'SAL_CODE21', name: ['SAL_NAME21'] },
  SA1: { code: 'SA1_CODE21', name: ['SA2_NAME21'] },
} as const;

export interface CensusBoundaryIngestOptions {
  file: string;
  geography?: string;
  attribution?: string;
  license?: string;
  dataset?: string;
  snapshot?: string;
  batchRows?: number;
}

export interface PreparedBoundaryIngest {
  readonly dataset: string;
  readonly geography: CensusGeography;
  readonly input: FeatureSource;
  readonly codeField: string;
  readonly nameField: string | null;
  readonly credit: { readonly attribution: string; readonly license: string };
  readonly snapshot: string;
  readonly batchRows: number;
}

export interface BoundaryIngestResult {
  readonly dataset: string;
  readonly geography: CensusGeography;
  readonly snapshot: string;
  readonly file: { readonly name: string; readonly format: string; readonly crs: string };
  readonly read: number;
  readonly loaded: number;
  readonly states: readonly string[];
  readonly refused: readonly FeatureNote[];
  readonly repaired: readonly FeatureNote[];
  readonly credit: { readonly attribution: string; readonly license: string };
  readonly ms: number;
}

export async function prepareBoundaryIngest(options: CensusBoundaryIngestOptions): Promise<PreparedBoundaryIngest> {
  const geography = checkGeography(options.geography);
  const dataset = checkDataset(options.dataset ?? 'live');
  if ((options.attribution === undefined) !== (options.license === undefined)) {
    throw new IngestError('--attribution and --license go together: the credit names its licence');
  }
  const input = await openFeatureSource(options.file);
  const fieldOf = (name: string) => input.fields.find((f) => f.toLowerCase() === name.toLowerCase());
  const expected = BOUNDARY_FIELDS[geography];
  const codeField = fieldOf(expected.code);
  if (!codeField) {
    throw new IngestError(
      `${input.name} is missing field ${expected.code}: an ABS ${geography} 2021 boundary file names its areas by it (its fields are ${input.fields.join(', ')})`,
    );
  }
  const nameField = expected.name.map(fieldOf).find((f) => f !== undefined) ?? null;
  if (geography === 'SAL' && !nameField) {
    throw new IngestError(`${input.name} is missing field SAL_NAME21: a suburb is looked up by its name`);
  }
  return {
    dataset,
    geography,
    input,
    codeField,
    nameField,
    credit:
      options.attribution !== undefined && options.license !== undefined
        ? { attribution: options.attribution, license: options.license }
        : ABS_CREDIT,
    snapshot: snapshotId(options.snapshot, options.file),
    batchRows: options.batchRows ?? 500,
  };
}

export async function loadBoundaries(db: Database, run: PreparedBoundaryIngest): Promise<BoundaryIngestResult> {
  const started = performance.now();
  const { dataset, geography, input } = run;
  const refused: FeatureNote[] = [];
  const repaired: FeatureNote[] = [];
  const states = new Set<string>();
  const outcome = await db.transaction(async (query) => {
    let read = 0;
    let loaded = 0;
    type Pending = {
      index: number;
      code: string;
      name: string;
      state: string;
      area: number | null;
      geojson: string;
      repairs: readonly string[];
    };
    let batch: Pending[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const outcomes = await query<CENSUS.BoundaryBatchOutcome>(CENSUS.UPSERT_BOUNDARIES, [
        dataset,
        geography,
        batch.map((_, i) => i),
        batch.map((b) => b.code),
        batch.map((b) => b.name),
        batch.map((b) => suburbKey(withoutAbsSuffix(b.name))),
        batch.map((b) => b.state),
        batch.map((b) => b.area),
        batch.map((b) => b.geojson),
      ]);
      for (const o of outcomes) {
        const b = batch[o.seq]!;
        const note = (reason: string) => ({ file: input.name, feature: b.index, key: b.code, reason });
        if (!o.usable) {
          refused.push(note(`no area is left once its outline is mended (${o.reason ?? 'invalid'})`));
          continue;
        }
        loaded += 1;
        states.add(b.state);
        const mended = o.valid
          ? [...b.repairs]
          : [...b.repairs, `mended an invalid outline (${o.reason ?? 'invalid'})`];
        if (mended.length > 0) repaired.push(note(mended.join('; ')));
      }
      batch = [];
    };
    for await (const feature of input.features()) {
      read += 1;
      const props = lowerKeys(feature.properties);
      const value = props.get(run.codeField.toLowerCase());
      // codes are text in the ABS files; a numeric field (a re-saved file) reads the same
      const rawCode = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
      const code = areaCode(geography, rawCode);
      const note = (reason: string) =>
        refused.push({ file: input.name, feature: feature.index, key: code ?? rawCode, reason });
      if (!code) {
        note(`${run.codeField} "${rawCode}" is not a ${geography} code`);
        continue;
      }
      const rawName = run.nameField ? props.get(run.nameField.toLowerCase()) : null;
      const name = typeof rawName === 'string' && rawName.trim() !== '' ? rawName.trim() : code;
      const areaRaw = props.get('areasqkm21');
      const area = typeof areaRaw === 'number' ? areaRaw : typeof areaRaw === 'string' ? Number(areaRaw) : NaN;
      try {
        const clean = cleanPolygons(feature.geometry, { file: input.name, crs: input.crs, feature: feature.index });
        batch.push({
          index: feature.index,
          code,
          name,
          state: stateOfCode(code),
          area: Number.isFinite(area) ? area : null,
          geojson: clean.geojson,
          repairs: clean.repairs,
        });
      } catch (error) {
        if (!(error instanceof RefusedGeometry)) throw error;
        note(error.message);
      }
      if (batch.length >= run.batchRows) await flush();
    }
    await flush();
    if (loaded === 0) {
      const first = refused[0];
      throw new IngestError(
        `no ${geography} boundary of ${input.name} could be loaded${first ? ` (feature ${first.feature}: ${first.reason})` : ''}`,
      );
    }
    for (const state of [...states].sort()) {
      await query(PLANNING.WRITE_DATASET_SOURCE, [
        dataset,
        state,
        DEMOGRAPHICS_LAYER,
        run.credit.attribution,
        run.credit.license,
        run.snapshot,
      ]);
    }
    return { read, loaded };
  });
  await db.exec(CENSUS.ANALYZE_CENSUS_TABLES);
  return {
    dataset,
    geography,
    snapshot: run.snapshot,
    file: { name: input.name, format: input.format, crs: input.crs },
    ...outcome,
    states: [...states].sort(),
    refused: [...refused].sort((a, b) => a.feature - b.feature),
    repaired: [...repaired].sort((a, b) => a.feature - b.feature),
    credit: run.credit,
    ms: performance.now() - started,
  };
}

export async function ingestCensusBoundaries(
  db: Database,
  options: CensusBoundaryIngestOptions,
): Promise<BoundaryIngestResult> {
  return loadBoundaries(db, await prepareBoundaryIngest(options));
}
