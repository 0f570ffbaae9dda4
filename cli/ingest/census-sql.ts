/**
 * Statements of the Census ingests. $1 is always the dataset and $2 the geography (SAL or SA1);
 * a batch travels as one array per column (see planning-sql.ts).
 */

/** Upserts a batch of profiles: a rerun replaces the figures of each area it holds. */
export const UPSERT_PROFILES = `INSERT INTO census.profile (dataset, geography, code, state, population, males, females,
  age_groups, median_age, median_personal_income_weekly, median_family_income_weekly, median_household_income_weekly,
  median_rent_weekly, median_mortgage_monthly, average_household_size, average_persons_per_bedroom, families,
  households, dwellings, tenure, tables)
SELECT $1::text, $2::text, t.code, t.state, t.population, t.males, t.females, t.age_groups::jsonb, t.median_age,
  t.personal, t.family, t.household, t.rent, t.mortgage, t.hh_size, t.per_bedroom, t.families::jsonb,
  t.households::jsonb, t.dwellings::jsonb, t.tenure::jsonb, string_to_array(t.tables, ',')
FROM unnest($3::text[], $4::text[], $5::int[], $6::int[], $7::int[], $8::text[], $9::float8[], $10::float8[],
  $11::float8[], $12::float8[], $13::float8[], $14::float8[], $15::float8[], $16::float8[], $17::text[], $18::text[],
  $19::text[], $20::text[], $21::text[])
  AS t(code, state, population, males, females, age_groups, median_age, personal, family, household, rent, mortgage,
       hh_size, per_bedroom, families, households, dwellings, tenure, tables)
ON CONFLICT (dataset, geography, code) DO UPDATE SET state = EXCLUDED.state, population = EXCLUDED.population,
  males = EXCLUDED.males, females = EXCLUDED.females, age_groups = EXCLUDED.age_groups,
  median_age = EXCLUDED.median_age, median_personal_income_weekly = EXCLUDED.median_personal_income_weekly,
  median_family_income_weekly = EXCLUDED.median_family_income_weekly,
  median_household_income_weekly = EXCLUDED.median_household_income_weekly,
  median_rent_weekly = EXCLUDED.median_rent_weekly, median_mortgage_monthly = EXCLUDED.median_mortgage_monthly,
  average_household_size = EXCLUDED.average_household_size,
  average_persons_per_bedroom = EXCLUDED.average_persons_per_bedroom, families = EXCLUDED.families,
  households = EXCLUDED.households, dwellings = EXCLUDED.dwellings, tenure = EXCLUDED.tenure, tables = EXCLUDED.tables`;

// As in planning-sql.ts: a valid polygon is kept, an invalid one mended to its polygons only.
const MENDED = `CASE WHEN (validity).valid THEN ST_Multi(raw)
    ELSE ST_Multi(ST_CollectionExtract(ST_MakeValid(raw), 3)) END`;

/**
 * Upserts a batch of boundaries and answers per input row whether its geometry was valid, why
 * not, and whether anything usable was left to write.
 */
export const UPSERT_BOUNDARIES = `WITH input AS (
  SELECT t.seq, t.code, t.name, t.name_key, t.state, t.area_km2, ST_SetSRID(ST_GeomFromGeoJSON(t.geometry), 4326) AS raw
  FROM unnest($3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::float8[], $9::text[])
    AS t(seq, code, name, name_key, state, area_km2, geometry)
), checked AS (
  SELECT input.*, ST_IsValidDetail(raw) AS validity FROM input
), mended AS (
  SELECT checked.*, ${MENDED} AS geom FROM checked
), written AS (
  INSERT INTO census.boundary (dataset, geography, code, name, name_key, state, area_km2, geom)
  SELECT $1::text, $2::text, code, name, name_key, state, area_km2, geom FROM mended WHERE NOT ST_IsEmpty(geom)
  ON CONFLICT (dataset, geography, code) DO UPDATE SET name = EXCLUDED.name, name_key = EXCLUDED.name_key,
    state = EXCLUDED.state, area_km2 = EXCLUDED.area_km2, geom = EXCLUDED.geom
  RETURNING 1
)
SELECT seq, (validity).valid AS valid, (validity).reason AS reason, NOT ST_IsEmpty(geom) AS usable
FROM mended ORDER BY seq`;

export type BoundaryBatchOutcome = { seq: number; valid: boolean; reason: string | null; usable: boolean };

export const ANALYZE_CENSUS_TABLES = 'ANALYZE census.boundary, census.profile';
