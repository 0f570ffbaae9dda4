/**
 * The sandbox dataset: a deterministic demo of six real suburbs (two each in VIC, NSW and QLD)
 * with generated streets, parcels, G-NAF-style addresses, zones, overlays, coverage, road
 * centrelines, urban growth boundaries, climate zones, a terrain model, easements, building
 * footprints, land values, hazards, development applications, land supply and market data (sales, rents, bonds, approvals), for dataset 'sandbox'. Pure and seeded: the same options give byte-identical batches.
 */
import { Batcher } from './batcher.ts';
import { censusRows } from './census.ts';
import { DA_MODELLED_ON } from './development.ts';
import { SPEAR_MODELLED_ON } from './spear.ts';
import { pushSupplyRows, SUPPLY_MODELLED_ON } from './supply.ts';
import { MARKET_MODELLED_ON } from './market.ts';
import { AMENITIES_MODELLED_ON, pushAmenityRows } from './amenities.ts';
import { IdMint } from './identifiers.ts';
import { separateSuburbs } from './placement.ts';
import { heritageCount } from './planning.ts';
import type { DatasetSourceRow, SandboxBatch, SourceLayer } from './rows.ts';
import { planSuburb, suburbRows, type SuburbPlan } from './suburb.ts';
import { type SandboxState, stateRow, SUBURBS } from './suburbs.ts';
import { demRows } from './terrain.ts';

export const SANDBOX_DATASET = 'sandbox';
export const DEFAULT_SANDBOX_PARCELS = 15_000;
/** Below this a suburb is too small to hold its main street, centre, park and planning gap. */
export const MIN_SANDBOX_PARCELS = 600;
/** Above this the state identifier series run out of digits. */
export const MAX_SANDBOX_PARCELS = 5_000_000;
export const SANDBOX_STATES: readonly SandboxState[] = ['VIC', 'NSW', 'QLD'];
export const SANDBOX_LAYERS: readonly SourceLayer[] = [
  'address',
  'cadastre',
  'planning',
  'roads',
  'ugb',
  'climate',
  'terrain',
  'soil',
  'easements',
  'buildings',
  'buildings-state',
  'land-values',
  'hazards',
  'development-applications',
  'spear',
  'land-supply',
  'demographics',
  'market-sales',
  'market-rents',
  'market-approvals',
  'amenities',
];

export interface SandboxOptions {
  seed: number;
  /** Target total of parcels across all suburbs; the result lands within a few percent. */
  parcels?: number;
  batchRows?: number;
}

export interface SandboxPlan {
  /** Exact number of parcels the generator will emit. */
  readonly parcels: number;
  readonly suburbs: readonly SuburbPlan[];
}

export function sandboxParcels(options: SandboxOptions): number {
  const parcels = options.parcels ?? DEFAULT_SANDBOX_PARCELS;
  if (!Number.isSafeInteger(options.seed)) throw new RangeError(`Sandbox seed must be an integer, got ${options.seed}`);
  if (!Number.isInteger(parcels) || parcels < MIN_SANDBOX_PARCELS || parcels > MAX_SANDBOX_PARCELS) {
    throw new RangeError(
      `Sandbox parcels must be an integer from ${MIN_SANDBOX_PARCELS} to ${MAX_SANDBOX_PARCELS}, got ${parcels}`,
    );
  }
  return parcels;
}

/**
 * The generator's version, in every snapshot id: a database holding a sandbox of an older
 * version (v1: no G-NAF states, authority codes or default geocodes, street types spelled out
 * in addresses; v2: no roads, urban growth boundary, climate zones or terrain; v3: no soil, easements,
 * building footprints or land values; v4: soil without the land layers, or the land layers without soil; v5: no hazards;
 * v6: no development applications; v7: no SPEAR applications or land supply; v8: SPEAR applications or land supply,
 * the name each branch gave its half; v9: no Census demographics, market sales, rents, bonds or building approvals,
 * amenities and walking network, or suburb analytics bundles; v10: rents not split by bedrooms)
 * reloads it on the next start.
 */
export const SANDBOX_VERSION = 'v11';

/** Names one load of the sandbox; its dataset_source rows carry it, so a reader can tell which is loaded. */
export function sandboxSnapshotId(options: SandboxOptions): string {
  return `sandbox-${SANDBOX_VERSION}-${options.seed}-${sandboxParcels(options)}`;
}

export function planSandbox(options: SandboxOptions): SandboxPlan {
  const perSuburb = sandboxParcels(options) / SUBURBS.length;
  const suburbs = separateSuburbs(SUBURBS.map((spec) => planSuburb(options.seed, spec, perSuburb)));
  return { parcels: suburbs.reduce((sum, s) => sum + s.parcels, 0), suburbs };
}

/**
 * What each layer's synthetic rows imitate, per state that has them: a state missing from a
 * layer has no rows of it (no urban growth boundary outside Victoria, no DEM in Queensland).
 */
const SOURCES: Record<
  SourceLayer,
  { what: string; modelledOn: Partial<Record<SandboxState, string>>; license?: string }
> = {
  address: { what: 'addresses', modelledOn: { VIC: 'G-NAF', NSW: 'G-NAF', QLD: 'G-NAF' } },
  cadastre: {
    what: 'cadastre',
    modelledOn: {
      VIC: 'Vicmap Property',
      NSW: 'NSW Digital Cadastral Database',
      QLD: 'Queensland Digital Cadastral Database',
    },
  },
  planning: {
    what: 'planning controls',
    modelledOn: {
      VIC: 'Vicmap Planning',
      NSW: 'NSW Principal Planning Layers',
      QLD: 'Brisbane City Plan 2014 and Moreton Bay Regional Plan',
    },
  },
  roads: {
    what: 'road centrelines',
    modelledOn: {
      VIC: 'Vicmap Transport',
      NSW: 'NSW Spatial Services road segments',
      QLD: 'Queensland Baseline roads and tracks',
    },
  },
  ugb: { what: 'urban growth boundary', modelledOn: { VIC: 'Vicmap Planning UGB' } },
  climate: {
    what: 'building climate zones',
    modelledOn: {
      VIC: 'ABCB NCC climate zone map',
      NSW: 'ABCB NCC climate zone map',
      QLD: 'ABCB NCC climate zone map',
    },
  },
  terrain: { what: 'elevation', modelledOn: { VIC: 'Vicmap Elevation', NSW: 'NSW Elevation DEM' } },
  soil: {
    what: 'soil',
    modelledOn: {
      VIC: 'CSIRO Soil and Landscape Grid of Australia',
      NSW: 'CSIRO Soil and Landscape Grid of Australia',
      QLD: 'CSIRO Soil and Landscape Grid of Australia',
    },
  },
  easements: {
    what: 'easements',
    modelledOn: { VIC: 'Vicmap Property', NSW: 'NSW Digital Cadastral Database', QLD: 'Queensland DCDB easements' },
  },
  // footprints are OpenStreetMap's outlines (ODbL) where the state publishes none of its own (spec 2.2)
  buildings: {
    what: 'building footprints',
    modelledOn: { VIC: 'OpenStreetMap', NSW: 'OpenStreetMap', QLD: 'OpenStreetMap' },
    license: 'ODbL',
  },
  'buildings-state': {
    what: 'building footprints',
    modelledOn: { VIC: 'Vicmap Buildings', NSW: 'NSW Spatial Services building outlines' },
  },
  'land-values': {
    what: 'land values',
    modelledOn: {
      VIC: 'Valuer-General Victoria',
      NSW: 'NSW Valuer General bulk land values',
      QLD: 'Queensland Valuer-General',
    },
  },
  hazards: {
    what: 'flood, bushfire and contamination mapping',
    modelledOn: {
      VIC: 'Vicmap overlays LSIO, FO, SBO, BPA, BMO and EAO and the EPA Victoria Priority Sites Register',
      NSW: 'NSW flood (FPA) mapping, RFS Bush Fire Prone Land and the EPA contaminated land record',
      QLD: 'QLD SPP flood hazard and bushfire prone area mapping and the Contaminated Land Register',
    },
  },
  'development-applications': { what: 'development applications', modelledOn: DA_MODELLED_ON },
  // SPEAR is Victoria's own system: NSW and QLD get no row, so the layer answers not_covered there
  spear: { what: 'SPEAR applications', modelledOn: SPEAR_MODELLED_ON },
  'land-supply': { what: 'land supply', modelledOn: SUPPLY_MODELLED_ON },
  demographics: {
    what: 'Census 2021 demographics',
    modelledOn: {
      VIC: 'the ABS General Community Profile DataPacks and ASGS 2021 SAL and SA1 boundaries',
      NSW: 'the ABS General Community Profile DataPacks and ASGS 2021 SAL and SA1 boundaries',
      QLD: 'the ABS General Community Profile DataPacks and ASGS 2021 SAL and SA1 boundaries',
    },
  },
  'market-sales': { what: 'property sales', modelledOn: MARKET_MODELLED_ON['market-sales'] },
  'market-rents': { what: 'rents and rental bonds', modelledOn: MARKET_MODELLED_ON['market-rents'] },
  'market-approvals': { what: 'building approvals', modelledOn: MARKET_MODELLED_ON['market-approvals'] },
  // amenities and the walking network are OpenStreetMap's (ODbL) in a real load
  amenities: { what: 'amenities and walking network', modelledOn: AMENITIES_MODELLED_ON, license: 'ODbL' },
};

export function datasetSources(options: SandboxOptions): DatasetSourceRow[] {
  const snapshot = sandboxSnapshotId(options);
  return SANDBOX_LAYERS.flatMap((layer) => {
    const { what, modelledOn, license } = SOURCES[layer];
    return SANDBOX_STATES.flatMap((state) => {
      const format = modelledOn[state];
      if (!format) return [];
      return [
        {
          layer,
          state,
          attribution: `Landgraph sandbox: synthetic demo data, not real ${state} ${what} (modelled on ${format} formats). Do not rely on it.`,
          license: license ?? 'CC BY 4.0',
          snapshot_id: snapshot,
        },
      ];
    });
  });
}

/**
 * Every row of the sandbox, in batches of at most `batchRows` rows of one table. The
 * dataset_source rows come last, so a loader writing in order records a load only once
 * everything else is in.
 */
export function* generateSandbox(options: SandboxOptions, plan = planSandbox(options)): Generator<SandboxBatch> {
  const out = new Batcher(options.batchRows ?? 4_000);
  const mints = new Map(SANDBOX_STATES.map((state) => [state, new IdMint(state, options.seed)]));
  const heritageByLga = new Map<string, number>();
  for (const state of SANDBOX_STATES) out.push('state', stateRow(state));
  for (const suburb of plan.suburbs) {
    const mint = mints.get(suburb.spec.state);
    if (!mint) throw new Error(`No identifier series for ${suburb.spec.state}`);
    const firstHeritage = heritageByLga.get(suburb.spec.lga.code) ?? 101;
    heritageByLga.set(suburb.spec.lga.code, firstHeritage + heritageCount(suburb.grid));
    yield* suburbRows(options.seed, suburb, mint, firstHeritage, out);
  }
  yield* demRows(options.seed, plan.suburbs, out);
  // land supply last of the layers: its own random streams, so every earlier row is as it was
  for (const suburb of plan.suburbs) pushSupplyRows(options.seed, suburb.spec, out);
  // Census demographics after it, on streams of their own: one SAL per suburb, numbered within its state
  plan.suburbs.forEach((suburb, i) => {
    const index = plan.suburbs.slice(0, i).filter((s) => s.spec.state === suburb.spec.state).length + 1;
    const census = censusRows(options.seed, suburb.spec, suburb.grid, suburb.frame, suburb.parcels, index);
    for (const row of census.boundaries) out.push('census_boundary', row);
    for (const row of census.profiles) out.push('census_profile', row);
  });
  // amenities and the walking network after it, on their own random stream likewise
  for (const suburb of plan.suburbs) pushAmenityRows(options.seed, suburb, out);
  yield* out.drain(true);
  for (const row of datasetSources(options)) out.push('dataset_source', row);
  yield* out.drain(true);
}
