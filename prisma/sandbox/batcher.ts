/**
 * Collects generated rows per table and hands them out in batches of a fixed size (smaller for
 * the bulky DEM tiles), so the
 * generator's memory is bounded by one batch per table however large the dataset.
 */
import type { SandboxBatch, SandboxTable, SandboxTables } from './rows.ts';

type Buffers = { [T in SandboxTable]: SandboxTables[T][] };

/** One empty row list per table: the shape every collector of generated rows starts from. */
export function emptyTables(): Buffers {
  return {
    state: [],
    locality: [],
    street_locality: [],
    address_detail: [],
    parcel: [],
    cadastre_coverage: [],
    zone: [],
    overlay: [],
    planning_coverage: [],
    road: [],
    ugb: [],
    climate_zone: [],
    dem_tile: [],
    soil_polygon: [],
    soil_coverage: [],
    easement: [],
    building_footprint: [],
    land_value: [],
    land_coverage: [],
    hazard_overlay: [],
    contamination_site: [],
    vegetation: [],
    hazard_coverage: [],
    development_application: [],
    spear_application: [],
    supply_estate: [],
    supply_lot: [],
    supply_lot_snapshot: [],
    census_boundary: [],
    census_profile: [],
    walk_node: [],
    walk_edge: [],
    amenity: [],
    amenity_coverage: [],
    dataset_source: [],
  };
}

// One wrapper per table: building the batch where the table is a literal keeps its rows' type.
const WRAP: { [T in SandboxTable]: (rows: SandboxTables[T][]) => SandboxBatch } = {
  state: (rows) => ({ table: 'state', rows }),
  locality: (rows) => ({ table: 'locality', rows }),
  street_locality: (rows) => ({ table: 'street_locality', rows }),
  address_detail: (rows) => ({ table: 'address_detail', rows }),
  parcel: (rows) => ({ table: 'parcel', rows }),
  cadastre_coverage: (rows) => ({ table: 'cadastre_coverage', rows }),
  zone: (rows) => ({ table: 'zone', rows }),
  overlay: (rows) => ({ table: 'overlay', rows }),
  planning_coverage: (rows) => ({ table: 'planning_coverage', rows }),
  road: (rows) => ({ table: 'road', rows }),
  ugb: (rows) => ({ table: 'ugb', rows }),
  climate_zone: (rows) => ({ table: 'climate_zone', rows }),
  dem_tile: (rows) => ({ table: 'dem_tile', rows }),
  soil_polygon: (rows) => ({ table: 'soil_polygon', rows }),
  soil_coverage: (rows) => ({ table: 'soil_coverage', rows }),
  easement: (rows) => ({ table: 'easement', rows }),
  building_footprint: (rows) => ({ table: 'building_footprint', rows }),
  land_value: (rows) => ({ table: 'land_value', rows }),
  land_coverage: (rows) => ({ table: 'land_coverage', rows }),
  hazard_overlay: (rows) => ({ table: 'hazard_overlay', rows }),
  contamination_site: (rows) => ({ table: 'contamination_site', rows }),
  vegetation: (rows) => ({ table: 'vegetation', rows }),
  hazard_coverage: (rows) => ({ table: 'hazard_coverage', rows }),
  development_application: (rows) => ({ table: 'development_application', rows }),
  spear_application: (rows) => ({ table: 'spear_application', rows }),
  supply_estate: (rows) => ({ table: 'supply_estate', rows }),
  supply_lot: (rows) => ({ table: 'supply_lot', rows }),
  supply_lot_snapshot: (rows) => ({ table: 'supply_lot_snapshot', rows }),
  census_boundary: (rows) => ({ table: 'census_boundary', rows }),
  census_profile: (rows) => ({ table: 'census_profile', rows }),
  walk_node: (rows) => ({ table: 'walk_node', rows }),
  walk_edge: (rows) => ({ table: 'walk_edge', rows }),
  amenity: (rows) => ({ table: 'amenity', rows }),
  amenity_coverage: (rows) => ({ table: 'amenity_coverage', rows }),
  dataset_source: (rows) => ({ table: 'dataset_source', rows }),
};

// Within one drain: states, localities and streets before the addresses that cite them, provenance last.
const TABLE_ORDER: readonly SandboxTable[] = [
  'state',
  'locality',
  'street_locality',
  'parcel',
  'address_detail',
  'zone',
  'overlay',
  'cadastre_coverage',
  'planning_coverage',
  'road',
  'ugb',
  'climate_zone',
  'dem_tile',
  'soil_polygon',
  'soil_coverage',
  'easement',
  'building_footprint',
  'land_value',
  'land_coverage',
  'hazard_overlay',
  'contamination_site',
  'vegetation',
  'hazard_coverage',
  'development_application',
  'spear_application',
  'supply_estate',
  'supply_lot',
  'supply_lot_snapshot',
  'census_boundary',
  'census_profile',
  'walk_node',
  'walk_edge',
  'amenity',
  'amenity_coverage',
  'dataset_source',
];

// A DEM tile carries 4,096 heights: a few dozen make a statement as large as thousands of parcels.
const MAX_BATCH_ROWS: Partial<Record<SandboxTable, number>> = { dem_tile: 32 };

export class Batcher {
  private readonly buffers: Buffers = emptyTables();

  constructor(private readonly batchRows: number) {}

  push<T extends SandboxTable>(table: T, row: SandboxTables[T]): void {
    this.buffers[table].push(row);
  }

  /** Yields every full batch, or with `all` everything buffered. */
  *drain(all: boolean): Generator<SandboxBatch> {
    for (const table of TABLE_ORDER) yield* this.take(table, all);
  }

  private *take<T extends SandboxTable>(table: T, all: boolean): Generator<SandboxBatch> {
    const rows: SandboxTables[T][] = this.buffers[table];
    const size = Math.min(this.batchRows, MAX_BATCH_ROWS[table] ?? this.batchRows);
    while (rows.length >= size || (all && rows.length > 0)) {
      yield WRAP[table](rows.splice(0, size));
    }
  }
}
