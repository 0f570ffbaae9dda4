import { Prisma } from '../../generated/prisma/client.ts';

/** One census.profile row joined to its boundary, as the lookups return it. */
export type ProfileRow = {
  geography: 'SAL' | 'SA1';
  code: string;
  name: string;
  state: string;
  area_km2: number | null;
  population: number | null;
  males: number | null;
  females: number | null;
  age_groups: Record<string, number> | null;
  median_age: number | null;
  median_personal_income_weekly: number | null;
  median_family_income_weekly: number | null;
  median_household_income_weekly: number | null;
  median_rent_weekly: number | null;
  median_mortgage_monthly: number | null;
  average_household_size: number | null;
  average_persons_per_bedroom: number | null;
  families: Record<string, number | null> | null;
  households: Record<string, number | null> | null;
  dwellings: Record<string, number | null> | null;
  tenure: Record<string, number | null> | null;
  tables: string[];
};

/** The profile columns every lookup selects, `b` the boundary and `p` the profile. */
const PROFILE_JSON = `json_build_object(
  'geography', b.geography, 'code', b.code, 'name', b.name, 'state', b.state, 'area_km2', b.area_km2,
  'population', p.population, 'males', p.males, 'females', p.females, 'age_groups', p.age_groups,
  'median_age', p.median_age, 'median_personal_income_weekly', p.median_personal_income_weekly,
  'median_family_income_weekly', p.median_family_income_weekly,
  'median_household_income_weekly', p.median_household_income_weekly, 'median_rent_weekly', p.median_rent_weekly,
  'median_mortgage_monthly', p.median_mortgage_monthly, 'average_household_size', p.average_household_size,
  'average_persons_per_bedroom', p.average_persons_per_bedroom, 'families', p.families,
  'households', p.households, 'dwellings', p.dwellings, 'tenure', p.tenure, 'tables', p.tables)`;

/** What a point of a batch falls in: the SA1 and the SAL holding it, each with its figures, or null. */
export type AtPointRow = { i: number; sa1: ProfileRow | null; sal: ProfileRow | null };

/**
 * The SA1 and SAL of every point of a batch, in one statement through the boundary GiST index,
 * among the areas of the state asked about (as every point layer, a point is read in the state
 * named). A boundary without a profile row still answers (its figures null): the area is known,
 * the load held no figures for it.
 */
export const AREAS_AT_POINTS = (dataset: string, states: string[], lngs: number[], lats: number[]) => Prisma.sql`
  WITH k AS (
    SELECT (i - 1)::int AS i, state, ST_SetSRID(ST_MakePoint(lng, lat), 4326) AS geom
    FROM unnest(${states}::text[], ${lngs}::float8[], ${lats}::float8[]) WITH ORDINALITY AS u(state, lng, lat, i)
  )
  SELECT k.i,
    (SELECT ${Prisma.raw(PROFILE_JSON)} FROM census.boundary b
       LEFT JOIN census.profile p ON p.dataset = b.dataset AND p.geography = b.geography AND p.code = b.code
     WHERE b.dataset = ${dataset} AND b.geography = 'SA1' AND b.state = k.state AND ST_Intersects(b.geom, k.geom)
     ORDER BY b.code LIMIT 1) AS sa1,
    (SELECT ${Prisma.raw(PROFILE_JSON)} FROM census.boundary b
       LEFT JOIN census.profile p ON p.dataset = b.dataset AND p.geography = b.geography AND p.code = b.code
     WHERE b.dataset = ${dataset} AND b.geography = 'SAL' AND b.state = k.state AND ST_Intersects(b.geom, k.geom)
     ORDER BY b.code LIMIT 1) AS sal
  FROM k`;

/** Every SAL of a state whose name, suffix dropped, is the key asked for; the most populous first. */
export const SUBURB_PROFILES = (dataset: string, state: string, nameKey: string) => Prisma.sql`
  SELECT ${Prisma.raw(PROFILE_JSON)} AS profile
  FROM census.boundary b
  LEFT JOIN census.profile p ON p.dataset = b.dataset AND p.geography = b.geography AND p.code = b.code
  WHERE b.dataset = ${dataset} AND b.geography = 'SAL' AND b.state = ${state} AND b.name_key = ${nameKey}
  ORDER BY p.population DESC NULLS LAST, b.code`;

/** Every SAL of a state with its figures, for the suburb rollup (one statement per state). */
export const STATE_SUBURB_PROFILES = `SELECT ${PROFILE_JSON} AS profile, b.name_key
  FROM census.boundary b
  JOIN census.profile p ON p.dataset = b.dataset AND p.geography = b.geography AND p.code = b.code
  WHERE b.dataset = $1 AND b.geography = 'SAL' AND b.state = $2
  ORDER BY b.name_key, p.population DESC NULLS LAST, b.code`;

/** One SAL boundary of a batch of names, by the index of its key; null fields where none has the name. */
export type SalBoundaryRow = { i: number; code: string | null; name: string | null; geometry: unknown };

/**
 * The SAL boundary of every (state, name) of a batch in one statement: the SAL whose name, ABS
 * suffix dropped, is the key's (`keys`); one whose full name is the name asked (`fulls`) first,
 * then the most populous, as the suburb lookup orders them.
 */
export const SAL_BOUNDARIES = (dataset: string, states: string[], keys: string[], fulls: string[]) => Prisma.sql`
  SELECT (k.i - 1)::int AS i, b.code, b.name, ST_AsGeoJSON(b.geom, 7)::json AS geometry
  FROM unnest(${states}::text[], ${keys}::text[], ${fulls}::text[]) WITH ORDINALITY AS k(state, name_key, full_name, i)
  LEFT JOIN LATERAL (
    SELECT b.code, b.name, b.geom FROM census.boundary b
    LEFT JOIN census.profile p ON p.dataset = b.dataset AND p.geography = b.geography AND p.code = b.code
    WHERE b.dataset = ${dataset} AND b.geography = 'SAL' AND b.state = k.state AND b.name_key = k.name_key
      AND b.geom IS NOT NULL
    ORDER BY (upper(b.name) = k.full_name) DESC, p.population DESC NULLS LAST, b.code
    LIMIT 1
  ) b ON true
  ORDER BY k.i`;
