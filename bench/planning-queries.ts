/**
 * The planning benchmark's requests, drawn from the benchmark database: residential lots (a
 * parcel whose interior point lies in a residential zone and that carries a parcel-grade
 * address), the same lots every run on the same data, each asked for by its point
 * (GET /v1/planning-provisions) and by its address's G-NAF line (GET /v1/envelope-by-address).
 */
import type { Database } from '../core/db.ts';
import { openDatabase } from '../core/db.ts';

export const PLANNING_ROUTES = ['provisions', 'envelope-by-address'] as const;
export type PlanningRouteName = (typeof PLANNING_ROUTES)[number];

export const ROUTE_PATH: Record<PlanningRouteName, string> = {
  provisions: '/v1/planning-provisions',
  'envelope-by-address': '/v1/envelope-by-address',
};

/** p50 targets at one connection, in milliseconds, on the dataset of TARGET_PARCELS parcels. */
export const P50_TARGET_MS: Record<PlanningRouteName, number> = { provisions: 15, 'envelope-by-address': 30 };
export const TARGET_PARCELS = 1_000_000;

/**
 * Zone families whose residential code each state's regime holds (subgraphs/planning/provisions:
 * ResCode's zones in VIC, the Housing Code's in NSW, the Brisbane and Moreton Bay residential
 * zones in QLD): a lot in one of them must get that code, never the conservative default.
 */
export const RESIDENTIAL_FAMILIES: Readonly<Record<string, readonly string[]>> = {
  VIC: ['GRZ', 'NRZ', 'RGZ', 'MUZ', 'TZ'],
  NSW: ['R1', 'R2', 'R3', 'R4', 'RU5'],
  QLD: ['LDR', 'LMR', 'CR', 'MDR', 'GRZ'],
};

/**
 * Smaller lots are left out: the NSW Housing Code does not apply below 200 m² (cl. 3.1), so the
 * conservative default is the right answer there. Applied in every state, so each samples the
 * same kind of lot.
 */
export const MIN_LOT_AREA_M2 = 200;

/** One sampled lot: its parcel, the point provisions are asked at, and the address the envelope is asked by. */
export type PlanningLot = {
  state: string;
  parcel_pfi: string;
  lat: number;
  lng: number;
  area_m2: number;
  zone_code: string;
  gnaf_pid: string;
  formatted_address: string;
};

export type PlanningQuery = { lot: PlanningLot; path: string };
/** The lots in request order, and each route's request for every lot, in the same order. */
export type PlanningQueries = {
  states: string[];
  lots: PlanningLot[];
  routes: Record<PlanningRouteName, PlanningQuery[]>;
};

const pathsFor: Record<PlanningRouteName, (lot: PlanningLot) => string> = {
  provisions: (lot) => `${ROUTE_PATH.provisions}?lat=${lot.lat}&lng=${lot.lng}`,
  'envelope-by-address': (lot) =>
    `${ROUTE_PATH['envelope-by-address']}?address=${encodeURIComponent(lot.formatted_address)}`,
};

/**
 * `count` lots of one state, by a seeded hash of the parcel key. The parcels are sorted by the
 * hash alone, then looked up one by one in that order (lateral subqueries under the LIMIT: the
 * final ORDER BY is the order the nested loops already give, so a million-parcel table is
 * sorted once and joined only until enough lots are found). The LIMIT 1 of the point's lookup
 * keeps the planner from turning it into a hash join, which would lose the hash order. The zone
 * is the one the planning subgraph reads at that point (the smallest polygon where published
 * zones overlap).
 */
const LOTS_OF_STATE = `
  SELECT p.state, p.parcel_pfi, ST_Y(s.pt) AS lat, ST_X(s.pt) AS lng, p.area_m2, z.zone_code,
         a.gnaf_pid, a.formatted_address
  FROM (
    SELECT p.dataset, p.state, p.parcel_pfi, p.area_m2, md5(p.state || ':' || p.parcel_pfi || ':' || $3::text) AS h
    FROM cadastre.parcel p
    WHERE p.dataset = 'sandbox' AND p.state = $1 AND p.area_m2 >= $2
    ORDER BY h
  ) p
  CROSS JOIN LATERAL (
    SELECT ST_PointOnSurface(g.geom) AS pt FROM cadastre.parcel g
    WHERE g.dataset = p.dataset AND g.state = p.state AND g.parcel_pfi = p.parcel_pfi
    LIMIT 1
  ) s
  CROSS JOIN LATERAL (
    SELECT z.zone_code, z.scheme_code FROM planning.zone z
    WHERE z.dataset = p.dataset AND z.state = p.state AND ST_Intersects(z.geom, s.pt)
    ORDER BY ST_Area(z.geom), z.id
    LIMIT 1
  ) z
  CROSS JOIN LATERAL (
    SELECT a.gnaf_pid, a.formatted_address FROM address.address_detail a
    WHERE a.dataset = p.dataset AND a.state = p.state AND a.parcel_pfi = p.parcel_pfi
      AND a.geocode_type IN ('PC', 'FCS') AND a.geom IS NOT NULL AND a.formatted_address IS NOT NULL
    ORDER BY md5(a.gnaf_pid || ':' || $3::text)
    LIMIT 1
  ) a
  WHERE z.scheme_code = ANY($4::text[])
  ORDER BY p.h
  LIMIT $5`;

async function sandboxStates(db: Database): Promise<string[]> {
  const rows = await db.query<{ state: string }>(
    `SELECT DISTINCT state FROM cadastre.parcel WHERE dataset = 'sandbox' ORDER BY state`,
  );
  return rows.map((r) => r.state);
}

async function lotsOfState(db: Database, state: string, count: number, seed: number): Promise<PlanningLot[]> {
  const families = RESIDENTIAL_FAMILIES[state];
  if (!families) throw new Error(`The planning benchmark knows no residential zones for ${state}.`);
  const rows = await db.query<PlanningLot>(LOTS_OF_STATE, [state, MIN_LOT_AREA_M2, String(seed), families, count]);
  if (rows.length === 0) throw new Error(`The benchmark database holds no residential ${state} lot with an address.`);
  return rows.map((r) => ({ ...r, lat: Number(r.lat), lng: Number(r.lng), area_m2: Number(r.area_m2) }));
}

/** The states' lots taken in turn, so consecutive requests move between states as real traffic would. */
function interleave<T>(groups: readonly T[][]): T[] {
  const longest = Math.max(0, ...groups.map((g) => g.length));
  return Array.from({ length: longest }, (_, i) => groups.flatMap((g) => (i < g.length ? [g[i] as T] : []))).flat();
}

/**
 * About `count` residential lots, an equal share from every state the sandbox holds (fewer where
 * a state has fewer), with the request each route is measured on.
 */
export async function planningQueries(url: string, count: number, seed: number): Promise<PlanningQueries> {
  const db = await openDatabase({ databaseUrl: url, dataDir: '.landgraph-bench' });
  try {
    const states = await sandboxStates(db);
    if (states.length === 0) throw new Error('The benchmark database holds no sandbox parcels.');
    const each = Math.ceil(count / states.length);
    const groups: PlanningLot[][] = [];
    for (const state of states) groups.push(await lotsOfState(db, state, each, seed));
    const lots = interleave(groups);
    const queriesOf = (route: PlanningRouteName) => lots.map((lot) => ({ lot, path: pathsFor[route](lot) }));
    return {
      states,
      lots,
      routes: { provisions: queriesOf('provisions'), 'envelope-by-address': queriesOf('envelope-by-address') },
    };
  } finally {
    await db.close();
  }
}
