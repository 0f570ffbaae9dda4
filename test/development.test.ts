import { execute, parse } from 'graphql';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSubgraphs } from '../app/runtime.ts';
import type { Database } from '../core/db.ts';
import { openDatabase } from '../core/db.ts';
import { ProvenanceCatalog } from '../core/provenance.ts';
import { DA_FORMATS, instantOf, parseApplications } from '../cli/ingest/development-formats.ts';
import type { DaRecord } from '../cli/ingest/development-formats.ts';
import { upsertApplications } from '../cli/ingest/development.ts';
import { sandboxSamples } from '../prisma/sandbox/load.ts';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testConfig, testRuntime } from './support/runtime.ts';

/** A sandbox parcel with applications, and the point of its first one. */
type DaParcel = { parcel_pfi: string; state: string; lga_code: string; lat: number; lng: number; n: number };

describe('development applications: sandbox, lookups, statistics and the property graph', () => {
  let t: TestRuntime;
  let daKey: string;
  let dossierKey: string;
  let feedKey: string;
  let graphOnlyKey: string;
  let parcel: DaParcel;
  const get = (path: string, query: Record<string, string>, key = daKey) =>
    request(t.app).get(path).query(query).set('Authorization', `Bearer ${key}`);
  const count = async (sql: string, params: unknown[] = []) =>
    (await t.runtime.db.query<{ n: number }>(sql, params))[0]!.n;

  beforeAll(async () => {
    t = await testRuntime();
    daKey = await createTestKey(t.runtime, { scopes: ['development-applications.read'] });
    dossierKey = await createTestKey(t.runtime, { scopes: ['dossier.read'] });
    feedKey = await createTestKey(t.runtime, { scopes: ['development-applications.feed.read'] });
    graphOnlyKey = await createTestKey(t.runtime, { scopes: ['property-graph.read'] });
    const [row] = await t.runtime.db.query<DaParcel>(
      `SELECT a.parcel_pfi, a.state, a.lga_code, ST_Y(a.geom) AS lat, ST_X(a.geom) AS lng,
         (SELECT count(*)::int FROM development.application b WHERE b.dataset = a.dataset AND b.state = a.state
            AND b.parcel_pfi = a.parcel_pfi) AS n
       FROM development.application a WHERE a.dataset = 'sandbox' AND a.state = 'VIC'
       ORDER BY n DESC, a.parcel_pfi LIMIT 1`,
    );
    parcel = row!;
  });

  it('holds synthetic applications in VIC, NSW and QLD over several years with every status and category, labelled demo', async () => {
    const rows = await t.runtime.db.query<{ state: string; statuses: string[]; categories: string[]; years: number }>(
      `SELECT state, array_agg(DISTINCT status ORDER BY status) AS statuses,
         array_agg(DISTINCT category ORDER BY category) AS categories,
         count(DISTINCT extract(year FROM lodged_date))::int AS years
       FROM development.application WHERE dataset = 'sandbox' GROUP BY state ORDER BY state`,
    );
    expect(rows.map((r) => r.state)).toEqual(['NSW', 'QLD', 'VIC']);
    for (const r of rows) {
      expect(r.statuses).toEqual(['approved', 'determined', 'lodged', 'refused', 'under_assessment', 'withdrawn']);
      expect(r.categories).toEqual([
        'alterations',
        'commercial',
        'demolition',
        'dwelling',
        'industrial',
        'other',
        'subdivision',
      ]);
      expect(r.years).toBeGreaterThanOrEqual(3);
    }
    // every application stands on a sandbox parcel and its address
    expect(
      await count(`SELECT count(*)::int AS n FROM development.application a WHERE a.dataset = 'sandbox'
        AND NOT EXISTS (SELECT 1 FROM cadastre.parcel p WHERE p.dataset = a.dataset AND p.state = a.state
          AND p.parcel_pfi = a.parcel_pfi AND ST_DWithin(p.geom, a.geom, 0.0005))`),
    ).toBe(0);
    expect(
      await count(`SELECT count(*)::int AS n FROM development.application WHERE dataset = 'sandbox'
        AND attribution NOT LIKE 'Landgraph sandbox: synthetic demo data%'`),
    ).toBe(0);
    // decided ones have a decision date after lodgement; undecided ones none
    expect(
      await count(`SELECT count(*)::int AS n FROM development.application WHERE dataset = 'sandbox'
        AND ((status IN ('lodged', 'under_assessment')) <> (decided_date IS NULL) OR decided_date < lodged_date)`),
    ).toBe(0);
  });

  it('lists a sandbox sample parcel that has development applications', async () => {
    const samples = await sandboxSamples(t.runtime.db, 100);
    const sample = samples.find((s) => s.note.startsWith('development applications on the parcel'));
    expect(sample).toBeDefined();
    expect(
      await count(
        `SELECT count(*)::int AS n FROM development.application WHERE dataset = 'sandbox' AND state = $1 AND parcel_pfi = $2`,
        [sample!.state, sample!.parcel_pfi],
      ),
    ).toBeGreaterThan(0);
  });

  it('answers nearby by point: nearest first within the radius, each with its distance, credited in body and headers', async () => {
    const res = await get('/v1/development-applications/nearby', {
      lat: String(parcel.lat),
      lng: String(parcel.lng),
      radius_m: '400',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, status: 'ok', radius_m: 400, error: null, hint: null });
    expect(res.body.query).toMatchObject({ state: 'VIC', radius_m: 400 });
    const data = res.body.data as Array<{ distance_m: number; parcel_pfi: string; status: string }>;
    expect(data.length).toBe(res.body.count);
    expect(data.length).toBeGreaterThanOrEqual(parcel.n);
    expect(data[0]!.distance_m).toBeLessThan(1);
    expect(data[0]!.parcel_pfi).toBe(parcel.parcel_pfi);
    for (let i = 1; i < data.length; i++) expect(data[i]!.distance_m).toBeGreaterThanOrEqual(data[i - 1]!.distance_m);
    expect(Math.max(...data.map((d) => d.distance_m))).toBeLessThanOrEqual(400);
    expect(res.body.source).toMatch(/^mirror:vic\/development-applications@sandbox-v11-/);
    expect(res.body.freshness).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(res.body.attribution).toMatch(/not real VIC development applications/);
    expect(res.headers['x-service-attribution']).toBe(res.body.attribution);
    expect(res.headers['x-service-license']).toBe('CC BY 4.0');
    const expected = await count(
      `SELECT count(*)::int AS n FROM development.application WHERE dataset = 'sandbox' AND state = 'VIC'
         AND ST_DWithin(geom::geography, ST_SetSRID(ST_MakePoint($1, $2), 4326)::geography, 400)`,
      [parcel.lng, parcel.lat],
    );
    expect(data.length).toBe(expected);
  });

  it('answers nearby by pfi and state in place of lat/lng, echoing the parcel', async () => {
    const res = await get('/v1/development-applications/nearby', { pfi: parcel.parcel_pfi, state: 'VIC' });
    expect(res.status).toBe(200);
    expect(res.body.property).toMatchObject({ parcel_pfi: parcel.parcel_pfi, state: 'VIC' });
    expect(res.body.radius_m).toBe(500);
    expect((res.body.data as Array<{ parcel_pfi: string }>).some((d) => d.parcel_pfi === parcel.parcel_pfi)).toBe(true);
    const unknown = await get('/v1/development-applications/nearby', { pfi: 'NOPE999', state: 'VIC' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, data: null });
  });

  it('says no_data with an empty list where nothing lies within the radius', async () => {
    // open ground far from every sandbox suburb, still in Victoria
    const res = await get('/v1/development-applications/nearby', { lat: '-37.5', lng: '143.2', radius_m: '2000' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'no_data', count: 0, data: [] });
    expect(res.body.hint).toMatch(/within 2000 m/);
    expect(res.headers['x-service-attribution']).toBeUndefined();
  });

  it('refuses a bad nearby request with 400 and a key without the scope with 403', async () => {
    const point = { lat: String(parcel.lat), lng: String(parcel.lng) };
    const tooFar = await get('/v1/development-applications/nearby', { ...point, radius_m: '2001' });
    expect(tooFar.status).toBe(400);
    expect(tooFar.body).toMatchObject({ success: false, data: null, source: null });
    expect(tooFar.body.error).toMatch(/radius_m must be at most 2000/);
    expect((await get('/v1/development-applications/nearby', { lat: point.lat })).status).toBe(400);
    expect((await get('/v1/development-applications/nearby', { pfi: parcel.parcel_pfi })).status).toBe(400);
    expect((await get('/v1/development-applications/nearby', { lat: '51.5', lng: '-0.1' })).status).toBe(400);
    const forbidden = await get('/v1/development-applications/nearby', point, dossierKey);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toBe('Missing scope: development-applications.read');
  });

  it('lists the applications of a parcel, newest lodged first; 404 for an unknown parcel, 403 without the scope', async () => {
    const res = await get('/v1/development-applications/parcel', { pfi: parcel.parcel_pfi, state: 'VIC' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', parcel_pfi: parcel.parcel_pfi, count: parcel.n });
    const lodged = (res.body.data as Array<{ lodged_date: string }>).map((d) => d.lodged_date);
    expect([...lodged].sort().reverse()).toEqual(lodged);
    const first = res.body.data[0] as Record<string, unknown>;
    for (const field of [
      'source',
      'authority',
      'council_reference',
      'state',
      'lga_code',
      'lga_name',
      'suburb',
      'address',
      'gnaf_pid',
      'parcel_pfi',
      'location',
      'description',
      'category',
      'status',
      'lodged_date',
      'decided_date',
      'estimated_cost',
      'dwellings_proposed',
      'source_url',
      'attribution',
      'license',
      'updated_at',
      'received_at',
    ]) {
      expect(first, field).toHaveProperty(field);
    }
    expect(first.gnaf_pid).toMatch(/^GAVIC/);
    expect(first.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    expect((await get('/v1/development-applications/parcel', { pfi: 'NOPE999', state: 'VIC' })).status).toBe(404);
    expect((await get('/v1/development-applications/parcel', { pfi: parcel.parcel_pfi })).status).toBe(400);
    expect(
      (await get('/v1/development-applications/parcel', { pfi: parcel.parcel_pfi, state: 'VIC' }, feedKey)).status,
    ).toBe(403);
  });

  it('answers the dossier route under dossier.read (not development-applications.read), by parcel, point or address', async () => {
    const byPfi = await get('/api/development-applications', { pfi: parcel.parcel_pfi, state: 'VIC' }, dossierKey);
    expect(byPfi.status).toBe(200);
    expect(byPfi.body).toMatchObject({ status: 'ok', count: parcel.n, parcel_pfi: parcel.parcel_pfi });
    const gnaf = (byPfi.body.data[0] as { gnaf_pid: string }).gnaf_pid;
    const byAddress = await get('/api/development-applications', { gnaf_pid: gnaf }, dossierKey);
    expect(byAddress.status).toBe(200);
    expect(byAddress.body.count).toBe(parcel.n);
    const atPoint = await get(
      '/api/development-applications',
      { lat: String(parcel.lat), lng: String(parcel.lng) },
      dossierKey,
    );
    expect(atPoint.body).toMatchObject({ status: 'ok', parcel_pfi: parcel.parcel_pfi });
    const forbidden = await get('/api/development-applications', { pfi: parcel.parcel_pfi, state: 'VIC' }, daKey);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toBe('Missing scope: dossier.read');
    // a parcel with none: no_data
    const [bare] = await t.runtime.db.query<{ parcel_pfi: string }>(
      `SELECT p.parcel_pfi FROM cadastre.parcel p WHERE p.dataset = 'sandbox' AND p.state = 'VIC'
         AND NOT EXISTS (SELECT 1 FROM development.application a WHERE a.dataset = p.dataset AND a.state = p.state
           AND a.parcel_pfi = p.parcel_pfi) ORDER BY p.parcel_pfi LIMIT 1`,
    );
    const none = await get('/api/development-applications', { pfi: bare!.parcel_pfi, state: 'VIC' }, dossierKey);
    expect(none.body).toMatchObject({ status: 'no_data', count: 0, data: [] });
  });

  it("pages an LGA's applications newest lodged first, with the total; refuses limit above 200", async () => {
    const total = await count(
      `SELECT count(*)::int AS n FROM development.application WHERE dataset = 'sandbox' AND lga_code = $1`,
      [parcel.lga_code],
    );
    const first = await get(`/v1/development-applications/lga/${parcel.lga_code}`, { limit: '5' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'ok', total, offset: 0, next_offset: 5, count: 5 });
    const second = await get(`/v1/development-applications/lga/${parcel.lga_code}`, { limit: '5', offset: '5' });
    expect(second.body).toMatchObject({ offset: 5, next_offset: 10, count: 5 });
    const refs = (body: { data: Array<{ council_reference: string }> }) => body.data.map((d) => d.council_reference);
    expect(refs(first.body).filter((r) => refs(second.body).includes(r))).toEqual([]);
    const last = await get(`/v1/development-applications/lga/${parcel.lga_code}`, {
      limit: '200',
      offset: String(total - 1),
    });
    expect(last.body).toMatchObject({ count: 1, next_offset: null });
    const refused = await get(`/v1/development-applications/lga/${parcel.lga_code}`, { limit: '201' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/limit must be at most 200/);
    const empty = await get('/v1/development-applications/lga/NOSUCHLGA', {});
    expect(empty.body).toMatchObject({ status: 'no_data', total: 0, count: 0, data: [] });
    expect((await get(`/v1/development-applications/lga/${parcel.lga_code}`, {}, feedKey)).status).toBe(403);
  });

  it('counts applications per month by status and category, with the median decision days, by LGA and by suburb', async () => {
    const res = await get('/v1/development-applications/statistics', { lga_code: parcel.lga_code, months: '120' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', hint: null, data: { lga_code: parcel.lga_code, state: 'VIC' } });
    const data = res.body.data as {
      total: number;
      median_decision_days: number;
      months: Array<{
        month: string;
        lodged: number;
        by_status: Array<{ count: number }>;
        by_category: Array<{ count: number }>;
      }>;
    };
    expect(data.months).toHaveLength(120);
    const inLga = await count(
      `SELECT count(*)::int AS n FROM development.application WHERE dataset = 'sandbox' AND lga_code = $1`,
      [parcel.lga_code],
    );
    expect(data.total).toBe(inLga);
    expect(data.months.reduce((sum, m) => sum + m.lodged, 0)).toBe(inLga);
    for (const m of data.months) {
      expect(m.by_status.reduce((s, c) => s + c.count, 0)).toBe(m.lodged);
      expect(m.by_category.reduce((s, c) => s + c.count, 0)).toBe(m.lodged);
    }
    const [median] = await t.runtime.db.query<{ m: number }>(
      `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY decided_date - lodged_date) AS m
       FROM development.application WHERE dataset = 'sandbox' AND lga_code = $1
         AND status IN ('approved', 'refused', 'determined')`,
      [parcel.lga_code],
    );
    expect(data.median_decision_days).toBeCloseTo(Number(median!.m), 6);
    const suburb = await get('/v1/development-applications/statistics', {
      suburb: 'parramatta',
      state: 'NSW',
      months: '120',
    });
    expect(suburb.body).toMatchObject({ status: 'ok', data: { suburb: 'PARRAMATTA', state: 'NSW' } });
    expect(suburb.body.data.total).toBeGreaterThan(0);
    const nowhere = await get('/v1/development-applications/statistics', { suburb: 'Nowhere', state: 'NSW' });
    expect(nowhere.body).toMatchObject({ status: 'no_data', data: null });
    expect((await get('/v1/development-applications/statistics', { suburb: 'Parramatta' })).status).toBe(400);
    expect(
      (
        await get('/v1/development-applications/statistics', {
          lga_code: parcel.lga_code,
          suburb: 'Huntly',
          state: 'VIC',
        })
      ).status,
    ).toBe(400);
    expect(
      (await get('/v1/development-applications/statistics', { lga_code: parcel.lga_code, months: '121' })).status,
    ).toBe(400);
    expect(
      (await get('/v1/development-applications/statistics', { lga_code: parcel.lga_code }, dossierKey)).status,
    ).toBe(403);
  });

  it('puts development_applications in the property graph under its scope or dossier.read, and not without', async () => {
    const query = { pfi: parcel.parcel_pfi, state: 'VIC' };
    const withDa = await createTestKey(t.runtime, {
      scopes: ['property-graph.read', 'development-applications.read'],
    });
    const res = await get('/v1/property/graph', query, withDa);
    expect(res.status).toBe(200);
    expect(res.body.layers.development_applications).toMatchObject({ status: 'ok', license: 'CC BY 4.0' });
    expect(res.body.layers.development_applications.data).toHaveLength(parcel.n);
    expect(res.body.layers.development_applications.freshness).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const withDossier = await createTestKey(t.runtime, { scopes: ['property-graph.read', 'dossier.read'] });
    const dossier = await get('/v1/property/graph', query, withDossier);
    expect(dossier.body.layers.development_applications).toMatchObject({ status: 'ok' });
    const without = await get('/v1/property/graph', query, graphOnlyKey);
    expect(without.status).toBe(200);
    expect(Object.keys(without.body.layers)).not.toContain('development_applications');
    // and on /graphql the field itself is refused without either scope
    const graphql = await request(t.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${graphOnlyKey}`)
      .send({
        query: `{ propertyByParcel(parcel_pfi: "${parcel.parcel_pfi}", state: "VIC") { development_applications { status } } }`,
      });
    expect(JSON.stringify(graphql.body.errors)).toMatch(/Missing scope: development-applications.read/);
  });
});

describe('the development application change feed', () => {
  let t: TestRuntime;
  let feedKey: string;
  let liveFeedKey: string;
  const get = (query: Record<string, string>, key = feedKey) =>
    request(t.app).get('/v1/development-applications/feed').query(query).set('Authorization', `Bearer ${key}`);

  beforeAll(async () => {
    t = await testRuntime();
    feedKey = await createTestKey(t.runtime, { scopes: ['development-applications.feed.read'] });
    liveFeedKey = await createTestKey(t.runtime, { kind: 'live', scopes: ['development-applications.feed.read'] });
  });

  it('pages an LGA oldest change first with per-state credits on each page and in the headers', async () => {
    const [lga] = await t.runtime.db.query<{ lga_code: string; n: number }>(
      `SELECT lga_code, count(*)::int AS n FROM development.application WHERE dataset = 'sandbox'
       GROUP BY lga_code ORDER BY lga_code LIMIT 1`,
    );
    const seen: string[] = [];
    let cursor = '';
    let pages = 0;
    for (;;) {
      const res = await get({ lga_code: lga!.lga_code, limit: '200', ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      pages += 1;
      const data = res.body.data as Array<{ council_reference: string; received_at: string; state: string }>;
      expect(res.body.count).toBe(data.length);
      const received = data.map((d) => d.received_at);
      expect([...received].sort()).toEqual(received);
      seen.push(...data.map((d) => d.council_reference));
      if (data.length > 0) {
        const credits = res.body.credits as Array<{ state: string; license: string }>;
        expect(credits.map((c) => c.state)).toEqual([...new Set(data.map((d) => d.state))].sort());
        expect(credits.every((c) => c.license === 'CC BY 4.0')).toBe(true);
        expect(res.headers['x-service-attribution']).toBe(res.body.attribution);
      }
      cursor = res.body.next_cursor as string;
      if (!res.body.has_more) break;
    }
    expect(pages).toBe(Math.floor(lga!.n / 200) + 1);
    expect(seen).toHaveLength(lga!.n);
    expect(new Set(seen).size).toBe(lga!.n);
    // the last page's cursor polls for later changes: nothing new yet
    const later = await get({ lga_code: lga!.lga_code, cursor });
    expect(later.body).toMatchObject({ count: 0, has_more: false, next_cursor: cursor });
  });

  it('pages a bbox and honours updated_since', async () => {
    const [box] = await t.runtime.db.query<{ west: number; south: number; east: number; north: number; mid: string }>(
      `SELECT ST_XMin(e) AS west, ST_YMin(e) AS south, ST_XMax(e) AS east, ST_YMax(e) AS north,
         (SELECT to_char(percentile_disc(0.5) WITHIN GROUP (ORDER BY received_at) AT TIME ZONE 'UTC',
            'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') FROM development.application WHERE dataset = 'sandbox' AND state = 'NSW') AS mid
       FROM (SELECT ST_Extent(geom)::geometry AS e FROM development.application WHERE dataset = 'sandbox' AND state = 'NSW') x`,
    );
    const bbox = [box!.west, box!.south, box!.east, box!.north].join(',');
    const res = await get({ bbox, updated_since: box!.mid, limit: '50' });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(50);
    expect(res.body.has_more).toBe(true);
    for (const d of res.body.data as Array<{ received_at: string; state: string }>) {
      expect(d.received_at >= box!.mid).toBe(true);
      expect(d.state).toBe('NSW');
    }
    // the cursor is bound to its query
    const other = await get({ bbox, limit: '50', cursor: res.body.next_cursor as string });
    expect(other.status).toBe(400);
    expect(other.body.error).toMatch(/cursor belongs to a feed query with other filters/);
  });

  it('refuses a window over 2 degrees, both or neither area, limit above 200, a forged cursor and a bad date; 403 without the feed scope', async () => {
    const wide = await get({ bbox: '144,-37,146.5,-36' });
    expect(wide.status).toBe(400);
    expect(wide.body).toMatchObject({ success: false, data: null, source: null });
    expect(wide.body.error).toMatch(/the limit is 2 degrees per axis/);
    expect((await get({})).status).toBe(400);
    expect((await get({ lga_code: '325', bbox: '144,-37,144.1,-36.9' })).status).toBe(400);
    const limit = await get({ lga_code: '325', limit: '201' });
    expect(limit.status).toBe(400);
    expect(limit.body.error).toMatch(/limit must be at most 200/);
    const forged = await get({ lga_code: '325', cursor: 'bm90IGEgY3Vyc29y' });
    expect(forged.status).toBe(400);
    expect(forged.body.error).toMatch(/cursor is not a cursor this feed issued/);
    expect((await get({ lga_code: '325', updated_since: 'yesterday' })).status).toBe(400);
    // values of the right form that name no day, no instant or no row are refused here, not by the database
    expect((await get({ lga_code: '325', updated_since: '2025-02-30' })).status).toBe(400);
    const forge = (at: string, id: string) =>
      Buffer.from(JSON.stringify({ v: 1, at, id, q: 'x' })).toString('base64url');
    for (const cursor of [
      forge('2025-02-30T00:00:00.000000Z', '1'),
      forge('2025-01-01T00:00:00.000000Z', '9'.repeat(19)),
    ]) {
      const res = await get({ lga_code: '325', cursor });
      expect(res.status, cursor).toBe(400);
      expect(res.body.error).toMatch(/cursor is not a cursor this feed issued/);
    }
    const odd = await get({ lga_code: "'; SELECT 1; --%_", updated_since: '0001-01-01' });
    expect(odd.body).toMatchObject({ success: true, count: 0 });
    const lookupKey = await createTestKey(t.runtime, { scopes: ['development-applications.read'] });
    const forbidden = await get({ lga_code: '325' }, lookupKey);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toBe('Missing scope: development-applications.feed.read');
    const empty = await get({ lga_code: 'NOSUCHLGA' });
    expect(empty.body).toMatchObject({ count: 0, data: [], has_more: false, next_cursor: null, credits: [] });
  });

  it('skips and repeats no row across pages while rows change and arrive between fetches; a changed row comes again', async () => {
    const LGA = 'FEEDTEST';
    await t.runtime.db.query(`DELETE FROM development.application WHERE dataset = 'live' AND lga_code = $1`, [LGA]);
    const record = (n: number, status: DaRecord['status'] = 'lodged'): DaRecord => ({
      seq: n,
      source: 'nsw-portal',
      authority: 'Feed Test Council',
      council_reference: `FT/${n}`,
      state: 'NSW',
      lga_code: LGA,
      lga_name: 'FEED TEST',
      suburb: 'FEEDVILLE',
      address: `${n} Feed Street, Feedville NSW 2000 (test)`,
      description: 'Alterations and additions (test)',
      category: 'alterations',
      status,
      lodged_date: '2025-01-01',
      decided_date: status === 'approved' ? '2025-03-01' : null,
      estimated_cost: 1000 * n,
      dwellings_proposed: null,
      source_url: null,
      attribution: 'Feed test credit',
      license: 'CC BY 4.0',
      updated_at: `2025-0${status === 'approved' ? 3 : 1}-01T00:00:00.000Z`,
      lng: 151 + n / 1000,
      lat: -33.8,
    });
    const write = (records: DaRecord[]) =>
      t.runtime.db.transaction((query) => upsertApplications(query, 'live', records));
    await write([1, 2, 3, 4, 5, 6, 7].map((n) => record(n)));

    type Row = { council_reference: string; status: string; updated_at: string; received_at: string };
    const pages: Row[][] = [];
    let cursor: string | undefined;
    const fetch = async () => {
      const res = await get({ lga_code: LGA, limit: '3', ...(cursor ? { cursor } : {}) }, liveFeedKey);
      expect(res.status).toBe(200);
      pages.push(res.body.data as Row[]);
      cursor = res.body.next_cursor as string;
      return res.body.has_more as boolean;
    };

    await fetch(); // FT/1..3
    // FT/2 (already read) and FT/5 (not yet read) change; FT/8 arrives
    expect(await write([record(2, 'approved'), record(5, 'approved'), record(8)])).toMatchObject({
      inserted: 1,
      updated: 2,
    });
    await fetch();
    // FT/4 changes after it was read; FT/9 arrives; FT/6 is written again unchanged (not a change)
    expect(await write([record(4, 'approved'), record(9), record(6)])).toMatchObject({
      inserted: 1,
      updated: 1,
      unchanged: 1,
    });
    while (await fetch());

    const all = pages.flat();
    const refs = all.map((r) => r.council_reference);
    // nothing skipped: every record, in its latest form, is read after its last change
    for (let n = 1; n <= 9; n++) expect(refs, `FT/${n}`).toContain(`FT/${n}`);
    const lastSeen = new Map(all.map((r) => [r.council_reference, r]));
    for (const n of [2, 4, 5]) expect(lastSeen.get(`FT/${n}`)!.status).toBe('approved');
    // nothing repeated except a record that changed after it was read, which comes again with its new updated_at
    const counts = refs.reduce((m, r) => m.set(r, (m.get(r) ?? 0) + 1), new Map<string, number>());
    expect(
      [...counts]
        .filter(([, c]) => c > 1)
        .map(([r]) => r)
        .sort(),
    ).toEqual(['FT/2', 'FT/4']);
    const twice = all.filter((r) => r.council_reference === 'FT/2');
    expect(twice.map((r) => r.status)).toEqual(['lodged', 'approved']);
    expect(twice[1]!.updated_at > twice[0]!.updated_at).toBe(true);
    expect(twice[1]!.received_at > twice[0]!.received_at).toBe(true);
    expect(counts.get('FT/6')).toBe(1);
    // every page in the feed's order, each page after the one before
    const received = all.map((r) => r.received_at);
    expect([...received].sort()).toEqual(received);
    await t.runtime.db.query(`DELETE FROM development.application WHERE dataset = 'live' AND lga_code = $1`, [LGA]);
  });
});

describe('ingest development-applications', () => {
  it('reads the PlanningAlerts JSON, every record lodged; reports the unreadable ones without failing', async () => {
    const { readFile } = await import('node:fs/promises');
    const body = JSON.parse(
      await readFile(
        new URL('./fixtures/development-applications/planningalerts-applications.json', import.meta.url),
        'utf8',
      ),
    ) as unknown;
    const parsed = parseApplications('planningalerts', body, 'pa.json');
    if ('error' in parsed) throw new Error(parsed.error);
    expect(parsed.read).toBe(4);
    expect(parsed.records.map((r) => [r.council_reference, r.state, r.status, r.category])).toEqual([
      ['DR/101/2025', 'VIC', 'lodged', 'dwelling'],
      ['A005512345', 'QLD', 'lodged', 'subdivision'],
    ]);
    expect(parsed.records[0]).toMatchObject({
      authority: 'Greater Bendigo City Council',
      lodged_date: '2025-08-28',
      updated_at: '2025-09-01T20:14:09.000Z',
      source_url: 'https://example.invalid/bendigo/DR-101-2025',
      lng: 144.3281,
      lat: -36.6705,
    });
    expect(parsed.refused.map((n) => [n.feature, n.reason])).toEqual([
      [3, 'has no council_reference'],
      [4, 'has neither a point in Australia nor an address naming its state'],
    ]);
    // the bare array form reads the same
    const bare = parseApplications('planningalerts', (body as { applications: unknown[] }).applications, 'pa.json');
    expect('records' in bare && bare.records.length).toBe(2);
    expect(parseApplications('planningalerts', { Application: [] }, 'x.json')).toEqual({
      error: 'is not PlanningAlerts application JSON: no array of applications',
    });
  });

  it('reads the NSW Planning Portal JSON: statuses mapped, Sydney wall-clock times to UTC, costs and dwellings', async () => {
    const { readFile } = await import('node:fs/promises');
    const body = JSON.parse(
      await readFile(
        new URL('./fixtures/development-applications/nsw-portal-applications.json', import.meta.url),
        'utf8',
      ),
    ) as unknown;
    const parsed = parseApplications('nsw-portal', body, 'nsw.json');
    if ('error' in parsed) throw new Error(parsed.error);
    expect(parsed.records.map((r) => [r.council_reference, r.status, r.category, r.decided_date])).toEqual([
      ['DA/2025/0101', 'determined', 'dwelling', '2025-07-14'],
      ['DA/2025/0202', 'under_assessment', 'alterations', null],
      ['DA/2025/0303', 'withdrawn', 'commercial', '2025-02-20'],
      ['DA/2025/0404', 'approved', 'industrial', '2025-04-01'],
    ]);
    expect(parsed.records[0]).toMatchObject({
      state: 'NSW',
      authority: 'City of Parramatta Council',
      estimated_cost: 1_250_000,
      dwellings_proposed: 2,
      // 15:42:10 AEST (UTC+10) in July
      updated_at: '2025-07-14T05:42:10.000Z',
      lng: 151.004,
      lat: -33.815,
      license: 'CC BY 4.0',
    });
    expect(parsed.records[1]!.estimated_cost).toBe(85_000);
    expect(parsed.refused.map((n) => [n.feature, n.key])).toEqual([
      [5, 'PAN-900005'],
      [6, 'PAN-900006'],
    ]);
    expect(parsed.refused[0]!.reason).toMatch(/ApplicationStatus we do not know: 'Somewhere In Between'/);
    // daylight saving: 10:00 AEDT (UTC+11) in January
    expect(instantOf('2025-01-15T10:00:00')).toBe('2025-01-14T23:00:00.000Z');
    expect(instantOf('2025-01-15T10:00:00+10:00')).toBe('2025-01-15T00:00:00.000Z');
    expect(instantOf('not a date')).toBeNull();
    expect(instantOf('2025-02-30T10:00:00')).toBeNull();
    expect(DA_FORMATS).toEqual(['planningalerts', 'nsw-portal']);
  });
});

describe('the development subgraph, black-boxed', () => {
  let db: Database;
  const queries: string[] = [];

  beforeAll(async () => {
    await testRuntime(); // the tier's shared database is open (on PGlite, this process owns it)
    db = await openDatabase(testConfig(), { onQuery: (sql) => queries.push(sql) });
  });

  afterAll(async () => {
    await db.close();
  });

  it('publishes its Property key and resolves a batch of parcels in one statement, in key order', async () => {
    const catalog = new ProvenanceCatalog(db);
    await catalog.get('sandbox', 'development-applications', 'VIC'); // credits are cached per process
    const subgraph = buildSubgraphs(db, catalog).development;
    const parcels = await db.query<{ parcel_pfi: string; state: string; n: number }>(
      `SELECT p.parcel_pfi, p.state, (SELECT count(*)::int FROM development.application a WHERE a.dataset = p.dataset
          AND a.state = p.state AND a.parcel_pfi = p.parcel_pfi) AS n
       FROM cadastre.parcel p WHERE p.dataset = 'sandbox' ORDER BY p.parcel_pfi LIMIT 40`,
    );
    const run = async (query: string, variables: Record<string, unknown> = {}) => {
      queries.length = 0;
      const result = await execute({
        schema: subgraph.schema,
        document: parse(query),
        variableValues: variables,
        contextValue: subgraph.createContext({ dataset: 'sandbox', requestId: 'test', scopes: '*' }),
      });
      expect(result.errors).toBeUndefined();
      return result.data as Record<string, unknown>;
    };
    const sdl = ((await run('{ _service { sdl } }'))._service as { sdl: string }).sdl;
    expect(sdl).toContain('@key(fields: "parcel_pfi state")');
    const reversed = [...parcels].reverse();
    const data = await run(
      `query($r: [_Any!]!) { _entities(representations: $r) {
        ... on Property { parcel_pfi development_applications { status data { parcel_pfi } } } } }`,
      { r: reversed.map((p) => ({ __typename: 'Property', parcel_pfi: p.parcel_pfi, state: p.state })) },
    );
    type Entity = { parcel_pfi: string; development_applications: { status: string; data: unknown[] | null } };
    const entities = data._entities as Entity[];
    expect(entities.map((e) => e.parcel_pfi)).toEqual(reversed.map((p) => p.parcel_pfi));
    expect(entities.map((e) => e.development_applications.data?.length ?? 0)).toEqual(reversed.map((p) => p.n));
    expect(entities.map((e) => e.development_applications.status)).toEqual(
      reversed.map((p) => (p.n > 0 ? 'ok' : 'no_data')),
    );
    expect(queries).toHaveLength(1);
  });
});
