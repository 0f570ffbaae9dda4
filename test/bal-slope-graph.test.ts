import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../core/scopes.ts';
import { estimateBal } from '../subgraphs/hazards/bal.ts';
import type { GroundProfile } from '../subgraphs/hazards/slope.ts';
import { effectiveSlope } from '../subgraphs/hazards/slope.ts';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testRuntime } from './support/runtime.ts';

type Point = { lat: number; lng: number; state: string };
type Bal = {
  rating: string;
  vegetation_class: string;
  distance_m: number;
  effective_slope_deg: number;
  slope_direction: 'upslope' | 'flat' | 'downslope';
  slope_bearing_deg: number | null;
  slope_source: string | null;
  slope_band: string;
  note: string;
};

const BAL = `rating vegetation_class distance_m effective_slope_deg slope_direction slope_bearing_deg slope_source
  slope_band note`;

describe('the BAL effective slope on the property graph (terrain → hazards through @requires)', () => {
  let t: TestRuntime;
  const points: Record<string, Point> = {};

  const graphql = async (query: string, scopes?: Scope[]) => {
    const key = scopes ? await createTestKey(t.runtime, { scopes }) : t.key;
    return request(t.app).post('/graphql').set('Authorization', `Bearer ${key}`).send({ query });
  };
  const balOf = async (p: Point, scopes?: Scope[]) => {
    const res = await graphql(
      `{ p: propertyAt(lat: ${p.lat}, lng: ${p.lng}, state: "${p.state}") {
          hazards { status data { bushfire { coverage bal { ${BAL} } } } } } }`,
      scopes,
    );
    expect(res.body.errors).toBeUndefined();
    return res.body.data.p.hazards.data.bushfire.bal as Bal;
  };

  /** A point 40 m in from the middle of a suburb's forest edge, toward the suburb: found from the loaded rows. */
  async function nearForest(suburb: string, state: string): Promise<Point> {
    const [row] = await t.runtime.db.query<{ lat: number; lng: number }>(
      `WITH v AS (SELECT geom FROM hazards.vegetation
                  WHERE dataset = 'sandbox' AND state = $2 AND vegetation_class = 'forest'
                    AND id = lower(replace($1, ' ', '-')) || '-veg-1'),
            c AS (SELECT ST_Centroid(geom) AS g FROM cadastre.coverage WHERE dataset = 'sandbox' AND name = $1),
            e AS (SELECT ST_ClosestPoint(v.geom, c.g) AS edge, c.g FROM v, c)
       SELECT ST_Y(p) AS lat, ST_X(p) AS lng FROM (
         SELECT ST_Project(e.edge::geography, 40, ST_Azimuth(e.edge::geography, e.g::geography))::geometry AS p FROM e
       ) q`,
      [suburb, state],
    );
    if (!row) throw new Error(`No sandbox forest by ${suburb}`);
    return { lat: Number(row.lat), lng: Number(row.lng), state };
  }

  beforeAll(async () => {
    t = await testRuntime();
    points.parramatta = await nearForest('PARRAMATTA', 'NSW');
    points.chermside = await nearForest('CHERMSIDE', 'QLD');
  });

  it('rates the forest by Parramatta on the slope the NSW DEM gives under it, not as flat', async () => {
    const p = points.parramatta!;
    const res = await graphql(
      `{ p: propertyAt(lat: ${p.lat}, lng: ${p.lng}, state: "${p.state}") {
          ground_profile { status source data { step_m origin_m rays { bearing_deg heights_m } } }
          hazards { data { bushfire { bal { ${BAL} } } } } } }`,
    );
    expect(res.body.errors).toBeUndefined();
    const { ground_profile: ground, hazards } = res.body.data.p as {
      ground_profile: { status: string; source: string; data: GroundProfile };
      hazards: { data: { bushfire: { bal: Bal } } };
    };
    const bal = hazards.data.bushfire.bal;
    expect(ground.status).toBe('ok');
    expect(bal.vegetation_class).toBe('forest');
    expect(bal.distance_m).toBeCloseTo(40, 0);
    expect(bal.slope_source).toBe(ground.source);
    expect(bal.slope_source).toMatch(/^mirror:nsw\/terrain@sandbox-v11-/);
    // the slope the hazards layer rated on is the one the terrain's own profile gives along that bearing
    const measured = effectiveSlope(ground.data, bal.slope_bearing_deg, bal.distance_m)!;
    expect(bal).toMatchObject({
      effective_slope_deg: measured.degrees,
      slope_direction: measured.direction,
    });
    // the sandbox terrain is gentle (falls of 0.5-2 % with low rises): under a degree here, but not flat
    expect(bal.slope_direction).not.toBe('flat');
    expect(bal.effective_slope_deg).toBeGreaterThan(0);
    expect(bal.effective_slope_deg).toBeLessThan(5);
    expect(bal.note).toContain(
      `Effective slope from the terrain DEM along bearing ${bal.slope_bearing_deg}°: ` +
        `${bal.effective_slope_deg}° ${bal.slope_direction}`,
    );
    const rate = (slope_direction: Bal['slope_direction'], effective_slope_deg: number) =>
      estimateBal({ vegetation: 'forest', distance_m: bal.distance_m, effective_slope_deg, slope_direction, fdi: 100 })
        .rating;
    expect(bal.rating).toBe(rate(bal.slope_direction, bal.effective_slope_deg));
    // FDI 100 forest at about 40 m: BAL-19 on flat land or any upslope, BAL-29 on any downslope to 5°
    expect(bal.rating).toBe(bal.slope_direction === 'downslope' ? 'BAL-29' : 'BAL-19');
  });

  it('rates as flat and says so where the terrain has no DEM (Queensland)', async () => {
    const bal = await balOf(points.chermside!);
    expect(bal).toMatchObject({
      vegetation_class: 'forest',
      effective_slope_deg: 0,
      slope_direction: 'flat',
      slope_bearing_deg: null,
      slope_source: null,
    });
    expect(bal.note).toMatch(/not measured \(Terrain data does not cover QLD yet\): rated as flat land\./);
  });

  it('rates as flat by point (hazardsAt has no property to take the terrain from) and says so', async () => {
    const p = points.parramatta!;
    const res = await graphql(
      `{ hazardsAt(lat: ${p.lat}, lng: ${p.lng}, state: "${p.state}") { data { bushfire { bal { ${BAL} } } } } }`,
    );
    const bal = res.body.data.hazardsAt.data.bushfire.bal as Bal;
    expect(bal).toMatchObject({ slope_direction: 'flat', slope_source: null, rating: 'BAL-19' });
    expect(bal.note).toMatch(/no ground profile from the terrain/);
  });

  it('takes the slope for risk.read and risk.summary.read keys (test/scopes.test.ts refuses the profile to others)', async () => {
    for (const scope of ['risk.read', 'risk.summary.read'] as const) {
      const bal = await balOf(points.parramatta!, [scope]);
      expect(bal.slope_source).toMatch(/^mirror:nsw\/terrain@/);
      expect(bal.slope_direction).not.toBe('flat');
    }
  });
});
