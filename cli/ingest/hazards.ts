/**
 * Loads published hazard data into the hazards tables of one dataset ('live' by default): the
 * hazard overlays of a Vicmap Planning PLAN_OVERLAY file (read by the planning ingest's reader
 * and attribute layout), a state hazard layer (VIC bushfire prone area, NSW bush fire prone
 * land and flood planning, QLD bushfire prone area and flood hazard; hazards-state-layouts.ts),
 * or a contamination register CSV with coordinates, with the area each hazard's data covers
 * and the credit its answers carry. NSW bush fire prone land's vegetation categories are also
 * loaded as classified vegetation for the BAL.
 *
 * As in the planning ingest (planning.ts), everything checkable is checked before writing,
 * then the run is one transaction: rows, coverage and the credit together or not at all. Rows
 * are keyed by the feature's PFI (else UFI) or the register's site id, so a rerun replaces.
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import type { Database, QueryFn } from '../../core/db.ts';
import { isInAustralia, isStateCode, type StateCode, STATES } from '../../core/geo.ts';
import type { HazardKind } from '../../subgraphs/hazards/sql.ts';
import { type CsvTable, readCsv } from './csv.ts';
import { IngestError } from './gnaf-release.ts';
import { checkKind, HAZARD_KINDS, hazardOfOverlay, type RegisterColumn, registerColumns } from './hazards-layout.ts';
import * as SQL from './hazards-sql.ts';
import { chooseLayout, RefusedArea, type StateHazardLayout, squash, valueOf } from './hazards-state-layouts.ts';
import { checkDataset, inFileOrder, snapshotId } from './planning.ts';
import { cleanPolygons, RefusedGeometry } from './planning-geometry.ts';
import { coverageName, type LayoutPlan, planLayout, RefusedAttributes } from './planning-layout.ts';
import type { FeatureNote } from './planning-load.ts';
import { VICMAP_PLANNING_ATTRIBUTION, VICMAP_PLANNING_LICENSE } from './planning-sql.ts';
import { type FeatureSource, openFeatureSource } from './planning-source.ts';
import { Progress } from './progress.ts';

export interface HazardsIngestOptions {
  /** A PLAN_OVERLAY or state hazard layer (GeoJSON, GeoJSONSeq, FlatGeobuf or shapefile), or a register .csv. */
  file: string;
  state: string;
  /** The file's layout (hazards-state-layouts.ts LAYOUT_NAMES), when its attribute names do not tell it. */
  layout?: string;
  /** Only this hazard (an overlay file's other hazards are skipped); a register is contamination. */
  kind?: string;
  /** Polygons of the area the data covers; by default see COVERAGE_FROM_OVERLAYS / COVERAGE_FROM_SITES. */
  coverage?: string;
  dataset?: string;
  snapshot?: string;
  progress?: Progress;
  batchRows?: number;
}

export interface KindCount {
  readonly kind: HazardKind;
  read: number;
  loaded: number;
  refused: number;
}

export interface HazardsIngestResult {
  readonly dataset: string;
  readonly state: StateCode;
  readonly snapshot: string;
  /** The date answers give as the hazards' freshness. */
  readonly snapshotDate: string;
  readonly source: {
    readonly file: string;
    readonly format: string;
    readonly what: 'overlays' | 'register' | 'layer';
    /** The layer's title (the state layouts; Vicmap Planning PLAN_OVERLAY or the register otherwise). */
    readonly layout: string;
  };
  readonly kinds: readonly KindCount[];
  /** Overlays that are not hazards (HO, DDO...) or not the --kind asked for. */
  readonly skipped: number;
  /** Classified vegetation polygons written for the BAL (NSW bush fire prone land categories). */
  readonly vegetation: number;
  readonly refused: readonly FeatureNote[];
  readonly repaired: readonly FeatureNote[];
  readonly coverage: {
    readonly from: string;
    readonly kinds: readonly HazardKind[];
    readonly names: readonly string[];
  };
  /** Coverage areas per hazard the state has in the dataset after the run. */
  readonly coverageAreas: Readonly<Partial<Record<HazardKind, number>>>;
  readonly ms: number;
}

type Credit = { readonly attribution: string; readonly license: string };

/** Whose data the Victorian overlays and register are; the state layers carry their own (hazards-state-layouts.ts). */
const HAZARD_SOURCES: Partial<
  Record<StateCode, { overlays?: Credit & { source: string }; register?: Credit & { register: string } }>
> = {
  VIC: {
    overlays: { source: 'Vicmap Planning', attribution: VICMAP_PLANNING_ATTRIBUTION, license: VICMAP_PLANNING_LICENSE },
    register: { register: SQL.EPA_VIC_REGISTER, attribution: SQL.EPA_VIC_ATTRIBUTION, license: 'CC BY 4.0' },
  },
  NSW: {},
  QLD: {},
};

const DEFAULT_BATCH_ROWS = 500;

function checkState(value: string) {
  const state = value.trim().toUpperCase();
  if (!isStateCode(state)) throw new IngestError(`unknown state "${value}": one of ${STATES.join(', ')}`);
  const sources = HAZARD_SOURCES[state];
  if (!sources) {
    throw new IngestError(`--state ${state}: hazard layouts are read for VIC, NSW and QLD only so far`);
  }
  return { state, sources };
}

/** The snapshot's date: the one its id carries (the default id ends with the file's date), else the file's. */
function snapshotDate(snapshot: string, file: string): string {
  return /\d{4}-\d{2}-\d{2}/.exec(snapshot)?.[0] ?? statSync(file).mtime.toISOString().slice(0, 10);
}

type Input =
  | { readonly what: 'overlays'; readonly source: FeatureSource; readonly plan: LayoutPlan }
  | { readonly what: 'layer'; readonly source: FeatureSource; readonly layout: StateHazardLayout }
  | { readonly what: 'register'; readonly table: CsvTable; readonly columns: Partial<Record<RegisterColumn, number>> };

export interface PreparedHazardsIngest {
  readonly dataset: string;
  readonly state: StateCode;
  readonly kind: HazardKind | undefined;
  readonly credit: Credit;
  /** The overlays' source_name or the register's name, as answers give it in their evidence. */
  readonly sourceName: string;
  readonly file: string;
  readonly input: Input;
  readonly coverage: FeatureSource | undefined;
  readonly snapshot: string;
  readonly snapshotDate: string;
  readonly progress: Progress;
  readonly batchRows: number;
}

/** Checks the options and opens the files (layout, CRS and columns included); throws IngestError. */
export async function prepareHazardsIngest(options: HazardsIngestOptions): Promise<PreparedHazardsIngest> {
  const { state, sources } = checkState(options.state);
  const dataset = checkDataset(options.dataset ?? 'live');
  const kind = checkKind(options.kind);
  const register = extname(options.file).toLowerCase() === '.csv';
  if (register && kind !== undefined && kind !== 'contamination') {
    throw new IngestError(`--kind ${kind}: a register CSV lists contaminated sites, so its kind is contamination`);
  }
  if (register && !sources.register) {
    throw new IngestError(
      `--state ${state}: no contamination register layout is read for ${state} so far (VIC's EPA register is)`,
    );
  }
  let input: Input;
  if (register) {
    if (!statSync(options.file, { throwIfNoEntry: false })?.isFile()) {
      throw new IngestError(`no such file: ${options.file}`);
    }
    const table = readCsv(options.file);
    input = { what: 'register', table, columns: registerColumns(basename(options.file), table.header) };
  } else {
    const source = await openFeatureSource(options.file);
    const layout = chooseLayout(state, source.name, source.fields, options.layout);
    if (layout) {
      if (kind !== undefined && !layout.kinds.includes(kind)) {
        throw new IngestError(
          `--kind ${kind}: ${source.name} is the ${layout.title}, which maps ${layout.kinds.join(', ')}`,
        );
      }
      input = { what: 'layer', source, layout };
    } else {
      input = { what: 'overlays', source, plan: planLayout(source.name, source.fields, 'overlay') };
    }
  }
  const snapshot = snapshotId(options.snapshot, options.file);
  const credit =
    input.what === 'layer' ? input.layout.credit : input.what === 'register' ? sources.register! : sources.overlays!;
  return {
    dataset,
    state,
    kind: register ? 'contamination' : kind,
    credit,
    sourceName:
      input.what === 'layer'
        ? input.layout.source
        : input.what === 'register'
          ? sources.register!.register
          : sources.overlays!.source,
    file: basename(options.file),
    input,
    coverage: options.coverage === undefined ? undefined : await openFeatureSource(options.coverage),
    snapshot,
    snapshotDate: snapshotDate(snapshot, options.file),
    progress: options.progress ?? new Progress(process.stderr),
    batchRows: options.batchRows ?? DEFAULT_BATCH_ROWS,
  };
}

export async function ingestHazards(db: Database, options: HazardsIngestOptions): Promise<HazardsIngestResult> {
  return loadHazards(db, await prepareHazardsIngest(options));
}

/** What a run loaded: counts, notes, and the ids it wrote per coverage area name. */
class Tally {
  readonly counts = new Map<HazardKind, KindCount>();
  readonly refused: FeatureNote[] = [];
  readonly repaired: FeatureNote[] = [];
  readonly areas = new Map<string, string[]>();
  skipped = 0;
  vegetation = 0;

  count(kind: HazardKind): KindCount {
    let count = this.counts.get(kind);
    if (!count) {
      count = { kind, read: 0, loaded: 0, refused: 0 };
      this.counts.set(kind, count);
    }
    return count;
  }

  refuse(kind: HazardKind, note: FeatureNote): void {
    this.count(kind).refused += 1;
    this.refused.push(note);
  }

  get loaded(): number {
    return [...this.counts.values()].reduce((sum, c) => sum + c.loaded, 0);
  }
}

type PendingOverlay = {
  id: string;
  /** The AS 3959 class its vegetation counts as, for the layers that classify fuel. */
  vegetation?: string;
  kind: HazardKind;
  code: string;
  description: string;
  severity: string;
  area: string;
  geojson: string;
  repairs: readonly string[];
  note: Omit<FeatureNote, 'reason'>;
};

/** The ZONE_CODE of a feature whose row was refused, found as the layout finds it (any case). */
function zoneCode(properties: Readonly<Record<string, unknown>>): string {
  const column = Object.keys(properties).find((name) => name.toUpperCase() === 'ZONE_CODE');
  const value = column === undefined ? undefined : properties[column];
  return typeof value === 'string' ? value : '';
}

/** Overlays without an LGA still need an area to fall in; this name keeps them apart from any council's. */
const UNNAMED_AREA = 'OVERLAYS WITHOUT AN LGA';

/** Writes a batch of overlay rows (and their vegetation), tallying what PostGIS could not keep. */
async function writeOverlays(
  query: QueryFn,
  run: PreparedHazardsIngest,
  rows: readonly PendingOverlay[],
  tally: Tally,
): Promise<void> {
  const outcomes = await query<{ seq: number; valid: boolean; reason: string | null; usable: boolean }>(
    SQL.UPSERT_OVERLAYS,
    [
      run.dataset,
      run.state,
      rows.map((_, i) => i),
      rows.map((r) => r.id),
      rows.map((r) => r.kind),
      rows.map((r) => r.code),
      rows.map((r) => r.description),
      rows.map((r) => r.severity),
      rows.map(() => run.sourceName),
      rows.map(() => run.snapshotDate),
      rows.map((r) => r.geojson),
    ],
  );
  for (const outcome of outcomes) {
    const row = rows[outcome.seq];
    if (!row) throw new Error(`the overlay batch answered for row ${outcome.seq}, which it was not sent`);
    if (!outcome.usable) {
      tally.refuse(row.kind, {
        ...row.note,
        reason: `its geometry has no area left once mended${outcome.reason ? ` (${outcome.reason})` : ''}`,
      });
      continue;
    }
    tally.count(row.kind).loaded += 1;
    const repairs = [
      ...row.repairs,
      ...(outcome.valid ? [] : [`mended by ST_MakeValid: ${outcome.reason ?? 'invalid'}`]),
    ];
    if (repairs.length > 0) tally.repaired.push({ ...row.note, reason: repairs.join('; ') });
    const ids = tally.areas.get(row.area) ?? [];
    ids.push(row.id);
    tally.areas.set(row.area, ids);
  }
  const usable = new Set(outcomes.filter((o) => o.usable).map((o) => o.seq));
  const fuel = rows.filter((r, i) => r.vegetation !== undefined && usable.has(i));
  if (fuel.length > 0) {
    const written = await query(SQL.UPSERT_VEGETATION_FROM_OVERLAYS, [
      run.dataset,
      run.state,
      fuel.map((r) => r.id),
      fuel.map((r) => r.vegetation!),
    ]);
    tally.vegetation += written.length;
  }
}

async function loadOverlays(
  query: QueryFn,
  run: PreparedHazardsIngest,
  input: Extract<Input, { what: 'overlays' }>,
  tally: Tally,
): Promise<void> {
  const { source, plan } = input;
  let batch: PendingOverlay[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const rows = batch;
    batch = [];
    await writeOverlays(query, run, rows, tally);
  };
  const seen = new Map<string, number>();
  const task = run.progress.task(`${run.state} ${source.name}`);
  for await (const feature of source.features()) {
    task.update(feature.index, source.count ? feature.index / source.count : undefined);
    const note = { file: source.name, feature: feature.index, key: plan.label(feature.properties) };
    let row;
    try {
      row = plan.row(feature.properties, run.state);
    } catch (error) {
      if (!(error instanceof RefusedAttributes)) throw error;
      // A blank attribute matters only on an overlay this run would have loaded.
      const hazard = hazardOfOverlay(zoneCode(feature.properties));
      if (hazard && (run.kind === undefined || hazard.kind === run.kind)) {
        tally.refuse(hazard.kind, { ...note, reason: error.message });
      } else tally.skipped += 1;
      continue;
    }
    if (row.layer === 'ugb') throw new Error('an overlay plan gave a UGB row');
    const hazard = hazardOfOverlay(row.code);
    if (!hazard || (run.kind !== undefined && hazard.kind !== run.kind)) {
      tally.skipped += 1;
      continue;
    }
    tally.count(hazard.kind).read += 1;
    const first = seen.get(row.id);
    if (first !== undefined) {
      tally.refuse(hazard.kind, { ...note, reason: `it repeats the ${note.key} of feature ${first}` });
      continue;
    }
    let clean;
    try {
      clean = cleanPolygons(feature.geometry, { file: source.name, crs: source.crs, feature: feature.index });
    } catch (error) {
      if (!(error instanceof RefusedGeometry)) throw error;
      tally.refuse(hazard.kind, { ...note, reason: error.message });
      continue;
    }
    seen.set(row.id, feature.index);
    batch.push({
      id: row.id,
      kind: hazard.kind,
      code: row.code,
      description: row.description,
      severity: hazard.severity,
      area: (row.lga_name ?? UNNAMED_AREA).toUpperCase(),
      geojson: clean.geojson,
      repairs: clean.repairs,
      note,
    });
    if (batch.length >= run.batchRows) await flush();
  }
  await flush();
  task.done(tally.loaded, `${tally.loaded} hazard overlays loaded, ${tally.skipped} other overlays skipped`);
}

/** A feature's id in a state layer: its own identifier where the layer has one, else a hash of what it is and where. */
function layerRowId(
  run: PreparedHazardsIngest,
  layout: StateHazardLayout,
  properties: Readonly<Record<string, unknown>>,
  code: string,
  geojson: string,
): string {
  const own = valueOf(properties, layout.idFields.map(squash));
  const key =
    own !== undefined
      ? own.replace(/\.0+$/, '')
      : createHash('sha256').update(`${code}|${geojson}`).digest('hex').slice(0, 16);
  return `${run.state}:${layout.id}:${key}`;
}

/** A state hazard layer: every feature is one hazard area, classified by its layout. */
async function loadLayer(
  query: QueryFn,
  run: PreparedHazardsIngest,
  input: Extract<Input, { what: 'layer' }>,
  tally: Tally,
): Promise<void> {
  const { source, layout } = input;
  const fileArea = run.file.replace(/\.[^.]+$/, '').toUpperCase();
  let batch: PendingOverlay[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const rows = batch;
    batch = [];
    await writeOverlays(query, run, rows, tally);
  };
  const seen = new Map<string, number>();
  const task = run.progress.task(`${run.state} ${source.name}`);
  for await (const feature of source.features()) {
    task.update(feature.index, source.count ? feature.index / source.count : undefined);
    const note = { file: source.name, feature: feature.index, key: null };
    let area;
    try {
      area = layout.classify(feature.properties);
    } catch (error) {
      if (!(error instanceof RefusedArea)) throw error;
      tally.refuse(layout.kinds[0]!, { ...note, reason: error.message });
      continue;
    }
    if (run.kind !== undefined && area.kind !== run.kind) {
      tally.skipped += 1;
      continue;
    }
    tally.count(area.kind).read += 1;
    let clean;
    try {
      clean = cleanPolygons(feature.geometry, { file: source.name, crs: source.crs, feature: feature.index });
    } catch (error) {
      if (!(error instanceof RefusedGeometry)) throw error;
      tally.refuse(area.kind, { ...note, reason: error.message });
      continue;
    }
    const id = layerRowId(run, layout, feature.properties, area.code, clean.geojson);
    const keyed = { ...note, key: `${area.code} ${id.slice(id.lastIndexOf(':') + 1)}` };
    const first = seen.get(id);
    if (first !== undefined) {
      tally.refuse(area.kind, { ...keyed, reason: `it repeats the id of feature ${first}` });
      continue;
    }
    seen.set(id, feature.index);
    const named = valueOf(feature.properties, layout.areaFields.map(squash));
    batch.push({
      id,
      kind: area.kind,
      code: area.code,
      description: area.description,
      severity: area.severity,
      area: named === undefined ? fileArea : named.toUpperCase(),
      geojson: clean.geojson,
      repairs: clean.repairs,
      note: keyed,
      ...(area.vegetation ? { vegetation: area.vegetation } : {}),
    });
    if (batch.length >= run.batchRows) await flush();
  }
  await flush();
  task.done(tally.loaded, `${tally.loaded} ${layout.title} areas loaded`);
}

async function loadRegister(
  query: QueryFn,
  run: PreparedHazardsIngest,
  input: Extract<Input, { what: 'register' }>,
  tally: Tally,
): Promise<void> {
  const { table, columns } = input;
  const field = (fields: readonly string[], column: RegisterColumn) => {
    const index = columns[column];
    return index === undefined ? '' : (fields[index]?.trim() ?? '');
  };
  const sites: Array<{ id: string; name: string; status: string; lng: number; lat: number }> = [];
  const seen = new Map<string, number>();
  const count = tally.count('contamination');
  for (const { line, fields } of table.rows) {
    count.read += 1;
    const given = field(fields, 'id');
    const note = { file: run.file, feature: line, key: given ? `site ${given}` : null };
    const name = field(fields, 'name');
    const lat = Number(field(fields, 'latitude'));
    const lng = Number(field(fields, 'longitude'));
    if (!name) {
      tally.refuse('contamination', { ...note, reason: 'its site name is blank' });
      continue;
    }
    if (!field(fields, 'latitude') || !field(fields, 'longitude') || !Number.isFinite(lat) || !Number.isFinite(lng)) {
      tally.refuse('contamination', { ...note, reason: 'its latitude or longitude is blank or not a number' });
      continue;
    }
    if (!isInAustralia(lng, lat)) {
      const swapped = isInAustralia(lat, lng) ? ' (latitude and longitude look swapped)' : '';
      tally.refuse('contamination', { ...note, reason: `(${lat}, ${lng}) is not in Australia${swapped}` });
      continue;
    }
    const address = [field(fields, 'address'), field(fields, 'suburb')].filter(Boolean).join(' ');
    // Without an id column a site is keyed by what the register says of it, so a rerun of the same file replaces.
    const key = given || createHash('sha256').update(`${name}|${address}|${lat}|${lng}`).digest('hex').slice(0, 16);
    const id = `${run.state}:register:${key}`;
    const first = seen.get(id);
    if (first !== undefined) {
      tally.refuse('contamination', { ...note, reason: `it repeats the site of line ${first}` });
      continue;
    }
    seen.set(id, line);
    sites.push({
      id,
      name: address ? `${name}, ${address}` : name,
      status: field(fields, 'status') || 'listed',
      lng,
      lat,
    });
  }
  for (let at = 0; at < sites.length; at += run.batchRows) {
    const rows = sites.slice(at, at + run.batchRows);
    await query(SQL.UPSERT_SITES, [
      run.dataset,
      run.state,
      rows.map((s) => s.id),
      rows.map((s) => s.name),
      rows.map((s) => s.status),
      rows.map(() => run.sourceName),
      rows.map(() => run.snapshotDate),
      rows.map((s) => s.lng),
      rows.map((s) => s.lat),
    ]);
  }
  count.loaded = sites.length;
  tally.areas.set(
    run.file.replace(/\.[^.]+$/, '').toUpperCase(),
    sites.map((s) => s.id),
  );
}

/** Coverage areas from a file of polygons, one per name, each replacing the area of that name for each kind. */
async function loadCoverageFile(
  query: QueryFn,
  run: PreparedHazardsIngest,
  source: FeatureSource,
  kinds: readonly HazardKind[],
  refused: FeatureNote[],
): Promise<string[]> {
  const areas = new Map<string, string[]>();
  for await (const feature of source.features()) {
    const name = coverageName(feature.properties, source.fields, source.name);
    try {
      const clean = cleanPolygons(feature.geometry, { file: source.name, crs: source.crs, feature: feature.index });
      areas.set(name, [...(areas.get(name) ?? []), clean.geojson]);
    } catch (error) {
      if (!(error instanceof RefusedGeometry)) throw error;
      refused.push({ file: source.name, feature: feature.index, key: name, reason: error.message });
    }
  }
  const names = new Set<string>();
  for (const [name, parts] of areas) {
    const written = await query<{ name: string }>(SQL.COVERAGE_FROM_POLYGONS, [
      run.dataset,
      run.state,
      kinds,
      name,
      run.snapshotDate,
      parts,
    ]);
    for (const w of written) names.add(w.name);
  }
  if (names.size === 0) throw new IngestError(`${source.name}: no polygon in it has an area to cover`);
  return [...names];
}

/** Writes a prepared run in one transaction. */
export async function loadHazards(db: Database, run: PreparedHazardsIngest): Promise<HazardsIngestResult> {
  const started = performance.now();
  const { dataset, state, input } = run;
  const outcome = await db.transaction(async (query) => {
    const tally = new Tally();
    if (input.what === 'overlays') await loadOverlays(query, run, input, tally);
    else if (input.what === 'layer') await loadLayer(query, run, input, tally);
    else await loadRegister(query, run, input, tally);
    if (tally.loaded === 0) {
      const first = inFileOrder(tally.refused)[0];
      const what =
        input.what === 'overlays'
          ? `no hazard overlay (${['FO', 'LSIO', 'SBO', 'BMO', 'EAO'].join(', ')}${run.kind ? ` of kind ${run.kind}` : ''}) of ${run.file} could be loaded`
          : input.what === 'layer'
            ? `no ${input.layout.title} area${run.kind ? ` of kind ${run.kind}` : ''} of ${run.file} could be loaded`
            : `no site of ${run.file} could be loaded`;
      throw new IngestError(`${what}${first ? ` (feature ${first.feature}: ${first.reason})` : ''}`);
    }
    const refused = [...tally.refused];
    // A file speaks for the hazards it holds: one of BMO only says nothing of flood.
    const kinds = run.kind ? [run.kind] : HAZARD_KINDS.filter((k) => (tally.counts.get(k)?.loaded ?? 0) > 0);
    let coverage: HazardsIngestResult['coverage'];
    if (run.coverage) {
      coverage = {
        from: run.coverage.name,
        kinds,
        names: await loadCoverageFile(query, run, run.coverage, kinds, refused),
      };
    } else {
      const names: string[] = [];
      let fromPlanning = false;
      for (const [name, ids] of tally.areas) {
        const written = await query<{ name: string; planning?: boolean }>(
          input.what === 'register' ? SQL.COVERAGE_FROM_SITES : SQL.COVERAGE_FROM_OVERLAYS,
          [dataset, state, kinds, name, run.snapshotDate, ids],
        );
        if (written.length > 0) names.push(name);
        fromPlanning ||= written.some((w) => w.planning === true);
      }
      const from =
        input.what === 'register'
          ? `the box around the sites of ${run.file}`
          : fromPlanning
            ? `the planning coverage of each LGA, else the box around its overlays in ${run.file}`
            : input.what === 'layer'
              ? `the box around the areas of ${run.file}${input.layout.areaFields.length > 0 ? ' (per LGA where it names one)' : ''}`
              : `the box around each LGA's overlays in ${run.file}`;
      coverage = { from, kinds, names };
    }
    await query(SQL.WRITE_HAZARDS_SOURCE, [dataset, state, run.credit.attribution, run.credit.license, run.snapshot]);
    const areas = await query<{ kind: HazardKind; n: number }>(SQL.COUNT_COVERAGE, [dataset, state]);
    return { tally, refused, coverage, areas };
  });
  await db.exec(SQL.ANALYZE_HAZARDS_TABLES);
  return {
    dataset,
    state,
    snapshot: run.snapshot,
    snapshotDate: run.snapshotDate,
    source: {
      file: run.file,
      format: input.what === 'register' ? 'CSV' : `${input.source.format}, ${input.source.crs}`,
      what: input.what,
      layout:
        input.what === 'layer'
          ? input.layout.title
          : input.what === 'overlays'
            ? 'Vicmap Planning PLAN_OVERLAY'
            : run.sourceName,
    },
    kinds: HAZARD_KINDS.flatMap((kind) => outcome.tally.counts.get(kind) ?? []),
    skipped: outcome.tally.skipped,
    vegetation: outcome.tally.vegetation,
    refused: inFileOrder(outcome.refused),
    repaired: inFileOrder(outcome.tally.repaired),
    coverage: outcome.coverage,
    coverageAreas: Object.fromEntries(outcome.areas.map((a) => [a.kind, a.n])),
    ms: performance.now() - started,
  };
}
