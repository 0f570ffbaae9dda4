/**
 * Bulk writes for the sandbox tables. Each batch is one statement: the rows travel as one
 * array per column and `unnest` turns them back into rows, so a batch of thousands costs one
 * round trip and one parse whatever its size. Values are always bound, never spliced.
 */
import type { SandboxTable, SandboxTables } from './rows.ts';
import { DELETE_MARKET } from './market.ts';

export interface Writer<R> {
  readonly sql: string;
  /** Column arrays for $2 onward; $1 is always the dataset. */
  params(rows: readonly R[]): unknown[];
}

const columns = <R>(rows: readonly R[], ...picks: Array<(row: R) => unknown>): unknown[] =>
  picks.map((pick) => rows.map(pick));

const polygon = 'ST_Multi(ST_GeomFromText(t.wkt, 4326))';

const coverage = (table: string): Writer<SandboxTables['cadastre_coverage']> => ({
  sql: `INSERT INTO ${table} (dataset, state, name, geom)
SELECT $1::text, t.state, t.name, ${polygon}
FROM unnest($2::text[], $3::text[], $4::text[]) AS t(state, name, wkt)`,
  params: (rows) =>
    columns(
      rows,
      (r) => r.state,
      (r) => r.name,
      (r) => r.wkt,
    ),
});

/** Zones and overlays share the Vicmap Planning layout; only their code columns are named apart. */
function planningPolygons<
  Row extends { id: string; state: string; scheme_code: string; lga_code: string; lga_name: string; wkt: string },
>(table: string, kind: 'zone' | 'overlay', codeAndDescription: (row: Row) => [string, string]): Writer<Row> {
  return {
    sql: `INSERT INTO ${table} (dataset, id, state, scheme_code, ${kind}_code, ${kind}_description, lga_code, lga_name, geom)
SELECT $1::text, t.id, t.state, t.scheme_code, t.code, t.description, t.lga_code, t.lga_name, ${polygon}
FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
  AS t(id, state, scheme_code, code, description, lga_code, lga_name, wkt)`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.id,
        (r) => r.state,
        (r) => r.scheme_code,
        (r) => codeAndDescription(r)[0],
        (r) => codeAndDescription(r)[1],
        (r) => r.lga_code,
        (r) => r.lga_name,
        (r) => r.wkt,
      ),
  };
}

export const WRITERS: { [T in SandboxTable]: Writer<SandboxTables[T]> } = {
  state: {
    sql: `INSERT INTO address.state (dataset, state_pid, state_name, state_abbreviation)
SELECT $1::text, t.* FROM unnest($2::text[], $3::text[], $4::text[]) AS t`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.state_pid,
        (r) => r.state_name,
        (r) => r.state_abbreviation,
      ),
  },
  locality: {
    sql: `INSERT INTO address.locality (dataset, locality_pid, locality_name, state, state_pid, postcode,
  locality_class_code, lga_code, lga_name)
SELECT $1::text, t.*
FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[]) AS t`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.locality_pid,
        (r) => r.locality_name,
        (r) => r.state,
        (r) => r.state_pid,
        (r) => r.postcode,
        (r) => r.locality_class_code,
        (r) => r.lga_code,
        (r) => r.lga_name,
      ),
  },
  street_locality: {
    sql: `INSERT INTO address.street_locality (dataset, street_locality_pid, locality_pid, street_name, street_type_code,
  street_suffix_code, street_class_code)
SELECT $1::text, t.* FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS t`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.street_locality_pid,
        (r) => r.locality_pid,
        (r) => r.street_name,
        (r) => r.street_type_code,
        (r) => r.street_suffix_code,
        (r) => r.street_class_code,
      ),
  },
  // Each address's default geocode goes into G-NAF's own table in the same statement, from the
  // rows just inserted: no second copy of the points travels, and the work overlaps generation.
  // Its pid is the address's with GADG for GA (GAVIC412345678 gives GADGVIC412345678):
  // deterministic, and unique as the address pids are.
  address_detail: {
    sql: `WITH detail AS (
INSERT INTO address.address_detail (dataset, gnaf_pid, street_locality_pid, locality_pid, state, postcode,
  flat_type_code, flat_number, level_type_code, level_number, number_first, number_last, lot_number, alias_principal,
  legal_parcel_id, confidence, level_geocoded_code, formatted_address, search_key, geocode_type, geom, parcel_pfi)
SELECT $1::text, t.gnaf_pid, t.street_locality_pid, t.locality_pid, t.state, t.postcode,
  t.flat_type_code, t.flat_number, t.level_type_code, t.level_number, t.number_first, t.number_last, t.lot_number,
  t.alias_principal, t.legal_parcel_id, t.confidence, t.level_geocoded_code, t.formatted_address, t.search_key,
  t.geocode_type, ST_SetSRID(ST_MakePoint(t.lng, t.lat), 4326), t.parcel_pfi
FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int4[], $9::text[], $10::int4[],
  $11::int4[], $12::int4[], $13::text[], $14::text[], $15::text[], $16::int4[], $17::int4[], $18::text[], $19::text[],
  $20::text[], $21::float8[], $22::float8[], $23::text[])
  AS t(gnaf_pid, street_locality_pid, locality_pid, state, postcode, flat_type_code, flat_number, level_type_code,
  level_number, number_first, number_last, lot_number, alias_principal, legal_parcel_id, confidence,
  level_geocoded_code, formatted_address, search_key, geocode_type, lng, lat, parcel_pfi)
RETURNING dataset, gnaf_pid, geocode_type, geom)
INSERT INTO address.address_default_geocode
  (dataset, address_default_geocode_pid, address_detail_pid, geocode_type_code, geom)
SELECT dataset, 'GADG' || substr(gnaf_pid, 3), gnaf_pid, geocode_type, geom FROM detail`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.gnaf_pid,
        (r) => r.street_locality_pid,
        (r) => r.locality_pid,
        (r) => r.state,
        (r) => r.postcode,
        (r) => r.flat_type_code,
        (r) => r.flat_number,
        (r) => r.level_type_code,
        (r) => r.level_number,
        (r) => r.number_first,
        (r) => r.number_last,
        (r) => r.lot_number,
        (r) => r.alias_principal,
        (r) => r.legal_parcel_id,
        (r) => r.confidence,
        (r) => r.level_geocoded_code,
        (r) => r.formatted_address,
        (r) => r.search_key,
        (r) => r.geocode_type,
        (r) => r.lng,
        (r) => r.lat,
        (r) => r.parcel_pfi,
      ),
  },
  parcel: {
    sql: `INSERT INTO cadastre.parcel (dataset, state, parcel_pfi, parcel_spi, parcel_lot_number, parcel_plan_number,
  ezi_address, area_m2, geom)
SELECT $1::text, t.state, t.parcel_pfi, t.parcel_spi, t.lot, t.plan, t.ezi_address, t.area_m2, ${polygon}
FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::float8[], $9::text[])
  AS t(state, parcel_pfi, parcel_spi, lot, plan, ezi_address, area_m2, wkt)`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.state,
        (r) => r.parcel_pfi,
        (r) => r.parcel_spi,
        (r) => r.parcel_lot_number,
        (r) => r.parcel_plan_number,
        (r) => r.ezi_address,
        (r) => r.area_m2,
        (r) => r.wkt,
      ),
  },
  cadastre_coverage: coverage('cadastre.coverage'),
  zone: planningPolygons('planning.zone', 'zone', (r) => [r.zone_code, r.zone_description]),
  overlay: planningPolygons('planning.overlay', 'overlay', (r) => [r.overlay_code, r.overlay_description]),
  planning_coverage: coverage('planning.coverage'),
  road: {
    sql: `INSERT INTO roads.centreline (dataset, id, state, road_name, road_class, geom)
SELECT $1::text, t.id, t.state, t.road_name, t.road_class, ST_GeomFromText(t.wkt, 4326)
FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS t(id, state, road_name, road_class, wkt)`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.id,
        (r) => r.state,
        (r) => r.road_name,
        (r) => r.road_class,
        (r) => r.wkt,
      ),
  },
  ugb: {
    sql: `INSERT INTO planning.ugb (dataset, id, state, lga_code, lga_name, gaic_applies, geom)
SELECT $1::text, t.id, t.state, t.lga_code, t.lga_name, t.gaic_applies, ${polygon}
FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::bool[], $7::text[])
  AS t(id, state, lga_code, lga_name, gaic_applies, wkt)`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.id,
        (r) => r.state,
        (r) => r.lga_code,
        (r) => r.lga_name,
        (r) => r.gaic_applies,
        (r) => r.wkt,
      ),
  },
  climate_zone: {
    sql: `INSERT INTO planning.climate_zone (dataset, id, state, climate_zone, geom)
SELECT $1::text, t.id, t.state, t.climate_zone, ${polygon}
FROM unnest($2::text[], $3::text[], $4::int4[], $5::text[]) AS t(id, state, climate_zone, wkt)`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.id,
        (r) => r.state,
        (r) => r.climate_zone,
        (r) => r.wkt,
      ),
  },
  // unnest would flatten an array of height arrays into one list, so each tile's heights travel
  // as one array literal ('{190.25,190.3,...}') and are cast back per row.
  dem_tile: {
    sql: `INSERT INTO terrain.dem_tile (dataset, state, tile_id, west, north, cell_lng, cell_lat, cols, rows, heights,
  extent)
SELECT $1::text, t.state, t.tile_id, t.west, t.north, t.cell_lng, t.cell_lat, t.cols, t.rows, t.heights::float8[],
  ST_GeomFromText(t.wkt, 4326)
FROM unnest($2::text[], $3::text[], $4::float8[], $5::float8[], $6::float8[], $7::float8[], $8::int4[], $9::int4[],
  $10::text[], $11::text[]) AS t(state, tile_id, west, north, cell_lng, cell_lat, cols, rows, heights, wkt)`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.state,
        (r) => r.tile_id,
        (r) => r.west,
        (r) => r.north,
        (r) => r.cell_lng,
        (r) => r.cell_lat,
        (r) => r.cols,
        (r) => r.rows,
        (r) => `{${r.heights.join(',')}}`,
        (r) => r.wkt,
      ),
  },
  soil_polygon: {
    sql: `INSERT INTO soil.polygon (dataset, id, state, clay_percent, depth_m, reactivity, source, source_date, geom)
SELECT $1::text, t.id, t.state, t.clay_percent, t.depth_m, t.reactivity, t.source, t.source_date::date, ${polygon}
FROM unnest($2::text[], $3::text[], $4::float8[], $5::float8[], $6::text[], $7::text[], $8::text[], $9::text[])
  AS t(id, state, clay_percent, depth_m, reactivity, source, source_date, wkt)`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.id,
        (r) => r.state,
        (r) => r.clay_percent,
        (r) => r.depth_m,
        (r) => r.reactivity,
        (r) => r.source,
        (r) => r.source_date,
        (r) => r.wkt,
      ),
  },
  soil_coverage: coverage('soil.coverage'),
  easement: {
    sql: `INSERT INTO land.easement (dataset, id, state, parcel_pfi, easement_type, width_m, plan_number, geom)
SELECT $1::text, t.id, t.state, t.parcel_pfi, t.easement_type, t.width_m, t.plan_number, ${polygon}
FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::float8[], $7::text[], $8::text[])
  AS t(id, state, parcel_pfi, easement_type, width_m, plan_number, wkt)`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.id,
        (r) => r.state,
        (r) => r.parcel_pfi,
        (r) => r.easement_type,
        (r) => r.width_m,
        (r) => r.plan_number,
        (r) => r.wkt,
      ),
  },
  building_footprint: {
    sql: `INSERT INTO land.building_footprint (dataset, id, state, source, height_m, storeys, geom)
SELECT $1::text, t.id, t.state, t.source, t.height_m, t.storeys, ${polygon}
FROM unnest($2::text[], $3::text[], $4::text[], $5::float8[], $6::int4[], $7::text[])
  AS t(id, state, source, height_m, storeys, wkt)`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.id,
        (r) => r.state,
        (r) => r.source,
        (r) => r.height_m,
        (r) => r.storeys,
        (r) => r.wkt,
      ),
  },
  land_value: {
    sql: `INSERT INTO land.land_value (dataset, state, parcel_pfi, site_value, capital_improved_value, base_date, valuer)
SELECT $1::text, t.state, t.parcel_pfi, t.site_value, t.civ, t.base_date::date, t.valuer
FROM unnest($2::text[], $3::text[], $4::float8[], $5::float8[], $6::text[], $7::text[])
  AS t(state, parcel_pfi, site_value, civ, base_date, valuer)`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.state,
        (r) => r.parcel_pfi,
        (r) => r.site_value,
        (r) => r.capital_improved_value,
        (r) => r.base_date,
        (r) => r.valuer,
      ),
  },
  land_coverage: {
    sql: `INSERT INTO land.coverage (dataset, layer, state, name, snapshot_date, geom)
SELECT $1::text, t.layer, t.state, t.name, t.snapshot_date::date, ${polygon}
FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS t(layer, state, name, snapshot_date, wkt)`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.layer,
        (r) => r.state,
        (r) => r.name,
        (r) => r.snapshot_date,
        (r) => r.wkt,
      ),
  },
  hazard_overlay: {
    sql: `INSERT INTO hazards.overlay (dataset, id, state, kind, code, description, severity, source_name, snapshot_date,
  geom)
SELECT $1::text, t.id, t.state, t.kind, t.code, t.description, t.severity, t.source_name, t.snapshot_date::date, ${polygon}
FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])
  AS t(id, state, kind, code, description, severity, source_name, snapshot_date, wkt)`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.id,
        (r) => r.state,
        (r) => r.kind,
        (r) => r.code,
        (r) => r.description,
        (r) => r.severity,
        (r) => r.source_name,
        (r) => r.snapshot_date,
        (r) => r.wkt,
      ),
  },
  contamination_site: {
    sql: `INSERT INTO hazards.contamination_site (dataset, id, state, name, status, register, snapshot_date, geom)
SELECT $1::text, t.id, t.state, t.name, t.status, t.register, t.snapshot_date::date,
  ST_SetSRID(ST_MakePoint(t.lng, t.lat), 4326)
FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::float8[], $9::float8[])
  AS t(id, state, name, status, register, snapshot_date, lng, lat)`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.id,
        (r) => r.state,
        (r) => r.name,
        (r) => r.status,
        (r) => r.register,
        (r) => r.snapshot_date,
        (r) => r.lng,
        (r) => r.lat,
      ),
  },
  vegetation: {
    sql: `INSERT INTO hazards.vegetation (dataset, id, state, vegetation_class, geom)
SELECT $1::text, t.id, t.state, t.vegetation_class, ${polygon}
FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS t(id, state, vegetation_class, wkt)`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.id,
        (r) => r.state,
        (r) => r.vegetation_class,
        (r) => r.wkt,
      ),
  },
  hazard_coverage: {
    sql: `INSERT INTO hazards.coverage (dataset, state, kind, name, snapshot_date, geom)
SELECT $1::text, t.state, t.kind, t.name, t.snapshot_date::date, ${polygon}
FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS t(state, kind, name, snapshot_date, wkt)`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.state,
        (r) => r.kind,
        (r) => r.name,
        (r) => r.snapshot_date,
        (r) => r.wkt,
      ),
  },
  development_application: {
    sql: `INSERT INTO development.application (dataset, source, authority, council_reference, state, lga_code, lga_name,
  suburb, address, gnaf_pid, parcel_pfi, description, category, status, lodged_date, decided_date, estimated_cost,
  dwellings_proposed, source_url, attribution, license, updated_at, received_at, geom)
SELECT $1::text, t.source, t.authority, t.council_reference, t.state, t.lga_code, t.lga_name, t.suburb, t.address,
  t.gnaf_pid, t.parcel_pfi, t.description, t.category, t.status, t.lodged_date::date, t.decided_date::date,
  t.estimated_cost, t.dwellings_proposed, t.source_url, t.attribution, 'CC BY 4.0', t.updated_at::timestamptz,
  t.updated_at::timestamptz, ST_SetSRID(ST_MakePoint(t.lng, t.lat), 4326)
FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[],
  $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::float8[], $18::int4[], $19::text[],
  $20::text[], $21::text[], $22::float8[], $23::float8[])
  AS t(source, authority, council_reference, state, lga_code, lga_name, suburb, address, gnaf_pid, parcel_pfi,
    description, category, status, lodged_date, decided_date, estimated_cost, dwellings_proposed, source_url,
    attribution, updated_at, lng, lat)`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.source,
        (r) => r.authority,
        (r) => r.council_reference,
        (r) => r.state,
        (r) => r.lga_code,
        (r) => r.lga_name,
        (r) => r.suburb,
        (r) => r.address,
        (r) => r.gnaf_pid,
        (r) => r.parcel_pfi,
        (r) => r.description,
        (r) => r.category,
        (r) => r.status,
        (r) => r.lodged_date,
        (r) => r.decided_date,
        (r) => r.estimated_cost,
        (r) => r.dwellings_proposed,
        (r) => r.source_url,
        (r) => r.attribution,
        (r) => r.updated_at,
        (r) => r.lng,
        (r) => r.lat,
      ),
  },
  spear_application: {
    // the touched PFIs travel as one comma-joined text per row (unnest cannot take an array of arrays of uneven length)
    sql: `INSERT INTO development.spear_application (dataset, source, spear_reference, application_type,
  responsible_authority, council_reference, lga_code, status, description, lodged_date, decided_date, parcel_pfis,
  address, source_url, attribution, license, updated_at, received_at, geom)
SELECT $1::text, t.source, t.spear_reference, t.application_type, t.responsible_authority, t.council_reference,
  t.lga_code, t.status, t.description, t.lodged_date::date, t.decided_date::date, string_to_array(t.pfis, ','),
  t.address, t.source_url, t.attribution, 'CC BY 4.0', t.updated_at::timestamptz, t.updated_at::timestamptz,
  ST_SetSRID(ST_MakePoint(t.lng, t.lat), 4326)
FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
  $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::float8[], $18::float8[])
  AS t(source, spear_reference, application_type, responsible_authority, council_reference, lga_code, status,
    description, lodged_date, decided_date, pfis, address, source_url, attribution, updated_at, lng, lat)`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.source,
        (r) => r.spear_reference,
        (r) => r.application_type,
        (r) => r.responsible_authority,
        (r) => r.council_reference,
        (r) => r.lga_code,
        (r) => r.status,
        (r) => r.description,
        (r) => r.lodged_date,
        (r) => r.decided_date,
        (r) => r.parcel_pfis.join(','),
        (r) => r.address,
        (r) => r.source_url,
        (r) => r.attribution,
        (r) => r.updated_at,
        (r) => r.lng,
        (r) => r.lat,
      ),
  },
  supply_estate: {
    sql: `INSERT INTO supply.estate (dataset, estate_id, name, developer, state, lga_code, lga_name, suburb, status,
  source, attribution, license, geom)
SELECT $1::text, t.estate_id, t.name, t.developer, t.state, t.lga_code, t.lga_name, t.suburb, t.status, 'sandbox',
  t.attribution, 'CC BY 4.0', ST_SetSRID(ST_MakePoint(t.lng, t.lat), 4326)
FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
  $10::text[], $11::float8[], $12::float8[])
  AS t(estate_id, name, developer, state, lga_code, lga_name, suburb, status, attribution, lng, lat)`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.estate_id,
        (r) => r.name,
        (r) => r.developer,
        (r) => r.state,
        (r) => r.lga_code,
        (r) => r.lga_name,
        (r) => r.suburb,
        (r) => r.status,
        (r) => r.attribution,
        (r) => r.lng,
        (r) => r.lat,
      ),
  },
  supply_lot: {
    sql: `INSERT INTO supply.lot (dataset, lot_id, estate_id, lot_number, state, suburb, asking_price, area_m2,
  frontage_m, depth_m, title_status, sales_status, aspect, aspect_source, listing_text, listed_week, updated_at, geom,
  boundary, frontage_edge)
SELECT $1::text, t.lot_id, t.estate_id, t.lot_number, t.state, t.suburb, t.asking_price, t.area_m2, t.frontage_m,
  t.depth_m, t.title_status, t.sales_status, t.aspect, t.aspect_source, t.listing_text, t.listed_week::date,
  t.updated_at::timestamptz, ST_SetSRID(ST_MakePoint(t.lng, t.lat), 4326),
  ST_GeomFromText(t.boundary, 4326), ST_GeomFromText(t.frontage_edge, 4326)
FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::float8[], $8::float8[], $9::float8[],
  $10::float8[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[],
  $18::float8[], $19::float8[], $20::text[], $21::text[])
  AS t(lot_id, estate_id, lot_number, state, suburb, asking_price, area_m2, frontage_m, depth_m, title_status,
    sales_status, aspect, aspect_source, listing_text, listed_week, updated_at, lng, lat, boundary, frontage_edge)`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.lot_id,
        (r) => r.estate_id,
        (r) => r.lot_number,
        (r) => r.state,
        (r) => r.suburb,
        (r) => r.asking_price,
        (r) => r.area_m2,
        (r) => r.frontage_m,
        (r) => r.depth_m,
        (r) => r.title_status,
        (r) => r.sales_status,
        (r) => r.aspect,
        (r) => r.aspect_source,
        (r) => r.listing_text,
        (r) => r.listed_week,
        (r) => r.updated_at,
        (r) => r.lng,
        (r) => r.lat,
        (r) => r.boundary,
        (r) => r.frontage_edge,
      ),
  },
  supply_lot_snapshot: {
    sql: `INSERT INTO supply.lot_snapshot (dataset, lot_id, week, asking_price, sales_status)
SELECT $1::text, t.lot_id, t.week::date, t.asking_price, t.sales_status
FROM unnest($2::text[], $3::text[], $4::float8[], $5::text[]) AS t(lot_id, week, asking_price, sales_status)`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.lot_id,
        (r) => r.week,
        (r) => r.asking_price,
        (r) => r.sales_status,
      ),
  },
  walk_node: {
    sql: `INSERT INTO amenities.walk_node (dataset, id, state, geom)
SELECT $1::text, t.id, t.state, ST_SetSRID(ST_MakePoint(t.lng, t.lat), 4326)
FROM unnest($2::text[], $3::text[], $4::float8[], $5::float8[]) AS t(id, state, lng, lat)`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.id,
        (r) => r.state,
        (r) => r.lng,
        (r) => r.lat,
      ),
  },
  walk_edge: {
    sql: `INSERT INTO amenities.walk_edge (dataset, id, state, source, target, highway, length_m, geom)
SELECT $1::text, t.id, t.state, t.source, t.target, t.highway, ST_Length(s.g::geography), s.g
FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
  AS t(id, state, source, target, highway, wkt),
LATERAL (SELECT ST_GeomFromText(t.wkt, 4326) AS g) s`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.id,
        (r) => r.state,
        (r) => r.source,
        (r) => r.target,
        (r) => r.highway,
        (r) => r.wkt,
      ),
  },
  amenity: {
    sql: `INSERT INTO amenities.amenity (dataset, id, osm_type, osm_id, state, category, subcategory, school_sector,
  school_level, transport_mode, name, tags, geom)
SELECT $1::text, t.id, 'synthetic', NULL, t.state, t.category, t.subcategory, t.school_sector, t.school_level,
  t.transport_mode, t.name, t.tags::jsonb, ST_SetSRID(ST_MakePoint(t.lng, t.lat), 4326)
FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
  $10::text[], $11::float8[], $12::float8[])
  AS t(id, state, category, subcategory, school_sector, school_level, transport_mode, name, tags, lng, lat)`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.id,
        (r) => r.state,
        (r) => r.category,
        (r) => r.subcategory,
        (r) => r.school_sector,
        (r) => r.school_level,
        (r) => r.transport_mode,
        (r) => r.name,
        (r) => r.tags,
        (r) => r.lng,
        (r) => r.lat,
      ),
  },
  amenity_coverage: {
    sql: `INSERT INTO amenities.coverage (dataset, layer, state, name, snapshot_date, geom)
SELECT $1::text, t.layer, t.state, t.name, '2025-10-27'::date, ${polygon}
FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS t(layer, state, name, wkt)`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.layer,
        (r) => r.state,
        (r) => r.name,
        (r) => r.wkt,
      ),
  },
  census_boundary: {
    sql: `INSERT INTO census.boundary (dataset, geography, code, name, name_key, state, area_km2, geom)
SELECT $1::text, t.geography, t.code, t.name, t.name_key, t.state, t.area_km2, ${polygon}
FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::float8[], $8::text[])
  AS t(geography, code, name, name_key, state, area_km2, wkt)`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.geography,
        (r) => r.code,
        (r) => r.name,
        (r) => r.name_key,
        (r) => r.state,
        (r) => r.area_km2,
        (r) => r.wkt,
      ),
  },
  census_profile: {
    sql: `INSERT INTO census.profile (dataset, geography, code, state, population, males, females, age_groups,
  median_age, median_personal_income_weekly, median_family_income_weekly, median_household_income_weekly,
  median_rent_weekly, median_mortgage_monthly, average_household_size, average_persons_per_bedroom,
  families, households, dwellings, tenure, tables)
SELECT $1::text, t.geography, t.code, t.state, t.population, t.males, t.females, t.age_groups::jsonb, t.median_age,
  t.personal, t.family, t.household, t.rent, t.mortgage, t.hh_size, t.per_bedroom, t.families::jsonb,
  t.households::jsonb, t.dwellings::jsonb, t.tenure::jsonb, string_to_array(t.tables, ',')
FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::int[], $8::text[], $9::float8[],
  $10::float8[], $11::float8[], $12::float8[], $13::float8[], $14::float8[], $15::float8[], $16::float8[],
  $17::text[], $18::text[], $19::text[], $20::text[], $21::text[])
  AS t(geography, code, state, population, males, females, age_groups, median_age, personal, family, household,
       rent, mortgage, hh_size, per_bedroom, families, households, dwellings, tenure, tables)`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.geography,
        (r) => r.code,
        (r) => r.state,
        (r) => r.population,
        (r) => r.males,
        (r) => r.females,
        (r) => JSON.stringify(r.age_groups),
        (r) => r.median_age,
        (r) => r.median_personal_income_weekly,
        (r) => r.median_family_income_weekly,
        (r) => r.median_household_income_weekly,
        (r) => r.median_rent_weekly,
        (r) => r.median_mortgage_monthly,
        (r) => r.average_household_size,
        (r) => r.average_persons_per_bedroom,
        (r) => JSON.stringify(r.families),
        (r) => JSON.stringify(r.households),
        (r) => JSON.stringify(r.dwellings),
        (r) => JSON.stringify(r.tenure),
        (r) => r.tables.join(','),
      ),
  },
  dataset_source: {
    sql: `INSERT INTO public.dataset_source (dataset, layer, state, attribution, license, snapshot_id)
SELECT $1::text, t.* FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS t`,
    params: (rows) =>
      columns(
        rows,
        (r) => r.layer,
        (r) => r.state,
        (r) => r.attribution,
        (r) => r.license,
        (r) => r.snapshot_id,
      ),
  },
};

/**
 * The G-NAF authority codes the sandbox's addresses use, written once for every dataset (codes
 * are national). A code already there stays as it is: a loaded G-NAF release outranks the
 * built-in copy of its vocabulary.
 */
export const UPSERT_AUTHORITY_CODES = `INSERT INTO address.authority_code (authority, code, name, description)
SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])
ON CONFLICT (authority, code) DO NOTHING`;

/** Clearing a dataset before its reload, in the same transaction. */
export const DELETE_DATASET: readonly string[] = [
  'DELETE FROM public.dataset_source WHERE dataset = $1',
  'DELETE FROM address.address_alias WHERE dataset = $1',
  'DELETE FROM address.address_default_geocode WHERE dataset = $1',
  'DELETE FROM address.address_detail WHERE dataset = $1',
  'DELETE FROM address.street_locality_alias WHERE dataset = $1',
  'DELETE FROM address.street_locality WHERE dataset = $1',
  'DELETE FROM address.locality_alias WHERE dataset = $1',
  'DELETE FROM address.locality WHERE dataset = $1',
  'DELETE FROM address.state WHERE dataset = $1',
  'DELETE FROM cadastre.parcel WHERE dataset = $1',
  'DELETE FROM cadastre.coverage WHERE dataset = $1',
  'DELETE FROM planning.zone WHERE dataset = $1',
  'DELETE FROM planning.overlay WHERE dataset = $1',
  'DELETE FROM planning.coverage WHERE dataset = $1',
  'DELETE FROM planning.ugb WHERE dataset = $1',
  'DELETE FROM planning.climate_zone WHERE dataset = $1',
  'DELETE FROM roads.centreline WHERE dataset = $1',
  'DELETE FROM terrain.dem_tile WHERE dataset = $1',
  'DELETE FROM soil.polygon WHERE dataset = $1',
  'DELETE FROM soil.coverage WHERE dataset = $1',
  'DELETE FROM land.easement WHERE dataset = $1',
  'DELETE FROM land.building_footprint WHERE dataset = $1',
  'DELETE FROM land.land_value WHERE dataset = $1',
  'DELETE FROM land.coverage WHERE dataset = $1',
  'DELETE FROM hazards.overlay WHERE dataset = $1',
  'DELETE FROM hazards.contamination_site WHERE dataset = $1',
  'DELETE FROM hazards.vegetation WHERE dataset = $1',
  'DELETE FROM hazards.coverage WHERE dataset = $1',
  'DELETE FROM development.application WHERE dataset = $1',
  'DELETE FROM development.spear_application WHERE dataset = $1',
  'DELETE FROM supply.weekly_rollup WHERE dataset = $1',
  'DELETE FROM supply.lot_snapshot WHERE dataset = $1',
  'DELETE FROM supply.lot WHERE dataset = $1',
  'DELETE FROM supply.estate WHERE dataset = $1',
  'DELETE FROM census.boundary WHERE dataset = $1',
  'DELETE FROM census.profile WHERE dataset = $1',
  ...DELETE_MARKET,
  // the suburb bundles are recomputed from the new rows once they are in (seedSandbox)
  'DELETE FROM analytics.suburb_bundle WHERE dataset = $1',
  'DELETE FROM analytics.suburb_series WHERE dataset = $1',
  'DELETE FROM analytics.metric_catalog WHERE dataset = $1',
  'DELETE FROM analytics.rollup_run WHERE dataset = $1',
  'DELETE FROM amenities.amenity WHERE dataset = $1',
  'DELETE FROM amenities.walk_edge WHERE dataset = $1',
  'DELETE FROM amenities.walk_node WHERE dataset = $1',
  'DELETE FROM amenities.coverage WHERE dataset = $1',
];

// Transaction-scoped, so it is released at commit or rollback; migrations use 727274.
export const LOCK_SANDBOX_LOAD = 'SELECT pg_advisory_xact_lock(727275)';

export const COUNT_COMPLETE_SOURCES =
  'SELECT count(*)::int AS n FROM public.dataset_source WHERE dataset = $1 AND snapshot_id = $2';

/** Fresh planner statistics after a bulk load, so lookups use the spatial indexes from the first query. */
export const ANALYZE_TABLES = `ANALYZE address.authority_code, address.state, address.locality, address.street_locality,
  address.address_detail, address.address_default_geocode, cadastre.parcel, cadastre.coverage, planning.zone,
  planning.overlay, planning.coverage, planning.ugb, planning.climate_zone, roads.centreline, terrain.dem_tile,
  soil.polygon, soil.coverage,

  land.easement, land.building_footprint, land.land_value, land.coverage,
  hazards.overlay, hazards.contamination_site, hazards.vegetation, hazards.coverage,
  development.application, development.spear_application,
  supply.estate, supply.lot, supply.lot_snapshot, supply.weekly_rollup, census.boundary, census.profile,
  market.sale, market.sale_suburb_quarter, market.sale_suburb, market.sale_state, market.rent_bond, market.building_approval,
  amenities.amenity, amenities.walk_node, amenities.walk_edge, amenities.coverage`;
