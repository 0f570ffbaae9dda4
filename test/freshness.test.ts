import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { fetchedToday, oldestFreshness } from '../core/layer.ts';
import { PROPERTY_LAYERS } from '../rest-facade/routes/property.ts';
import type { Fixtures } from './support/fixtures.ts';
import { loadFixtures } from './support/fixtures.ts';
import type { TestRuntime } from './support/runtime.ts';
import { testRuntime } from './support/runtime.ts';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

type Layer = { status: string; source: string | null; freshness: string | null };

describe('freshness: every layer dates the snapshot that answered', () => {
  let t: TestRuntime;
  let f: Fixtures;
  /** The day each sandbox snapshot was loaded into the mirror, by `<layer>:<state>`. */
  const loaded = new Map<string, string>();

  beforeAll(async () => {
    t = await testRuntime();
    f = await loadFixtures(t.runtime.db);
    const rows = await t.runtime.db.query<{ layer: string; state: string; day: string }>(
      `SELECT layer, state, to_char(loaded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day
       FROM public.dataset_source WHERE dataset = 'sandbox'`,
    );
    for (const r of rows) loaded.set(`${r.layer}:${r.state}`, r.day);
  });

  it('gives every layer of /v1/property/graph a freshness, a date on each ok layer', async () => {
    const res = await request(t.app)
      .get('/v1/property/graph')
      .query({ lat: f.vicParcel.lat, lng: f.vicParcel.lng })
      .set('Authorization', `Bearer ${t.key}`)
      .expect(200);
    const layers = res.body.layers as Record<string, Layer>;
    expect(Object.keys(layers).sort()).toEqual(PROPERTY_LAYERS.map((l) => l.name).sort());
    const ok = Object.entries(layers).filter(([, layer]) => layer.status === 'ok');
    // the VIC sample parcel has every layer but the ones the sandbox leaves out on purpose
    expect(ok.map(([name]) => name)).toEqual(expect.arrayContaining(['cadastre', 'planning', 'terrain', 'roads']));
    for (const [name, layer] of Object.entries(layers)) {
      expect(layer, name).toHaveProperty('freshness');
      if (layer.status === 'ok') expect(layer.freshness, name).toMatch(DATE);
    }
    // layers whose tables do not date their rows take the day their mirror snapshot was loaded
    for (const name of ['cadastre', 'planning', 'terrain', 'roads'] as const) {
      expect(layers[name]!.freshness, name).toBe(loaded.get(`${name}:VIC`));
    }
    // a product built on several snapshots is as fresh as the oldest of them
    if (layers.provisions?.status === 'ok') {
      expect(layers.provisions.freshness).toBe(oldestFreshness([loaded.get('planning:VIC'), loaded.get('roads:VIC')]));
    }
  });

  it('reports freshness on the graph layers of cadastre, address, planning, roads and terrain', async () => {
    const res = await request(t.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${t.key}`)
      .send({
        query: `{ p: propertyAt(lat: ${f.vicParcel.lat}, lng: ${f.vicParcel.lng}, state: "VIC") {
          address { status freshness } cadastre { status freshness } planning { status freshness }
          roads { status freshness } road_lines { status freshness } terrain { status freshness }
          climate_zone { status freshness } ugb { status freshness } ground_profile { status freshness } } }`,
      });
    expect(res.body.errors).toBeUndefined();
    const p = res.body.data.p as Record<string, Layer>;
    for (const [name, layer] of Object.entries(p)) {
      if (layer.status === 'ok') expect(layer.freshness, name).toMatch(DATE);
    }
    expect(p.address!.freshness).toBe(loaded.get('address:VIC'));
    expect(p.cadastre!.freshness).toBe(loaded.get('cadastre:VIC'));
    expect(p.ground_profile!.freshness).toBe(loaded.get('terrain:VIC'));
  });

  it('dates the snapshot a layer names as its source, and nothing where it names none', async () => {
    const far = await request(t.app)
      .get('/v1/property/graph')
      .query(f.outsideCoverage)
      .set('Authorization', `Bearer ${t.key}`)
      .expect(200);
    // the VIC cadastre snapshot was checked and does not reach the point: that snapshot is dated
    expect(far.body.layers.cadastre).toMatchObject({
      status: 'not_covered',
      source: expect.stringMatching(/^mirror:vic\/cadastre@/),
      freshness: loaded.get('cadastre:VIC'),
    });
    // Queensland has no terrain model at all: no source, no date
    const qld = await request(t.app)
      .get('/v1/property/graph')
      .query({ lat: f.qldParcel.lat, lng: f.qldParcel.lng, state: 'QLD' })
      .set('Authorization', `Bearer ${t.key}`)
      .expect(200);
    expect(qld.body.layers.terrain).toMatchObject({ status: 'not_covered', source: null, freshness: null });
    for (const [name, layer] of Object.entries(qld.body.layers as Record<string, Layer>)) {
      if (layer.source === null) expect(layer.freshness, name).toBeNull();
    }
  });

  it('dates a live answer by the day it was read, and picks the oldest of several snapshots', () => {
    expect(fetchedToday(new Date('2026-03-04T23:59:59Z'))).toBe('2026-03-04');
    expect(oldestFreshness(['2025-09-01', null, '2025-07-15', undefined])).toBe('2025-07-15');
    expect(oldestFreshness([null])).toBeNull();
  });
});
