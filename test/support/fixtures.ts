import type { Database } from '../../core/db.ts';

export type PointFixture = { lat: number; lng: number; state: string };
export type ParcelFixture = PointFixture & { parcel_pfi: string; gnaf_pid: string; address: string };

/**
 * Places in the loaded sandbox that show each behaviour, found by query rather than copied
 * from a response, so the tests follow the generator when it changes.
 */
export type Fixtures = {
  /** A VIC parcel with an address, zoned, inside every layer's coverage. */
  vicParcel: ParcelFixture;
  nswParcel: ParcelFixture;
  qldParcel: ParcelFixture;
  /** A parcel whose land the planning mirror does not reach. */
  planningNotCovered: ParcelFixture;
  /** A point inside the cadastre's coverage but on no parcel (a road reserve). */
  roadReserve: PointFixture;
  /** A point in VIC far from every sandbox suburb. */
  outsideCoverage: PointFixture;
  /** A window holding a handful of parcels, and one holding more than the feature limit. */
  smallWindow: { west: number; south: number; east: number; north: number; state: string };
  crowdedWindow: { west: number; south: number; east: number; north: number; state: string };
};

async function parcelWhere(db: Database, state: string, condition: string): Promise<ParcelFixture> {
  const [row] = await db.query<ParcelFixture>(
    `SELECT a.gnaf_pid, a.formatted_address AS address, p.parcel_pfi, p.state,
            ST_Y(ST_PointOnSurface(p.geom)) AS lat, ST_X(ST_PointOnSurface(p.geom)) AS lng
     FROM cadastre.parcel p
     JOIN address.address_detail a ON a.dataset = p.dataset AND a.state = p.state AND a.parcel_pfi = p.parcel_pfi
     WHERE p.dataset = 'sandbox' AND p.state = $1 AND a.flat_number IS NULL AND a.geocode_type = 'PC' AND ${condition}
     ORDER BY p.parcel_pfi LIMIT 1`,
    [state],
  );
  if (!row) throw new Error(`the sandbox has no ${state} parcel where ${condition}`);
  return row;
}

const ZONED = `EXISTS (SELECT 1 FROM planning.zone z WHERE z.dataset = p.dataset AND z.state = p.state
                 AND ST_Intersects(z.geom, ST_PointOnSurface(p.geom)))`;
const NOT_PLANNED = `NOT EXISTS (SELECT 1 FROM planning.coverage c WHERE c.dataset = p.dataset AND c.state = p.state
                 AND ST_Intersects(c.geom, ST_PointOnSurface(p.geom)))`;

export async function loadFixtures(db: Database): Promise<Fixtures> {
  const [vicParcel, nswParcel, qldParcel, planningNotCovered] = await Promise.all([
    parcelWhere(db, 'VIC', ZONED),
    parcelWhere(db, 'NSW', ZONED),
    parcelWhere(db, 'QLD', ZONED),
    parcelWhere(db, 'NSW', NOT_PLANNED),
  ]);
  const [roadReserve] = await db.query<PointFixture>(
    `WITH c AS (SELECT geom, state FROM cadastre.coverage WHERE dataset = 'sandbox' AND state = 'VIC' ORDER BY name LIMIT 1),
     grid AS (
       SELECT c.state, ST_SetSRID(ST_MakePoint(
                ST_XMin(c.geom) + (ST_XMax(c.geom) - ST_XMin(c.geom)) * gx / 40.0,
                ST_YMin(c.geom) + (ST_YMax(c.geom) - ST_YMin(c.geom)) * gy / 40.0), 4326) AS pt
       FROM c, generate_series(5, 35) gx, generate_series(5, 35) gy
     )
     SELECT ST_Y(pt) AS lat, ST_X(pt) AS lng, grid.state FROM grid, c
     WHERE ST_Intersects(c.geom, pt)
       AND NOT EXISTS (SELECT 1 FROM cadastre.parcel p WHERE p.dataset = 'sandbox' AND ST_Intersects(p.geom, pt))
     ORDER BY lat, lng LIMIT 1`,
  );
  if (!roadReserve) throw new Error('the sandbox has no road reserve inside the VIC cadastre coverage');
  const [crowded] = await db.query<{ west: number; south: number; east: number; north: number }>(
    `SELECT ST_XMin(e) AS west, ST_YMin(e) AS south, ST_XMin(e) + 0.0999 AS east, ST_YMin(e) + 0.0999 AS north
     FROM (SELECT ST_Extent(geom)::geometry AS e FROM cadastre.parcel WHERE dataset = 'sandbox' AND state = 'VIC') x`,
  );
  const d = 0.0008;
  return {
    vicParcel,
    nswParcel,
    qldParcel,
    planningNotCovered,
    roadReserve,
    outsideCoverage: { lat: -37.8136, lng: 144.9631, state: 'VIC' },
    smallWindow: {
      west: vicParcel.lng - d,
      south: vicParcel.lat - d,
      east: vicParcel.lng + d,
      north: vicParcel.lat + d,
      state: 'VIC',
    },
    crowdedWindow: { ...crowded!, state: 'VIC' },
  };
}
