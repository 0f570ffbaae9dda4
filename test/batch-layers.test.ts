/**
 * The bulk products' row contract (platform/batch/layers.ts) and the graph roots it reads
 * through: propertiesByGnafPids (one statement per layer whatever the batch size) and
 * propertySelection (count first, PIDs only within the limit).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../app/runtime.ts';
import { startRuntime } from '../app/runtime.ts';
import type { RequestScope } from '../core/context.ts';
import type { Database } from '../core/db.ts';
import { openDatabase } from '../core/db.ts';
import { ALL_SCOPES } from '../core/scopes.ts';
import {
  BATCH_LAYERS,
  IDENTITY_COLUMNS,
  ROW_STATUSES,
  batchHeader,
  batchLayer,
  layerCells,
  rowCells,
  unavailableRow,
} from '../platform/batch/layers.ts';
import type { GraphProperty } from '../platform/batch/layers.ts';
import { bulkScope, readBatch } from '../platform/batch/read.ts';
import { testConfig, testRuntime } from './support/runtime.ts';

const PLATFORM = /"platform"\./;

let db: Database;
let runtime: Runtime;
const statements: string[] = [];
const everyScope: RequestScope = { dataset: 'sandbox', requestId: 'test-batch', scopes: [...ALL_SCOPES] };

async function pids(where: string, limit: number): Promise<string[]> {
  const rows = await db.query<{ gnaf_pid: string }>(
    `SELECT a.gnaf_pid FROM address.address_detail a WHERE a.dataset = 'sandbox' AND a.geom IS NOT NULL AND ${where}
     ORDER BY a.gnaf_pid LIMIT ${limit}`,
  );
  return rows.map((r) => r.gnaf_pid);
}

beforeAll(async () => {
  await testRuntime();
  db = await openDatabase(testConfig(), { onQuery: (sql) => statements.push(sql) });
  runtime = await startRuntime(testConfig(), { db, prepare: false });
});

afterAll(async () => {
  await runtime.close();
});

describe('the row contract', () => {
  it('has the enrich bundles among its layers, each column prefixed by its layer', () => {
    for (const name of ['parcel', 'planning', 'hazards', 'demographics', 'market'])
      expect(batchLayer(name)).toBeDefined();
    for (const layer of BATCH_LAYERS)
      for (const column of layer.columns) expect(column.startsWith(`${layer.name}_`)).toBe(true);
    const header = batchHeader([batchLayer('soil')!], ['input_address']);
    expect(header).toEqual(['input_address', ...IDENTITY_COLUMNS, 'soil_status', ...batchLayer('soil')!.columns]);
    expect(new Set(batchHeader(BATCH_LAYERS)).size).toBe(batchHeader(BATCH_LAYERS).length);
  });

  it('maps graph statuses to row statuses and fills every cell of a layer that is not ok with its status', () => {
    const soil = batchLayer('soil')!;
    const property = (status: string, data: unknown = null) =>
      ({ gnaf_pid: 'X', state: 'VIC', address_point: null, address: null, soil: { status, data } }) as GraphProperty;
    expect(layerCells(soil, property('no_data'))).toEqual({
      status: 'no_feature',
      cells: soil.columns.map(() => 'no_feature'),
    });
    expect(layerCells(soil, property('not_covered')).status).toBe('not_covered');
    expect(layerCells(soil, property('error')).cells).toEqual(soil.columns.map(() => 'unavailable'));
    expect(layerCells(soil, property('skipped')).status).toBe('no_identifier');
    expect(layerCells(soil, null).cells).toEqual(soil.columns.map(() => 'no_identifier'));
    // the graph answered, but this layer's field failed
    expect(layerCells(soil, property('ok', { site_class_indicative: 'M' }), true).status).toBe('unavailable');
    const ok = layerCells(
      soil,
      property('ok', { site_class_indicative: 'M', reactivity: 'moderate', clay_percent: 30, ys_estimate_mm: 25 }),
    );
    expect(ok).toEqual({ status: 'ok', cells: ['M', 'moderate', 30, 25] });
    for (const status of Object.values(ROW_STATUSES)) expect(typeof status).toBe('string');
    // a property whose lookup failed (not one found empty) is unavailable in every layer, never blank
    const failed = unavailableRow([soil, batchLayer('planning')!]);
    expect(failed.statuses).toEqual({ soil: 'unavailable', planning: 'unavailable' });
    expect(failed.cells.slice(IDENTITY_COLUMNS.length).every((c) => c === 'unavailable')).toBe(true);
  });
});

describe('propertiesByGnafPids', () => {
  it('reads every layer of a batch in the order given, unknown PIDs as null, with no_identifier rows', async () => {
    const known = await pids(`a.state = 'VIC' AND a.parcel_pfi IS NOT NULL`, 3);
    const reads = await readBatch(
      runtime.graph,
      everyScope,
      [known[0]!, 'GAVIC_NOT_A_PID', ...known.slice(1)],
      BATCH_LAYERS,
    );
    expect(reads.map((r) => r.property?.gnaf_pid ?? null)).toEqual([known[0], null, known[1], known[2]]);
    const first = rowCells(BATCH_LAYERS, reads[0]!.property, reads[0]!.failedFields);
    expect(first.cells.slice(0, 4)).toEqual([known[0], expect.any(String), expect.any(String), 'VIC']);
    expect(first.statuses.parcel).toBe('ok');
    expect(first.statuses.planning).toBe('ok');
    const unknown = rowCells(BATCH_LAYERS, reads[1]!.property);
    expect(Object.values(unknown.statuses).every((s) => s === 'no_identifier')).toBe(true);
    expect(unknown.cells.slice(IDENTITY_COLUMNS.length).every((c) => c === 'no_identifier')).toBe(true);
  });

  it('costs the same statements for 5 properties as for 200 (one per layer, not one per property)', async () => {
    const many = await pids('true', 205);
    await readBatch(runtime.graph, everyScope, many.slice(200), BATCH_LAYERS); // fills the credit caches
    statements.length = 0;
    await readBatch(runtime.graph, everyScope, many.slice(0, 5), BATCH_LAYERS);
    const small = statements.filter((s) => !PLATFORM.test(s)).length;
    statements.length = 0;
    await readBatch(runtime.graph, everyScope, many.slice(5, 205), BATCH_LAYERS);
    const large = statements.filter((s) => !PLATFORM.test(s)).length;
    expect(small).toBeGreaterThan(0);
    expect(large).toBe(small);
  });

  it('is refused to a key: only the bulk products hold its grant', async () => {
    const result = await runtime.graph.execute(
      `query { propertiesByGnafPids(gnaf_pids: ["X"]) { state } }`,
      {},
      everyScope,
    );
    expect(result.errors?.[0]?.message).toMatch(/Missing scope: internal:bulk-rows/);
  });

  it('refuses more than 500 PIDs in one call', async () => {
    const result = await runtime.graph.execute(
      `query ($p: [ID!]!) { propertiesByGnafPids(gnaf_pids: $p) { state } }`,
      { p: Array.from({ length: 501 }, (_, i) => `P${i}`) },
      bulkScope(everyScope),
    );
    expect(result.errors?.[0]?.message).toMatch(/at most 500/);
  });
});

describe('propertySelection', () => {
  const SELECT = `query ($type: PropertySelectionType!, $name: String, $state: String, $polygon: GeoJSON, $limit: Int!) {
    s: propertySelection(type: $type, name: $name, state: $state, polygon: $polygon, limit: $limit) { count gnaf_pids } }`;
  const select = (variables: Record<string, unknown>) =>
    runtime.graph.execute<{ s: { count: number; gnaf_pids: string[] | null } }>(
      SELECT,
      variables,
      bulkScope(everyScope),
    );

  it('counts and lists a suburb case-insensitively, and lists nothing over the limit', async () => {
    const [expected] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM address.address_detail a JOIN address.locality l
         ON l.dataset = a.dataset AND l.locality_pid = a.locality_pid
       WHERE a.dataset = 'sandbox' AND l.locality_name = 'HUNTLY' AND a.state = 'VIC' AND a.geom IS NOT NULL`,
    );
    expect(expected!.n).toBeGreaterThan(10);
    const within = await select({ type: 'suburb', name: 'huntly', state: 'VIC', limit: 25_000 });
    expect(within.data?.s.count).toBe(expected!.n);
    expect(within.data?.s.gnaf_pids).toHaveLength(expected!.n);
    expect([...within.data!.s.gnaf_pids!].sort()).toEqual(within.data!.s.gnaf_pids);
    const over = await select({ type: 'suburb', name: 'HUNTLY', state: 'VIC', limit: 10 });
    expect(over.data?.s).toEqual({ count: expected!.n, gnaf_pids: null });
  });

  it('selects a Queensland LGA, and refuses an LGA elsewhere', async () => {
    const qld = await select({ type: 'lga', name: 'Moreton Bay', state: 'QLD', limit: 25_000 });
    expect(qld.data?.s.count).toBeGreaterThan(0);
    const vic = await select({ type: 'lga', name: 'Greater Bendigo', state: 'VIC', limit: 25_000 });
    expect(vic.errors?.[0]?.message).toMatch(/QLD only/);
  });

  it('selects the addresses inside a polygon, and refuses a polygon that is not closed', async () => {
    const [box] = await db.query<{ w: number; s: number; e: number; n: number }>(
      `SELECT ST_XMin(e) w, ST_YMin(e) s, ST_XMax(e) e, ST_YMax(e) n FROM
        (SELECT ST_Extent(geom) e FROM address.address_detail WHERE dataset = 'sandbox' AND state = 'QLD') t`,
    );
    const ring = [
      [box!.w - 0.001, box!.s - 0.001],
      [box!.e + 0.001, box!.s - 0.001],
      [box!.e + 0.001, box!.n + 0.001],
      [box!.w - 0.001, box!.n + 0.001],
      [box!.w - 0.001, box!.s - 0.001],
    ];
    const [qld] = await db.query<{ n: number }>(
      `SELECT count(*)::int n FROM address.address_detail WHERE dataset = 'sandbox' AND state = 'QLD' AND geom IS NOT NULL`,
    );
    const all = await select({ type: 'area', polygon: { type: 'Polygon', coordinates: [ring] }, limit: 25_000 });
    expect(all.data?.s.count).toBe(qld!.n);
    const open = await select({
      type: 'area',
      polygon: { type: 'Polygon', coordinates: [ring.slice(0, 4)] },
      limit: 100,
    });
    expect(open.errors?.[0]?.message).toMatch(/closed/);
  });
});
