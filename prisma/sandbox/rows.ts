/**
 * Rows of migration 0001's tables as the generator emits them (the dataset column is implied:
 * always 'sandbox'). Geometry travels as WKT, points as rounded longitude and latitude.
 */
import type { SandboxState } from './suburbs.ts';

export type GeocodeType = 'PC' | 'FCS' | 'STL' | 'LOC' | 'GG';
export type SourceLayer = 'address' | 'cadastre' | 'planning';

export interface LocalityRow {
  locality_pid: string;
  locality_name: string;
  state: SandboxState;
  postcode: string;
  lga_code: string;
  lga_name: string;
}

export interface StreetLocalityRow {
  street_locality_pid: string;
  locality_pid: string;
  street_name: string;
  street_type_code: string;
  street_suffix_code: string | null;
}

export interface AddressRow {
  gnaf_pid: string;
  street_locality_pid: string;
  locality_pid: string;
  state: SandboxState;
  postcode: string;
  flat_type_code: string | null;
  flat_number: number | null;
  level_type_code: string | null;
  level_number: number | null;
  number_first: number | null;
  number_last: number | null;
  lot_number: string | null;
  formatted_address: string;
  geocode_type: GeocodeType;
  lng: number;
  lat: number;
  parcel_pfi: string | null;
}

export interface ParcelRow {
  state: SandboxState;
  parcel_pfi: string;
  parcel_spi: string;
  parcel_lot_number: string;
  parcel_plan_number: string;
  ezi_address: string | null;
  area_m2: number;
  wkt: string;
}

export interface CoverageRow {
  state: SandboxState;
  name: string;
  wkt: string;
}

export interface ZoneRow {
  id: string;
  state: SandboxState;
  scheme_code: string;
  zone_code: string;
  zone_description: string;
  lga_code: string;
  lga_name: string;
  wkt: string;
}

export interface OverlayRow {
  id: string;
  state: SandboxState;
  scheme_code: string;
  overlay_code: string;
  overlay_description: string;
  lga_code: string;
  lga_name: string;
  wkt: string;
}

export interface DatasetSourceRow {
  layer: SourceLayer;
  state: SandboxState;
  attribution: string;
  license: string;
  snapshot_id: string;
}

/** One entry per destination table, keyed by a short name. */
export interface SandboxTables {
  locality: LocalityRow;
  street_locality: StreetLocalityRow;
  address_detail: AddressRow;
  parcel: ParcelRow;
  cadastre_coverage: CoverageRow;
  zone: ZoneRow;
  overlay: OverlayRow;
  planning_coverage: CoverageRow;
  dataset_source: DatasetSourceRow;
}

export type SandboxTable = keyof SandboxTables;

/** A batch of rows for one table; `table` tells which, and narrows `rows`. */
export type SandboxBatch = { [T in SandboxTable]: { table: T; rows: SandboxTables[T][] } }[SandboxTable];
