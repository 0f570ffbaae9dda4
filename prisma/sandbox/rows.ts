/**
 * Rows of the tables the generator emits (the dataset column is implied: always 'sandbox'),
 * in G-NAF's model for addresses (migrations 0001 and 0003). Geometry travels as WKT, points
 * as rounded longitude and latitude. Columns G-NAF leaves blank for a plain address (number
 * prefixes, building names, dates) are left out and load as null.
 */
import type { SandboxState } from './suburbs.ts';

export type GeocodeType = 'PC' | 'FCS' | 'STL' | 'LOC' | 'GG';
export type SourceLayer = 'address' | 'cadastre' | 'planning';

export interface StateRow {
  state_pid: string;
  state_name: string;
  state_abbreviation: SandboxState;
}

export interface LocalityRow {
  locality_pid: string;
  locality_name: string;
  state: SandboxState;
  state_pid: string;
  postcode: string;
  /** LOCALITY_CLASS_AUT: every sandbox suburb is a gazetted locality ('G'). */
  locality_class_code: string;
  lga_code: string;
  lga_name: string;
}

export interface StreetLocalityRow {
  street_locality_pid: string;
  locality_pid: string;
  street_name: string;
  street_type_code: string;
  street_suffix_code: string | null;
  /** STREET_CLASS_AUT: confirmed ('C'). */
  street_class_code: string;
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
  /** 'P': every sandbox address is a principal one. */
  alias_principal: string;
  /** The parcel as G-NAF's LEGAL_PARCEL_ID writes it, "lot/plan" ("16/PS612345"); null off any parcel. */
  legal_parcel_id: string | null;
  /** G-NAF CONFIDENCE, -1 to 2: how many contributors' records agree, less one. */
  confidence: number;
  /** GEOCODED_LEVEL_TYPE_AUT: 7 locality, street and address; 3 locality and street; 1 locality. */
  level_geocoded_code: number;
  formatted_address: string;
  search_key: string;
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
  state: StateRow;
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
