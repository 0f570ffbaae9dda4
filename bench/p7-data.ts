/**
 * The P7 phase's own PostgreSQL database (`landgraph_bench_p7`): the default sandbox, then
 * 1,000,000 synthetic development applications and some 90,000 land-supply lots added to the
 * sandbox dataset in a few INSERT ... SELECT generate_series statements, then ANALYZE.
 *
 * The applications spread over 48 LGAs of VIC, NSW and QLD (real names, approximate centres,
 * codes in each state's style: the sandbox's own LGAs keep their codes), weighted by size, each
 * point drawn around its LGA's centre; `received_at` (the feed's order) runs over 2016 to
 * 2026, skewed to recent years, and is uncorrelated with the rows' physical order (the pessimistic
 * case for heap fetches); every status and category; a few unmatched ones without an LGA or a
 * point. The lots sit in estates of 150 (10 x 15 plots of 15 x 32 m, drawn boundaries) on a
 * 3 km grid around the growth LGAs, so a 1 km radius holds one or two estates (the lots-nearby
 * route refuses more than 500). Deterministic: `setseed` before each statement. Labelled
 * synthetic (source `bench`, attribution says so).
 */
import type { Database } from '../core/db.ts';
import { ensureDatabase, prepareBenchDatabase, withDatabase } from './database.ts';

export const P7_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/landgraph_bench_p7';

/** state, code, name, centre (lng, lat), spread in degrees, weight (relative DA count), growth (estates). */
type Lga = [string, string, string, number, number, number, number, number];

// prettier-ignore
export const P7_LGAS: readonly Lga[] = [
  ['VIC', '325', 'GREATER BENDIGO', 144.28, -36.76, 0.12, 3, 4],
  ['VIC', '300', 'MELBOURNE', 144.96, -37.81, 0.02, 5, 0],
  ['VIC', '313', 'CASEY', 145.3, -38.08, 0.06, 5, 6],
  ['VIC', '357', 'WYNDHAM', 144.63, -37.88, 0.07, 5, 6],
  ['VIC', '356', 'WHITTLESEA', 145.05, -37.6, 0.06, 4, 5],
  ['VIC', '327', 'HUME', 144.92, -37.6, 0.07, 4, 5],
  ['VIC', '334', 'MELTON', 144.6, -37.68, 0.07, 4, 6],
  ['VIC', '324', 'GREATER GEELONG', 144.36, -38.15, 0.1, 4, 5],
  ['VIC', '312', 'CARDINIA', 145.5, -38.05, 0.1, 3, 4],
  ['VIC', '336', 'MONASH', 145.14, -37.89, 0.04, 3, 0],
  ['VIC', '308', 'BOROONDARA', 145.06, -37.82, 0.03, 3, 0],
  ['VIC', '309', 'BRIMBANK', 144.8, -37.75, 0.04, 2, 0],
  ['VIC', '302', 'BALLARAT', 143.85, -37.56, 0.1, 2, 3],
  ['VIC', '347', 'SURF COAST', 144.1, -38.3, 0.12, 1, 1],
  ['VIC', '331', 'LATROBE', 146.4, -38.2, 0.15, 1, 1],
  ['VIC', '330', 'MITCHELL', 145.0, -37.2, 0.12, 1, 2],
  ['NSW', '16260', 'PARRAMATTA', 151.0, -33.81, 0.03, 4, 0],
  ['NSW', '17420', 'THE HILLS SHIRE', 150.98, -33.7, 0.05, 4, 3],
  ['NSW', '10750', 'BLACKTOWN', 150.88, -33.75, 0.05, 5, 5],
  ['NSW', '11570', 'CANTERBURY-BANKSTOWN', 151.05, -33.92, 0.04, 4, 0],
  ['NSW', '14900', 'LIVERPOOL', 150.87, -33.95, 0.06, 4, 4],
  ['NSW', '11500', 'CAMDEN', 150.7, -34.05, 0.06, 3, 5],
  ['NSW', '11450', 'CAMPBELLTOWN', 150.8, -34.07, 0.05, 3, 3],
  ['NSW', '16350', 'PENRITH', 150.7, -33.75, 0.07, 3, 3],
  ['NSW', '11650', 'CENTRAL COAST', 151.35, -33.35, 0.15, 4, 2],
  ['NSW', '17200', 'SYDNEY', 151.2, -33.88, 0.02, 4, 0],
  ['NSW', '15990', 'NORTHERN BEACHES', 151.28, -33.72, 0.06, 3, 0],
  ['NSW', '17150', 'SUTHERLAND SHIRE', 151.06, -34.04, 0.05, 3, 0],
  ['NSW', '15900', 'NEWCASTLE', 151.75, -32.93, 0.05, 2, 0],
  ['NSW', '14650', 'LAKE MACQUARIE', 151.6, -33.05, 0.1, 2, 2],
  ['NSW', '18450', 'WOLLONGONG', 150.88, -34.42, 0.07, 2, 1],
  ['NSW', '12380', 'CUMBERLAND', 150.98, -33.85, 0.03, 2, 0],
  ['NSW', '15050', 'MAITLAND', 151.55, -32.73, 0.08, 1, 3],
  ['QLD', '31000', 'BRISBANE', 153.02, -27.47, 0.1, 8, 2],
  ['QLD', '35010', 'MORETON BAY', 152.98, -27.2, 0.12, 4, 5],
  ['QLD', '33430', 'GOLD COAST', 153.38, -28.0, 0.12, 5, 4],
  ['QLD', '34590', 'LOGAN', 153.1, -27.7, 0.08, 3, 5],
  ['QLD', '33960', 'IPSWICH', 152.75, -27.62, 0.08, 3, 5],
  ['QLD', '36720', 'SUNSHINE COAST', 153.05, -26.65, 0.12, 4, 4],
  ['QLD', '36250', 'REDLAND', 153.25, -27.55, 0.06, 2, 1],
  ['QLD', '37010', 'TOWNSVILLE', 146.8, -19.28, 0.08, 2, 2],
  ['QLD', '32250', 'CAIRNS', 145.75, -16.92, 0.08, 2, 1],
  ['QLD', '36910', 'TOOWOOMBA', 151.95, -27.56, 0.1, 2, 2],
  ['QLD', '32080', 'BUNDABERG', 152.35, -24.87, 0.08, 1, 1],
  ['QLD', '34880', 'MACKAY', 149.18, -21.15, 0.08, 1, 1],
  ['QLD', '33360', 'FRASER COAST', 152.83, -25.3, 0.1, 1, 1],
  ['QLD', '33620', 'GYMPIE', 152.67, -26.19, 0.1, 1, 0],
  ['QLD', '36510', 'SCENIC RIM', 152.9, -27.95, 0.12, 1, 1],
];

export const LOTS_PER_ESTATE = 150;
const ESTATES_PER_GROWTH = 6;

const ATTRIBUTION = 'Landgraph benchmark: synthetic development applications generated for a load test. Not real data.';

const lgaValues = () =>
  P7_LGAS.map(
    ([state, code, name, lng, lat, spread, weight, growth]) =>
      `('${state}', '${code}', '${name.replace(/'/g, "''")}', ${lng}, ${lat}, ${spread}, ${weight}, ${growth})`,
  ).join(',\n    ');

/**
 * The applications: each LGA's share of `count` by weight (a cumulative range of u0), its point
 * a Gaussian draw around the centre (Box-Muller on u1, u2); received_at from 2016-01-01 over
 * almost eleven years, u3^0.6 putting more of them in recent years.
 */
const INSERT_APPLICATIONS = (count: number) => `
INSERT INTO development.application (dataset, source, authority, council_reference, state, lga_code, lga_name,
  suburb, address, description, category, status, lodged_date, decided_date, estimated_cost, dwellings_proposed,
  source_url, attribution, license, updated_at, received_at, geom)
WITH lga AS (
  SELECT *, sum(weight) OVER (ORDER BY code ROWS UNBOUNDED PRECEDING) - weight AS lo,
    sum(weight) OVER (ORDER BY code ROWS UNBOUNDED PRECEDING) AS hi, sum(weight) OVER () AS total
  FROM (VALUES
    ${lgaValues()}
  ) v(state, code, name, lng, lat, spread, weight, growth)
), draw AS (
  SELECT g, random() AS u0, random() AS u1, random() AS u2, random() AS u3, random() AS u4, random() AS u5,
    random() AS u6, random() AS u7
  FROM generate_series(1, ${count}) g
), placed AS (
  SELECT d.*, l.state, l.code, l.name,
    l.lng + l.spread * sqrt(-2 * ln(1 - d.u1)) * cos(2 * pi() * d.u2) AS x,
    l.lat + l.spread * sqrt(-2 * ln(1 - d.u1)) * sin(2 * pi() * d.u2) AS y,
    timestamptz '2016-01-01 00:00:00+00' + (power(d.u3, 0.6) * 3975) * interval '1 day' AS received,
    (ARRAY['lodged', 'under_assessment', 'under_assessment', 'approved', 'approved', 'approved', 'approved', 'approved',
      'approved', 'refused', 'withdrawn', 'determined', 'determined', 'determined'])[1 + floor(d.u4 * 14)::int] AS status,
    (ARRAY['dwelling', 'dwelling', 'dwelling', 'alterations', 'alterations', 'alterations', 'subdivision', 'subdivision',
      'demolition', 'commercial', 'industrial', 'other'])[1 + floor(d.u5 * 12)::int] AS category
  FROM draw d JOIN lga l ON d.u0 * l.total >= l.lo AND d.u0 * l.total < l.hi
)
SELECT 'sandbox', 'bench', p.name, 'BENCH/' || p.g, p.state,
  CASE WHEN p.u6 < 0.02 THEN NULL ELSE p.code END, CASE WHEN p.u6 < 0.02 THEN NULL ELSE p.name END,
  CASE WHEN p.u6 < 0.02 THEN NULL ELSE p.name || ' ' || (1 + floor(p.u7 * 20)::int) END,
  (1 + floor(p.u7 * 400)::int) || ' Bench Street',
  initcap(p.category) || ' application ' || p.g || ' (synthetic benchmark record)', p.category, p.status,
  (p.received - (30 + floor(p.u7 * 400)::int) * interval '1 day')::date,
  CASE WHEN p.status IN ('approved', 'refused', 'determined', 'withdrawn')
    THEN (p.received - floor(p.u7 * 20)::int * interval '1 day')::date END,
  CASE WHEN p.category = 'other' THEN NULL ELSE round((20000 + p.u7 * 2000000)::numeric, 0)::double precision END,
  CASE WHEN p.category IN ('dwelling', 'subdivision') THEN 1 + floor(p.u7 * 8)::int END,
  'https://bench.landgraph.invalid/da/' || p.g, '${ATTRIBUTION}', 'CC BY 4.0',
  p.received - floor(p.u7 * 172800) * interval '1 second', p.received,
  CASE WHEN p.u6 < 0.03 THEN NULL ELSE ST_SetSRID(ST_MakePoint(p.x, p.y), 4326) END
FROM placed p`;

/**
 * Estates on a 3 km grid (six per growth weight) starting 4 km east of each growth LGA's centre,
 * so none sits on the sandbox's own estates; statuses all three.
 */
const INSERT_ESTATES = `
INSERT INTO supply.estate (dataset, estate_id, name, developer, state, lga_code, lga_name, suburb, status, source,
  attribution, license, geom)
WITH lga AS (
  SELECT * FROM (VALUES
    ${lgaValues()}
  ) v(state, code, name, lng, lat, spread, weight, growth)
), site AS (
  SELECT l.*, k, (k % 8) AS col, (k / 8) AS row FROM lga l, generate_series(0, l.growth * ${ESTATES_PER_GROWTH} - 1) k
  WHERE l.growth > 0
)
SELECT 'sandbox', 'bench-' || s.code || '-' || s.k, 'Bench Estate ' || s.code || '-' || s.k,
  (ARRAY['Bench Land Co', 'Synthetic Communities', 'Loadtest Developments'])[1 + s.k % 3], s.state, s.code, s.name,
  s.name || ' ' || (1 + s.k % 5), (ARRAY['selling', 'selling', 'selling', 'sold_out', 'coming_soon'])[1 + s.k % 5],
  'bench', 'Landgraph benchmark: synthetic land supply generated for a load test. Not real data.', 'CC BY 4.0',
  ST_SetSRID(ST_MakePoint(s.lng + 0.04 + s.col * 0.03 / cos(radians(s.lat)), s.lat + s.row * 0.027), 4326)
FROM site s`;

/** Ten by fifteen lots per estate (not the coming-soon ones), 15 x 32 m each, every sales and title status. */
const INSERT_LOTS = `
INSERT INTO supply.lot (dataset, lot_id, estate_id, lot_number, state, suburb, asking_price, area_m2, frontage_m,
  depth_m, title_status, sales_status, aspect, aspect_source, listing_text, listed_week, updated_at, geom, boundary)
WITH plot AS (
  SELECT e.*, i, ST_X(e.geom) AS ex, ST_Y(e.geom) AS ey, 15 / (111320 * cos(radians(ST_Y(e.geom)))) AS dx,
    32 / 110574.0 AS dy, random() AS u
  FROM supply.estate e, generate_series(0, ${LOTS_PER_ESTATE - 1}) i
  WHERE e.dataset = 'sandbox' AND e.source = 'bench' AND e.status <> 'coming_soon'
), cell AS (
  SELECT p.*, p.ex + (p.i % 10 - 5) * p.dx AS x0, p.ey + (p.i / 10 - 7) * p.dy AS y0 FROM plot p
)
SELECT 'sandbox', c.estate_id || '-' || (c.i + 1), c.estate_id, (c.i + 1)::text, c.state, c.suburb,
  round((250000 + c.u * 400000)::numeric, -3)::double precision, 480, 15, 32,
  CASE WHEN c.i < 90 THEN 'titled' ELSE 'untitled' END,
  CASE WHEN c.status = 'sold_out' THEN 'sold'
    ELSE (ARRAY['available', 'available', 'available', 'under_offer', 'sold', 'sold', 'withdrawn'])[1 + floor(c.u * 7)::int] END,
  CASE WHEN (c.i / 10) % 2 = 0 THEN 'N' ELSE 'S' END, 'geometry', NULL, date '2025-10-27', now(),
  ST_SetSRID(ST_MakePoint(c.x0 + c.dx / 2, c.y0 + c.dy / 2), 4326),
  ST_MakeEnvelope(c.x0, c.y0, c.x0 + c.dx, c.y0 + c.dy, 4326)
FROM cell c`;

export type P7Facts = { applications: number; benchApplications: number; lots: number; estates: number; ms: number };

async function count(db: Database, sql: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(sql);
  return row?.n ?? 0;
}

/**
 * Makes the database hold the sandbox and `applications` bench DAs (reloaded when the count
 * differs), the bench estates and lots, and fresh statistics.
 */
export async function prepareP7Database(
  url: string,
  seed: number,
  applications: number,
  say: (line: string) => void,
): Promise<P7Facts> {
  const started = performance.now();
  await ensureDatabase(url);
  await prepareBenchDatabase(url, seed, undefined);
  return withDatabase(url, async (db) => {
    const bench = `FROM development.application WHERE dataset = 'sandbox' AND source = 'bench'`;
    if ((await count(db, `SELECT count(*)::int AS n ${bench}`)) !== applications) {
      say(`loading ${applications.toLocaleString('en-AU')} synthetic development applications (minutes)...`);
      await db.exec(`DELETE ${bench}`);
      // one script, so the seed and the draws share a connection
      await db.exec(`SELECT setseed(0.7007);\n${INSERT_APPLICATIONS(applications)}`);
    }
    if ((await count(db, `SELECT count(*)::int AS n FROM supply.estate WHERE source = 'bench'`)) === 0) {
      say('loading the synthetic estates and lots...');
      await db.exec(`SELECT setseed(0.7017);\n${INSERT_ESTATES};\n${INSERT_LOTS}`);
    }
    say('ANALYZE development.application, supply.estate, supply.lot');
    await db.exec('VACUUM ANALYZE development.application');
    await db.exec('ANALYZE supply.estate, supply.lot');
    const [facts] = await db.query<Omit<P7Facts, 'ms'>>(
      `SELECT (SELECT count(*)::int FROM development.application WHERE dataset = 'sandbox') AS applications,
        (SELECT count(*)::int ${bench}) AS "benchApplications",
        (SELECT count(*)::int FROM supply.lot WHERE dataset = 'sandbox') AS lots,
        (SELECT count(*)::int FROM supply.estate WHERE dataset = 'sandbox') AS estates`,
    );
    if (!facts) throw new Error('No answer from the P7 bench database.');
    return { ...facts, ms: performance.now() - started };
  });
}
