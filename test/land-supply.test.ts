import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { runLandSupplyCommand } from '../cli/land-supply.ts';
import { rollupLandSupply, rollupLatestIfStale, scheduleLandSupplyRollup, weekOf } from '../core/land-supply.ts';
import { ALL_SAMPLE_CASES, sandboxSamples } from '../prisma/sandbox/samples.ts';
import { SupplyData } from '../subgraphs/supply/data.ts';
import { encodeTile } from '../subgraphs/supply/mvt.ts';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testRuntime } from './support/runtime.ts';

/**
 * A minimal reader of Mapbox Vector Tile 2.1 (the protobuf of the spec, read field by field), kept
 * apart from the encoder on purpose: the tiles PostGIS's ST_AsMVT writes on PostgreSQL are read by
 * the same code as the ones Landgraph writes on PGlite.
 */
type Decoded = {
  name: string;
  extent: number;
  features: Array<{ type: number; props: Record<string, unknown>; commands: number[] }>;
};
function decodeTile(bytes: Uint8Array): Decoded[] {
  const read = (buf: Uint8Array) => {
    let pos = 0;
    const varint = () => {
      let result = 0;
      let shift = 1;
      for (;;) {
        const b = buf[pos++]!;
        result += (b & 0x7f) * shift;
        if (b < 0x80) return result;
        shift *= 128;
      }
    };
    const fields: Array<{ field: number; value: number | Uint8Array }> = [];
    while (pos < buf.length) {
      const key = varint();
      const field = Math.floor(key / 8);
      const wire = key % 8;
      if (wire === 0) fields.push({ field, value: varint() });
      else if (wire === 2) {
        const len = varint();
        fields.push({ field, value: buf.subarray(pos, pos + len) });
        pos += len;
      } else if (wire === 1) {
        fields.push({ field, value: new DataView(buf.buffer, buf.byteOffset + pos, 8).getFloat64(0, true) });
        pos += 8;
      } else if (wire === 5) {
        fields.push({ field, value: new DataView(buf.buffer, buf.byteOffset + pos, 4).getFloat32(0, true) });
        pos += 4;
      } else throw new Error(`wire type ${wire}`);
    }
    return fields;
  };
  const packed = (buf: Uint8Array) => {
    const out: number[] = [];
    let pos = 0;
    while (pos < buf.length) {
      let result = 0;
      let shift = 1;
      for (;;) {
        const b = buf[pos++]!;
        result += (b & 0x7f) * shift;
        if (b < 0x80) break;
        shift *= 128;
      }
      out.push(result);
    }
    return out;
  };
  const text = (v: number | Uint8Array) => new TextDecoder().decode(v as Uint8Array);
  return read(bytes)
    .filter((f) => f.field === 3)
    .map((layerField) => {
      const layer = read(layerField.value as Uint8Array);
      const keys = layer.filter((f) => f.field === 3).map((f) => text(f.value));
      const values = layer
        .filter((f) => f.field === 4)
        .map((f) => {
          const [v] = read(f.value as Uint8Array);
          if (!v) return null;
          if (v.field === 1) return text(v.value);
          if (v.field === 6) return (v.value as number) % 2 ? -((v.value as number) + 1) / 2 : (v.value as number) / 2;
          if (v.field === 7) return v.value === 1;
          return v.value as number;
        });
      return {
        name: text(layer.find((f) => f.field === 1)!.value),
        extent: (layer.find((f) => f.field === 5)?.value as number) ?? 4096,
        features: layer
          .filter((f) => f.field === 2)
          .map((f) => {
            const feature = read(f.value as Uint8Array);
            const tags = packed((feature.find((g) => g.field === 2)?.value as Uint8Array) ?? new Uint8Array());
            const props: Record<string, unknown> = {};
            for (let i = 0; i < tags.length; i += 2) props[keys[tags[i]!]!] = values[tags[i + 1]!];
            return {
              type: feature.find((g) => g.field === 3)!.value as number,
              props,
              commands: packed(feature.find((g) => g.field === 4)!.value as Uint8Array),
            };
          }),
      };
    });
}

/** The slippy-map tile holding a point. */
function tileOf(lng: number, lat: number, z: number) {
  const n = 2 ** z;
  const x = Math.floor(((lng + 180) / 360) * n);
  const r = (lat * Math.PI) / 180;
  const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n);
  return { x, y };
}

type Lot = { lot_id: string; lat: number; lng: number; estate_id: string; state: string; suburb: string };

describe('land supply: sandbox, routes, rollup and lot tiles', () => {
  let t: TestRuntime;
  let key: string;
  let otherKey: string;
  let lot: Lot;
  const get = (path: string, query: Record<string, string> = {}, k = key) =>
    request(t.app).get(path).query(query).set('Authorization', `Bearer ${k}`);
  const binary = (path: string, k = key) =>
    request(t.app)
      .get(path)
      .set('Authorization', `Bearer ${k}`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });

  beforeAll(async () => {
    t = await testRuntime();
    key = await createTestKey(t.runtime, { scopes: ['land-supply.read'] });
    otherKey = await createTestKey(t.runtime, { scopes: ['development-applications.read'] });
    const [row] = await t.runtime.db.query<Lot>(
      `SELECT l.lot_id, ST_Y(l.geom) AS lat, ST_X(l.geom) AS lng, l.estate_id, l.state, l.suburb
       FROM supply.lot l WHERE l.dataset = 'sandbox' AND l.state = 'VIC' AND l.boundary IS NOT NULL
         AND l.sales_status = 'available' ORDER BY l.lot_id LIMIT 1`,
    );
    lot = row!;
  });

  it('holds labelled synthetic estates and lots in VIC, NSW and QLD with every status and a year of weekly history', async () => {
    const rows = await t.runtime.db.query<{ state: string; estates: number; lots: number }>(
      `SELECT e.state, count(DISTINCT e.estate_id)::int AS estates, count(l.lot_id)::int AS lots
       FROM supply.estate e LEFT JOIN supply.lot l ON l.dataset = e.dataset AND l.estate_id = e.estate_id
       WHERE e.dataset = 'sandbox' GROUP BY e.state ORDER BY e.state`,
    );
    expect(rows.map((r) => r.state)).toEqual(['NSW', 'QLD', 'VIC']);
    for (const r of rows) expect(r.lots).toBeGreaterThan(0);
    const [v] = await t.runtime.db.query<{
      sales: string[];
      titles: string[];
      estate_statuses: string[];
      sources: string[];
      weeks: number;
      unlabelled: number;
      suburbs: string[];
    }>(
      `SELECT (SELECT array_agg(DISTINCT sales_status ORDER BY sales_status) FROM supply.lot WHERE dataset = 'sandbox') AS sales,
         (SELECT array_agg(DISTINCT title_status ORDER BY title_status) FROM supply.lot WHERE dataset = 'sandbox') AS titles,
         (SELECT array_agg(DISTINCT status ORDER BY status) FROM supply.estate WHERE dataset = 'sandbox') AS estate_statuses,
         (SELECT array_agg(DISTINCT coalesce(aspect_source, 'none') ORDER BY coalesce(aspect_source, 'none'))
            FROM supply.lot WHERE dataset = 'sandbox') AS sources,
         (SELECT count(DISTINCT week)::int FROM supply.lot_snapshot WHERE dataset = 'sandbox') AS weeks,
         (SELECT count(*)::int FROM supply.estate WHERE dataset = 'sandbox'
            AND attribution NOT LIKE 'Landgraph sandbox: synthetic demo data%') AS unlabelled,
         (SELECT array_agg(DISTINCT suburb ORDER BY suburb) FROM supply.estate WHERE dataset = 'sandbox') AS suburbs`,
    );
    expect(v!.sales).toEqual(['available', 'sold', 'under_offer', 'withdrawn']);
    expect(v!.titles).toEqual(['titled', 'untitled']);
    expect(v!.estate_statuses).toContain('selling');
    expect(v!.estate_statuses).toContain('coming_soon');
    expect(v!.sources).toEqual(['geometry', 'none', 'plan-compass', 'text-flip']);
    expect(v!.weeks).toBe(52);
    expect(v!.unlabelled).toBe(0);
    expect(v!.suburbs).toEqual(expect.arrayContaining(['HUNTLY', 'NORTH LAKES', 'CASTLE HILL']));
    // the sandbox load rolled up every week of the year
    const [r] = await t.runtime.db.query<{ weeks: number }>(
      `SELECT count(DISTINCT week)::int AS weeks FROM supply.weekly_rollup WHERE dataset = 'sandbox' AND level = 'state'`,
    );
    expect(r!.weeks).toBe(52);
  });

  it('lists estates nearby, nearest first, with live rollups, credited in body and headers', async () => {
    const res = await get('/v1/land-supply/estates/nearby', {
      lat: String(lot.lat),
      lng: String(lot.lng),
      radius_km: '10',
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
    expect(res.body.data.length).toBeGreaterThan(0);
    const [first] = res.body.data;
    expect(first.estate_id).toBe(lot.estate_id);
    expect(first.rollup.active_lots).toBeGreaterThan(0);
    expect(first.rollup.available_lots).toBeLessThanOrEqual(first.rollup.active_lots);
    const distances = (res.body.data as Array<{ distance_km: number }>).map((e) => e.distance_km);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(res.body.attribution).toMatch(/synthetic demo data, not real VIC land supply/);
    expect(res.headers['x-service-attribution']).toBe(res.body.attribution);
    expect(res.headers['x-service-license']).toBe('CC BY 4.0');
  });

  it('lists lots nearby with the spec 2.9 attributes; available=1 keeps only available lots', async () => {
    const q = { lat: String(lot.lat), lng: String(lot.lng), radius_km: '1' };
    const all = await get('/v1/land-supply/lots/nearby', q);
    expect(all.status).toBe(200);
    expect(all.body.data[0].lot_id).toBe(lot.lot_id);
    const first = all.body.data[0];
    for (const field of [
      'asking_price',
      'area_m2',
      'frontage_m',
      'depth_m',
      'title_status',
      'sales_status',
      'location',
      'aspect',
      'aspect_source',
      'estate',
    ]) {
      expect(first).toHaveProperty(field);
    }
    expect(first.estate).toMatchObject({ estate_id: lot.estate_id, developer: expect.any(String) });
    expect(first.aspect_source).toBe('geometry');
    expect(new Set((all.body.data as Array<{ sales_status: string }>).map((l) => l.sales_status)).size).toBeGreaterThan(
      1,
    );
    const available = await get('/v1/land-supply/lots/nearby', { ...q, available: '1' });
    expect(available.status).toBe(200);
    expect(available.body.available_only).toBe(true);
    expect(available.body.data.length).toBeGreaterThan(0);
    expect(available.body.data.length).toBeLessThan(all.body.data.length);
    for (const l of available.body.data) expect(l.sales_status).toBe('available');
  });

  it('says no_data with an empty list far from any estate', async () => {
    for (const path of ['/v1/land-supply/estates/nearby', '/v1/land-supply/lots/nearby']) {
      const res = await get(path, { lat: '-31.95', lng: '115.86', radius_km: '1' });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('no_data');
      expect(res.body.data).toEqual([]);
      expect(res.body.hint).toMatch(/within 1 km/);
      expect(res.headers['x-service-attribution']).toBeUndefined();
    }
  });

  it('refuses bad nearby input with 400 in the error shape and a key without the scope with 403', async () => {
    const cases: Array<[string, Record<string, string>]> = [
      ['/v1/land-supply/estates/nearby', { lat: String(lot.lat), lng: String(lot.lng), radius_km: '51' }],
      ['/v1/land-supply/estates/nearby', { lat: String(lot.lat), lng: String(lot.lng), radius_km: '0' }],
      ['/v1/land-supply/estates/nearby', { lat: '95', lng: String(lot.lng) }],
      ['/v1/land-supply/lots/nearby', { lat: String(lot.lat), lng: String(lot.lng), radius_km: '6' }],
      ['/v1/land-supply/lots/nearby', { lat: String(lot.lat), lng: String(lot.lng), available: 'yes' }],
      ['/v1/land-supply/lots/nearby', { lng: String(lot.lng) }],
    ];
    for (const [path, query] of cases) {
      const res = await get(path, query);
      expect(res.status, `${path} ${JSON.stringify(query)}`).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.error).toEqual(expect.any(String));
    }
    const denied = await get(
      '/v1/land-supply/estates/nearby',
      { lat: String(lot.lat), lng: String(lot.lng) },
      otherKey,
    );
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe('Missing scope: land-supply.read');
  });

  it('takes pfi and state in place of lat and lng (spec 2.1.2): around the parcel, 404 for an unknown one', async () => {
    const [parcel] = await t.runtime.db.query<{ parcel_pfi: string }>(
      `SELECT parcel_pfi FROM cadastre.parcel WHERE dataset = 'sandbox' AND state = 'VIC'
       ORDER BY geom <-> ST_SetSRID(ST_MakePoint($1, $2), 4326) LIMIT 1`,
      [lot.lng, lot.lat],
    );
    const byParcel = await get('/v1/land-supply/estates/nearby', {
      pfi: parcel!.parcel_pfi,
      state: 'VIC',
      radius_km: '5',
    }).expect(200);
    expect(byParcel.body.query).toEqual({ pfi: parcel!.parcel_pfi, state: 'VIC', radius_km: 5 });
    expect((byParcel.body.data as Array<{ estate_id: string }>).map((e) => e.estate_id)).toContain(lot.estate_id);
    const lots = await get('/v1/land-supply/lots/nearby', {
      pfi: parcel!.parcel_pfi,
      state: 'VIC',
      radius_km: '5',
      available: '1',
    }).expect(200);
    expect(lots.body.available_only).toBe(true);
    expect(lots.body.count).toBeGreaterThan(0);
    expect((await get('/v1/land-supply/lots/nearby', { pfi: 'NO-SUCH-PFI', state: 'VIC' })).status).toBe(404);
    const refused: Array<Record<string, string>> = [
      { pfi: parcel!.parcel_pfi },
      { pfi: parcel!.parcel_pfi, state: 'VIC', lat: String(lot.lat), lng: String(lot.lng) },
    ];
    for (const query of refused) {
      const res = await get('/v1/land-supply/estates/nearby', query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error).toEqual(expect.any(String));
    }
  });

  it("answers a suburb's weekly series, its state's series and the estates selling now", async () => {
    const res = await get(`/v1/land-supply/suburb/VIC/${encodeURIComponent('Huntly')}`, { weeks: '8' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
    expect(res.body.suburb).toBe('HUNTLY');
    expect(res.body.weeks).toHaveLength(8);
    expect(res.body.state_weeks).toHaveLength(8);
    type Week = { week: string; active_lots: number; available_lots: number; median_asking_price: number | null };
    const series = res.body.weeks as Week[];
    const stateSeries = res.body.state_weeks as Week[];
    expect(series.at(-1)!.week).toBe('2025-10-27');
    const weeks = series.map((w) => w.week);
    expect(weeks).toEqual([...weeks].sort());
    for (const [i, w] of series.entries()) {
      expect(w.available_lots).toBeLessThanOrEqual(w.active_lots);
      // the state holds the suburb: never fewer lots
      expect(stateSeries[i]!.active_lots).toBeGreaterThanOrEqual(w.active_lots);
    }
    expect(series.some((w) => w.median_asking_price !== null)).toBe(true);
    expect(res.body.estates_selling.length).toBeGreaterThan(0);
    for (const e of res.body.estates_selling) expect(e.rollup.active_lots).toBeGreaterThan(0);
    expect(res.headers['x-service-attribution']).toMatch(/VIC land supply/);
    // the default window is 12 weeks
    expect((await get('/v1/land-supply/suburb/VIC/HUNTLY')).body.weeks).toHaveLength(12);
  });

  it('says no_data for a suburb with no estate, refuses bad weeks and a bad state', async () => {
    const empty = await get('/v1/land-supply/suburb/VIC/Nowhere');
    expect(empty.status).toBe(200);
    expect(empty.body.status).toBe('no_data');
    expect(empty.body.weeks).toEqual([]);
    expect(empty.body.estates_selling).toEqual([]);
    expect((await get('/v1/land-supply/suburb/VIC/HUNTLY', { weeks: '0' })).status).toBe(400);
    expect((await get('/v1/land-supply/suburb/VIC/HUNTLY', { weeks: '105' })).status).toBe(400);
    expect((await get('/v1/land-supply/suburb/VIC/HUNTLY', { weeks: '2.5' })).status).toBe(400);
    expect((await get('/v1/land-supply/suburb/XX/HUNTLY')).status).toBe(400);
    expect((await get('/v1/land-supply/suburb/VIC/HUNTLY', {}, otherKey)).status).toBe(403);
  });

  it("answers an estate's identity, live rollups and series; 404 for an unknown estate", async () => {
    const res = await get(`/v1/land-supply/estate/${lot.estate_id}`, { weeks: '52' });
    expect(res.status).toBe(200);
    expect(res.body.estate).toMatchObject({ estate_id: lot.estate_id, state: 'VIC', status: 'selling' });
    expect(res.body.weeks).toHaveLength(52);
    const live = await t.runtime.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM supply.lot WHERE dataset = 'sandbox' AND estate_id = $1 AND sales_status = 'available'`,
      [lot.estate_id],
    );
    expect(res.body.estate.rollup.available_lots).toBe(live[0]!.n);
    // the last week's rollup agrees with the lots as last listed
    expect((res.body.weeks as Array<{ available_lots: number }>).at(-1)!.available_lots).toBe(live[0]!.n);
    expect(res.headers['x-service-license']).toBe('CC BY 4.0');
    const missing = await get('/v1/land-supply/estate/vic-nowhere-1');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatch(/No estate has the id vic-nowhere-1/);
    expect((await get(`/v1/land-supply/estate/${lot.estate_id}`, { weeks: 'x' })).status).toBe(400);
    expect((await get(`/v1/land-supply/estate/${lot.estate_id}`, {}, otherKey)).status).toBe(403);
  });

  it('names, among the sandbox samples, the address nearest an estate selling lots, with that estate (VIC, QLD)', async () => {
    const samples = await sandboxSamples(t.runtime.db, ALL_SAMPLE_CASES, [
      'land supply: the address nearest an estate selling lots',
    ]);
    expect(samples.map((s) => s.state)).toEqual(['VIC', 'QLD']);
    for (const sample of samples) {
      expect(sample.parcel_pfi).toEqual(expect.any(String));
      const estate = await get(`/v1/land-supply/estate/${sample.estate_id}`, { weeks: '12' });
      expect(estate.status).toBe(200);
      expect(estate.body.estate).toMatchObject({ state: sample.state, status: 'selling' });
      expect(estate.body.estate.rollup.available_lots).toBeGreaterThan(0);
      // the estate is the nearest one selling to the address, and its available lots are around it
      const nearby = await get('/v1/land-supply/estates/nearby', {
        lat: String(sample.lat),
        lng: String(sample.lng),
        radius_km: '10',
      });
      const selling = (nearby.body.data as Array<{ estate_id: string; status: string }>).filter(
        (e) => e.status === 'selling',
      );
      expect(selling[0]!.estate_id).toBe(sample.estate_id);
      const lots = await get('/v1/land-supply/lots/nearby', {
        pfi: sample.parcel_pfi!,
        state: sample.state,
        radius_km: '2',
        available: '1',
      });
      expect(lots.status).toBe(200);
      expect(
        (lots.body.data as Array<{ estate: { estate_id: string } }>).filter(
          (l) => l.estate.estate_id === sample.estate_id,
        ).length,
      ).toBe(estate.body.estate.rollup.available_lots);
    }
  });

  it("answers a state's series and every covered state's latest week", async () => {
    const state = await get('/v1/land-supply/state/QLD', { weeks: '4' });
    expect(state.status).toBe(200);
    expect(state.body.weeks).toHaveLength(4);
    expect(state.body.attribution).toMatch(/QLD land supply/);
    const uncovered = await get('/v1/land-supply/state/WA');
    expect(uncovered.status).toBe(200);
    expect(uncovered.body.status).toBe('not_covered');
    expect(uncovered.body.weeks).toEqual([]);
    expect((await get('/v1/land-supply/state/ZZ')).status).toBe(400);
    const states = await get('/v1/land-supply/states');
    expect(states.status).toBe(200);
    expect((states.body.data as Array<{ state: string }>).map((s) => s.state)).toEqual(['NSW', 'QLD', 'VIC']);
    for (const s of states.body.data) {
      expect(s.week).toBe('2025-10-27');
      expect(s.attribution).toMatch(new RegExp(`${s.state} land supply`));
    }
    expect(states.headers['x-service-attribution']).toContain(' | ');
    expect((await get('/v1/land-supply/states', {}, otherKey)).status).toBe(403);
  });

  it('rolls a week up idempotently: twice gives the same rows, and a changed lot shows in the rerun', async () => {
    const week = '2025-10-20';
    const snapshot = () =>
      t.runtime.db.query<Record<string, unknown>>(
        `SELECT level, place, active_lots, available_lots, new_lots, sold_or_delisted_lots, median_asking_price
         FROM supply.weekly_rollup WHERE dataset = 'sandbox' AND week = $1 ORDER BY level, place`,
        [week],
      );
    const before = await snapshot();
    expect(before.length).toBeGreaterThan(0);
    const first = await rollupLandSupply(t.runtime.db, 'sandbox', '2025-10-22');
    expect(first).toMatchObject({ from: week, to: week, rows: before.length });
    expect(await snapshot()).toEqual(before);
    await rollupLandSupply(t.runtime.db, 'sandbox', week);
    expect(await snapshot()).toEqual(before);
    // a lot sold that week shows in the rerun, and restoring it restores the rows
    const estateRow = async () => (await snapshot()).find((r) => r.level === 'estate' && r.place === lot.estate_id)!;
    const was = await estateRow();
    const [changed] = await t.runtime.db.query<{ lot_id: string }>(
      `UPDATE supply.lot_snapshot SET sales_status = 'sold'
       WHERE dataset = 'sandbox' AND week = $1 AND lot_id = (SELECT s.lot_id FROM supply.lot_snapshot s
         JOIN supply.lot l ON l.dataset = s.dataset AND l.lot_id = s.lot_id
         WHERE s.dataset = 'sandbox' AND s.week = $1 AND s.sales_status = 'available' AND l.estate_id = $2
           AND EXISTS (SELECT 1 FROM supply.lot_snapshot p WHERE p.dataset = s.dataset AND p.lot_id = s.lot_id
             AND p.week = s.week - 7 AND p.sales_status = 'available')
         ORDER BY s.lot_id LIMIT 1)
       RETURNING lot_id`,
      [week, lot.estate_id],
    );
    expect(changed).toBeDefined();
    try {
      await rollupLandSupply(t.runtime.db, 'sandbox', week);
      const now = await estateRow();
      expect(now.available_lots).toBe((was.available_lots as number) - 1);
      expect(now.active_lots).toBe((was.active_lots as number) - 1);
      expect(now.sold_or_delisted_lots).toBe((was.sold_or_delisted_lots as number) + 1);
    } finally {
      await t.runtime.db.query(
        `UPDATE supply.lot_snapshot SET sales_status = 'available' WHERE dataset = 'sandbox' AND week = $1 AND lot_id = $2`,
        [week, changed!.lot_id],
      );
      await rollupLandSupply(t.runtime.db, 'sandbox', week);
    }
    expect(await snapshot()).toEqual(before);
    // without a week: the latest snapshotted one
    expect(await rollupLandSupply(t.runtime.db, 'sandbox')).toMatchObject({ from: '2025-10-27' });
    expect(await rollupLandSupply(t.runtime.db, 'no-such-dataset')).toBeNull();
    expect(weekOf('2025-10-26')).toBe('2025-10-20');
    expect(weekOf('2025-10-27')).toBe('2025-10-27');
  });

  it('runs the rollup on a schedule in the serving process, which rolls up a missing latest week and stops when asked', async () => {
    const latest = async () =>
      (
        await t.runtime.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM supply.weekly_rollup WHERE dataset = 'sandbox' AND week = '2025-10-27'`,
        )
      )[0]!.n;
    const rows = await latest();
    await t.runtime.db.query(`DELETE FROM supply.weekly_rollup WHERE dataset = 'sandbox' AND week = '2025-10-27'`);
    expect(await latest()).toBe(0);
    const stop = scheduleLandSupplyRollup(t.runtime.db, ['sandbox'], 3_600_000);
    try {
      // the first check runs at once; wait for it to land, however long that takes
      for (let i = 0; i < 600 && (await latest()) < rows; i++) await new Promise((r) => setTimeout(r, 50));
      expect(await latest()).toBe(rows);
    } finally {
      stop();
    }
  });

  it('rolls a stale latest week up exactly once when several processes check at the same time', async () => {
    const db = t.runtime.db;
    const rows = () =>
      db.query<Record<string, unknown>>(
        `SELECT level, place, active_lots, available_lots, new_lots, sold_or_delisted_lots, median_asking_price
         FROM supply.weekly_rollup WHERE dataset = 'sandbox' AND week = '2025-10-27' ORDER BY level, place`,
      );
    const before = await rows();
    // fresh: nobody rolls up
    expect(await rollupLatestIfStale(db, 'sandbox')).toBeNull();
    const [lot] = await db.query<{ lot_id: string; updated_at: Date }>(
      `SELECT lot_id, updated_at FROM supply.lot WHERE dataset = 'sandbox' ORDER BY lot_id LIMIT 1`,
    );
    await db.query(`UPDATE supply.lot SET updated_at = clock_timestamp() WHERE dataset = 'sandbox' AND lot_id = $1`, [
      lot!.lot_id,
    ]);
    try {
      // four checks at once (on PostgreSQL, on four pooled connections): the lock lets one roll up
      const results = await Promise.all([1, 2, 3, 4].map(() => rollupLatestIfStale(db, 'sandbox')));
      const done = results.filter((r) => r !== null);
      expect(done).toEqual([{ dataset: 'sandbox', from: '2025-10-27', to: '2025-10-27', rows: before.length }]);
      expect(await rows()).toEqual(before);
      expect(await rollupLatestIfStale(db, 'sandbox')).toBeNull();
    } finally {
      await db.query(`UPDATE supply.lot SET updated_at = $2 WHERE dataset = 'sandbox' AND lot_id = $1`, [
        lot!.lot_id,
        lot!.updated_at,
      ]);
    }
  });

  it('refuses a bad land-supply command line with exit 2 and its usage', async () => {
    const errors: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    const capture = (chunk: string) => {
      errors.push(chunk);
      return true;
    };
    process.stderr.write = capture;
    try {
      expect(await runLandSupplyCommand(['rollup', '--week', '2025-02-30'])).toBe(2);
      expect(await runLandSupplyCommand(['rollup', '--week', 'last'])).toBe(2);
      expect(await runLandSupplyCommand(['rollup', '--dataset', 'other'])).toBe(2);
      expect(await runLandSupplyCommand(['rollup', '--nope'])).toBe(2);
      expect(await runLandSupplyCommand(['tally'])).toBe(2);
    } finally {
      process.stderr.write = write;
    }
    expect(errors.join('')).toContain('Usage: landgraph land-supply rollup');
    expect(errors.join('')).toContain('--week must be a calendar day');
  });

  it('serves lot tiles as Mapbox Vector Tiles with the lot attributes, caching headers and credit', async () => {
    const z = 16;
    const { x, y } = tileOf(lot.lng, lot.lat, z);
    const res = await binary(`/api/land-supply/lots/tiles/${z}/${x}/${y}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.mapbox-vector-tile/);
    expect(res.headers['cache-control']).toMatch(/max-age=\d+/);
    expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(res.headers['x-service-attribution']).toMatch(/land supply/);
    const layers = decodeTile(res.body as Buffer);
    expect(layers).toHaveLength(1);
    expect(layers[0]!.name).toBe('lots');
    expect(layers[0]!.extent).toBe(4096);
    const feature = layers[0]!.features.find((f) => f.props.lot_id === lot.lot_id);
    expect(feature).toBeDefined();
    expect(feature!.type).toBe(3);
    expect(feature!.props).toMatchObject({
      estate_id: lot.estate_id,
      sales_status: 'available',
      aspect_source: 'geometry',
      state: 'VIC',
      title_status: expect.any(String),
    });
    for (const k of [
      'asking_price',
      'area_m2',
      'frontage_m',
      'depth_m',
      'aspect',
      'estate_name',
      'developer',
      'estate_active_lots',
      'estate_available_lots',
    ]) {
      expect(feature!.props, k).toHaveProperty(k);
    }
    // a polygon: MoveTo 1, LineTo n, ClosePath
    expect(feature!.commands[0]).toBe(9);
    expect(feature!.commands.at(-1)).toBe(15);
    // the same tile again is the same bytes and the same ETag; If-None-Match answers 304
    const again = await binary(`/api/land-supply/lots/tiles/${z}/${x}/${y}`);
    expect(Buffer.compare(again.body as Buffer, res.body as Buffer)).toBe(0);
    expect(again.headers.etag).toBe(res.headers.etag);
    const cached = await request(t.app)
      .get(`/api/land-supply/lots/tiles/${z}/${x}/${y}`)
      .set('Authorization', `Bearer ${key}`)
      .set('If-None-Match', res.headers.etag as string);
    expect(cached.status).toBe(304);
  });

  it('answers an empty 200 tile where there is no lot, 400 outside the zooms or the grid, 403 without the scope', async () => {
    const { x, y } = tileOf(115.86, -31.95, 14);
    const empty = await binary(`/api/land-supply/lots/tiles/14/${x}/${y}`);
    expect(empty.status).toBe(200);
    expect(empty.headers['content-type']).toMatch(/^application\/vnd\.mapbox-vector-tile/);
    expect((empty.body as Buffer).length).toBe(0);
    expect(empty.headers['x-service-attribution']).toBeUndefined();
    expect(empty.headers.etag).toMatch(/^"[\w-]+"$/);
    for (const path of ['9/0/0', '19/0/0', '14/16384/0', '14/0/-1', '14/a/0', '14.5/0/0']) {
      const res = await get(`/api/land-supply/lots/tiles/${path}`);
      expect(res.status, path).toBe(400);
      expect(res.body.error).toEqual(expect.any(String));
    }
    expect((await get(`/api/land-supply/lots/tiles/14/${x}/${y}`, {}, otherKey)).status).toBe(403);
  });

  it('encodes the same features as PostGIS ST_AsMVT where PostGIS has it (PostgreSQL)', async () => {
    if (t.runtime.db.kind !== 'postgres') return;
    // the graph on PostgreSQL uses ST_AsMVT; the encoder PGlite needs is checked against it here
    const z = 15;
    const { x, y } = tileOf(lot.lng, lot.lat, z);
    const data = new SupplyData(
      { db: t.runtime.db, catalog: t.runtime.catalog },
      { dataset: 'sandbox', requestId: 'mvt-check', scopes: [] },
    );
    const postgis = decodeTile((await data.tileByPostgis(z, x, y)).mvt)[0]!;
    const rows = await data.tileFeatures(z, x, y);
    const ours = decodeTile(
      encodeTile(
        'lots',
        4096,
        rows.map(({ geometry, ...properties }) => ({ geometry: JSON.parse(geometry), properties })),
      ),
    )[0]!;
    const summary = (layer: Decoded) =>
      layer.features
        .map((f) => ({
          type: f.type,
          lot: f.props.lot_id,
          aspect: f.props.aspect ?? null,
          price: f.props.asking_price,
        }))
        .sort((a, b) => String(a.lot).localeCompare(String(b.lot)));
    expect(summary(ours)).toEqual(summary(postgis));
  });
});
