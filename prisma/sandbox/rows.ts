/**
 * Rows of the tables the generator emits (the dataset column is implied: always 'sandbox'),
 * in G-NAF's model for addresses (migrations 0001 and 0003). Geometry travels as WKT, points
 * as rounded longitude and latitude. Columns G-NAF leaves blank for a plain address (number
 * prefixes, building names, dates) are left out and load as null.
 */
import type { AmenityCoverageRow, AmenityRow, WalkEdgeRow, WalkNodeRow } from './amenities.ts';
import type { SupplyEstateRow, SupplyLotRow, SupplySnapshotRow } from './supply.ts';
import type { SandboxState } from './suburbs.ts';

export type GeocodeType = 'PC' | 'FCS' | 'STL' | 'LOC' | 'GG';
/** The land layers (migration 0007), as their coverage rows and dataset_source rows name them. */
export type LandLayer = 'easements' | 'buildings' | 'land-values';
export type SourceLayer =
  | 'address'
  | 'cadastre'
  | 'planning'
  | 'roads'
  | 'ugb'
  | 'climate'
  | 'terrain'
  | LandLayer
  /** The state's CC BY building layer that supplements OpenStreetMap's footprints (spec 2.2). */
  | 'buildings-state'
  | 'soil'
  | 'hazards'
  | 'development-applications'
  | 'spear'
  | 'land-supply'
  | 'demographics'
  | 'market-sales'
  | 'market-rents'
  | 'market-approvals'
  | 'amenities';

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

/** Road classes as the planning products read them: arterial, collector or local street. */
export type RoadClass = 'arterial' | 'collector' | 'local';

/** One road centreline segment, intersection to intersection, along the middle of its reserve. */
export interface RoadRow {
  id: string;
  state: SandboxState;
  /** The name as Vicmap Transport labels it: type and suffix as words ("SMITH STREET NORTH"). */
  road_name: string;
  road_class: RoadClass;
  /** LINESTRING WKT. */
  wkt: string;
}

/** Vicmap Planning's urban growth boundary layer: one polygon per suburb it takes in. */
export interface UgbRow {
  id: string;
  state: SandboxState;
  lga_code: string;
  lga_name: string;
  gaic_applies: boolean;
  wkt: string;
}

export interface ClimateZoneRow {
  id: string;
  state: SandboxState;
  /** NCC climate zone, 1 to 8. */
  climate_zone: number;
  wkt: string;
}

/** A source's shrink-swell class; 'problem' is land no class describes (fill, soft soils). */
export type SoilReactivity = 'nil' | 'low' | 'moderate' | 'high' | 'very_high' | 'extreme' | 'problem';

/** One soil polygon (migration 0008): SLGA's clay (CLY) and soil depth (DES) summarised over it. */
export interface SoilPolygonRow {
  id: string;
  state: SandboxState;
  clay_percent: number;
  depth_m: number;
  reactivity: SoilReactivity;
  source: string;
  /** ISO date the source published the figures. */
  source_date: string;
  wkt: string;
}

export type SoilCoverageRow = CoverageRow;

/** One tile of a state's DEM grid (migration 0005 describes the layout). */
export interface DemTileRow {
  state: SandboxState;
  tile_id: string;
  west: number;
  north: number;
  cell_lng: number;
  cell_lat: number;
  cols: number;
  rows: number;
  /** Metres AHD, row by row from the north-west corner. */
  heights: number[];
  /** The tile's extent as POLYGON WKT. */
  wkt: string;
}

/** A registered easement: a strip of the burdened parcel, with its purpose and width. */
export interface EasementRow {
  id: string;
  state: SandboxState;
  parcel_pfi: string;
  easement_type: 'drainage' | 'sewerage' | 'carriageway';
  width_m: number;
  plan_number: string;
  wkt: string;
}

/** A building's outline: `osm` (OpenStreetMap, ODbL) or `state` (the state's CC BY layer). */
export interface BuildingFootprintRow {
  id: string;
  state: SandboxState;
  source: 'osm' | 'state';
  height_m: number | null;
  storeys: number | null;
  wkt: string;
}

export interface LandValueRow {
  state: SandboxState;
  parcel_pfi: string;
  site_value: number;
  capital_improved_value: number | null;
  /** ISO date. */
  base_date: string;
  valuer: string;
}

export interface LandCoverageRow {
  layer: LandLayer;
  state: SandboxState;
  name: string;
  /** ISO date of the snapshot that reaches here. */
  snapshot_date: string;
  wkt: string;
}

/** A hazard overlay polygon (migration 0006): flood, bushfire or contamination mapping. */
export interface HazardOverlayRow {
  id: string;
  state: SandboxState;
  kind: 'flood' | 'bushfire' | 'contamination';
  code: string;
  description: string;
  severity: 'low' | 'medium' | 'high' | 'extreme';
  source_name: string;
  /** YYYY-MM-DD. */
  snapshot_date: string;
  wkt: string;
}

/** One site of a contaminated land register. */
export interface ContaminationSiteRow {
  id: string;
  state: SandboxState;
  name: string;
  status: string;
  register: string;
  snapshot_date: string;
  lng: number;
  lat: number;
}

/** Classified bushfire vegetation (AS 3959 classes). */
export interface VegetationRow {
  id: string;
  state: SandboxState;
  vegetation_class: 'forest' | 'grassland';
  wkt: string;
}

export interface HazardCoverageRow {
  state: SandboxState;
  kind: 'flood' | 'bushfire' | 'contamination';
  name: string;
  snapshot_date: string;
  wkt: string;
}

export type DevelopmentCategory =
  'dwelling' | 'alterations' | 'subdivision' | 'demolition' | 'commercial' | 'industrial' | 'other';
export type DevelopmentStatus = 'lodged' | 'under_assessment' | 'approved' | 'refused' | 'withdrawn' | 'determined';

/** One development application (migration 0009); received_at is its updated_at (received as it changed). */
export interface DevelopmentApplicationRow {
  source: string;
  authority: string;
  council_reference: string;
  state: SandboxState;
  lga_code: string;
  lga_name: string;
  suburb: string;
  address: string;
  gnaf_pid: string;
  parcel_pfi: string;
  description: string;
  category: DevelopmentCategory;
  status: DevelopmentStatus;
  /** YYYY-MM-DD. */
  lodged_date: string;
  decided_date: string | null;
  estimated_cost: number | null;
  dwellings_proposed: number | null;
  source_url: string;
  attribution: string;
  /** ISO 8601 instant. */
  updated_at: string;
  lng: number;
  lat: number;
}

export type SpearApplicationType =
  | 'planning_permit'
  | 'subdivision_permit'
  | 'certification'
  | 'permit_and_certification'
  | 'statement_of_compliance'
  | 'plan_of_subdivision'
  | 'other';
export type SpearStatus =
  | 'lodged'
  | 'under_assessment'
  | 'approved'
  | 'certified'
  | 'compliance_issued'
  | 'registered'
  | 'refused'
  | 'withdrawn'
  | 'lapsed';

/** One SPEAR application (migration 0012); received_at is its updated_at. */
export interface SpearApplicationRow {
  source: string;
  spear_reference: string;
  application_type: SpearApplicationType;
  responsible_authority: string;
  council_reference: string | null;
  lga_code: string;
  status: SpearStatus;
  description: string;
  lodged_date: string;
  decided_date: string | null;
  parcel_pfis: string[];
  address: string;
  source_url: string;
  attribution: string;
  /** ISO 8601 instant. */
  updated_at: string;
  lng: number;
  lat: number;
}
export type TitleStatus = 'titled' | 'untitled';
export type SalesStatus = 'available' | 'under_offer' | 'sold' | 'withdrawn';

/** A Census 2021 area's boundary (migration 0013): a suburb (SAL) or an SA1 within it. */
export interface CensusBoundaryRow {
  geography: 'SAL' | 'SA1';
  code: string;
  name: string;
  /** The name as a suburb is asked for (suffix dropped, upper-cased), as the ingest writes it. */
  name_key: string;
  state: SandboxState;
  area_km2: number;
  wkt: string;
}

/** A Census 2021 area's General Community Profile figures (migration 0013), counts and medians. */
export interface CensusProfileRow {
  geography: 'SAL' | 'SA1';
  code: string;
  state: SandboxState;
  population: number;
  males: number;
  females: number;
  age_groups: Record<string, number>;
  median_age: number;
  median_personal_income_weekly: number;
  median_family_income_weekly: number;
  median_household_income_weekly: number;
  median_rent_weekly: number;
  median_mortgage_monthly: number;
  average_household_size: number;
  average_persons_per_bedroom: number;
  families: Record<string, number>;
  households: Record<string, number>;
  dwellings: Record<string, number>;
  tenure: Record<string, number>;
  tables: string[];
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
  road: RoadRow;
  ugb: UgbRow;
  climate_zone: ClimateZoneRow;
  dem_tile: DemTileRow;
  soil_polygon: SoilPolygonRow;
  soil_coverage: SoilCoverageRow;
  easement: EasementRow;
  building_footprint: BuildingFootprintRow;
  land_value: LandValueRow;
  land_coverage: LandCoverageRow;
  hazard_overlay: HazardOverlayRow;
  contamination_site: ContaminationSiteRow;
  vegetation: VegetationRow;
  hazard_coverage: HazardCoverageRow;
  development_application: DevelopmentApplicationRow;
  spear_application: SpearApplicationRow;
  supply_estate: SupplyEstateRow;
  supply_lot: SupplyLotRow;
  supply_lot_snapshot: SupplySnapshotRow;
  census_boundary: CensusBoundaryRow;
  census_profile: CensusProfileRow;
  walk_node: WalkNodeRow;
  walk_edge: WalkEdgeRow;
  amenity: AmenityRow;
  amenity_coverage: AmenityCoverageRow;
  dataset_source: DatasetSourceRow;
}

export type SandboxTable = keyof SandboxTables;

/** A batch of rows for one table; `table` tells which, and narrows `rows`. */
export type SandboxBatch = { [T in SandboxTable]: { table: T; rows: SandboxTables[T][] } }[SandboxTable];
