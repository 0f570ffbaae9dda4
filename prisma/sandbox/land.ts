/**
 * The land around each sandbox parcel: a building footprint on most lots, a drainage or
 * sewerage easement along some back fences (a carriageway easement down the side of a few
 * fringe lots), and the valuer-general's land value of every rated parcel. All synthetic and
 * labelled so. Each lot draws from its block's own random stream, so adding this layer left
 * every other table of the sandbox exactly as it was.
 */
import type { Batcher } from './batcher.ts';
import { type Frame, rectRing } from './geometry.ts';
import type { Lot } from './lots.ts';
import type { Rng } from './random.ts';
import type { LandLayer } from './rows.ts';
import type { SandboxState, SuburbSpec } from './suburbs.ts';

/**
 * Suburbs the land layers do not reach, so that `not_covered` exists on real parcels: Castle
 * Hill, which planning does not reach either (one place to show "the source stops here").
 */
export const LAND_UNCOVERED: readonly string[] = ['castle-hill'];

export const LAND_LAYERS: readonly LandLayer[] = ['easements', 'buildings', 'land-values'];

/** The date each state's snapshot of a layer was taken: the layer's freshness. */
const SNAPSHOT_DATES: Record<LandLayer, Record<SandboxState, string>> = {
  easements: { VIC: '2025-10-06', NSW: '2025-09-29', QLD: '2025-10-13' },
  buildings: { VIC: '2025-08-18', NSW: '2025-08-18', QLD: '2025-08-18' },
  'land-values': { VIC: '2025-06-30', NSW: '2025-07-31', QLD: '2025-03-12' },
};

export function landSnapshotDate(layer: LandLayer, state: SandboxState): string {
  return SNAPSHOT_DATES[layer][state];
}

/**
 * How each state publishes land values. Victoria's valuations carry a capital improved value
 * as well as the site value; NSW and Queensland publish the land (site) value only.
 */
const VALUERS: Record<SandboxState, { valuer: string; baseDate: string; civ: boolean }> = {
  VIC: { valuer: 'Valuer-General Victoria', baseDate: '2025-01-01', civ: true },
  NSW: { valuer: 'NSW Valuer General', baseDate: '2025-07-01', civ: false },
  QLD: { valuer: 'Queensland Valuer-General', baseDate: '2024-06-30', civ: false },
};

/** Dollars of site value per square metre, by suburb (a demo figure, loosely the local market). */
const SITE_RATE: Record<string, number> = {
  huntly: 190,
  'kangaroo-flat': 330,
  parramatta: 2_400,
  'castle-hill': 1_700,
  chermside: 1_150,
  'north-lakes': 520,
};

/** Suburbs where the state's CC BY building layer supplements OpenStreetMap's outlines. */
const STATE_FOOTPRINTS: Record<SandboxState, boolean> = { VIC: true, NSW: true, QLD: false };

const roundTo = (value: number, step: number) => Math.round(value / step) * step;

export interface LandLot {
  spec: SuburbSpec;
  frame: Frame;
  lot: Lot;
  pfi: string;
  plan: string;
  areaM2: number;
}

/** The footprint's rectangle inside a lot: set back from the street, clear of the side fences. */
function footprintRing(rng: Rng, lot: Lot) {
  const depth = lot.v1 - lot.v0;
  const commercial = lot.kind === 'commercial';
  const side = commercial ? 0.6 : rng.range(1.2, 2.2);
  const front = commercial ? 1 : rng.range(5.5, 8);
  const length = commercial ? depth * rng.range(0.55, 0.75) : Math.min(depth - front - 4, rng.range(12, 20));
  // a bottom-row lot fronts the street below it (v0), a top-row lot the one above (v1)
  const [v0, v1] =
    lot.row === 'top' ? [lot.v1 - front - length, lot.v1 - front] : [lot.v0 + front, lot.v0 + front + length];
  return rectRing(lot.u0 + side, lot.u1 - side, v0, v1);
}

/** A strip along the back fence, or down one side fence for a carriageway. */
function easementRing(lot: Lot, width: number, along: 'back' | 'side') {
  if (along === 'side') return rectRing(lot.u1 - width, lot.u1, lot.v0, lot.v1);
  return lot.row === 'top'
    ? rectRing(lot.u0, lot.u1, lot.v0, lot.v0 + width)
    : rectRing(lot.u0, lot.u1, lot.v1 - width, lot.v1);
}

/** One lot's footprint, easements and land value, drawn from `rng` (its block's land stream). */
export function pushLandRows(rng: Rng, land: LandLot, out: Batcher): void {
  const { spec, frame, lot, pfi } = land;
  if (LAND_UNCOVERED.includes(spec.key) || lot.kind === 'park') return;
  const state = spec.state;
  // a few lots on a town's edge are still vacant
  const vacant = lot.kind === 'residential' && rng.chance(spec.fringe ? 0.12 : 0.03);
  let floorArea = 0;
  if (!vacant) {
    const fromState = STATE_FOOTPRINTS[state] && rng.chance(0.4);
    const storeys = lot.kind === 'commercial' ? rng.int(1, 3) : rng.chance(0.2) ? 2 : 1;
    const polygon = frame.polygon(footprintRing(rng, lot));
    // OpenStreetMap outlines carry a storey count now and then; the state's layer has heights
    const osmStoreys = rng.chance(0.4);
    out.push('building_footprint', {
      id: `${spec.key}-building-${pfi}`,
      state,
      source: fromState ? 'state' : 'osm',
      height_m: fromState ? roundTo(storeys * 3.1 + rng.range(0.8, 2.5), 0.1) : null,
      storeys: fromState || osmStoreys ? storeys : null,
      wkt: polygon.wkt,
    });
    floorArea = polygon.areaM2 * storeys;
  }
  if (lot.kind === 'residential' && rng.chance(0.3)) {
    const drainage = rng.chance(0.6);
    const width = drainage
      ? rng.weighted([
          [2, 3],
          [3, 1],
        ] as const)
      : rng.weighted([
          [2, 1],
          [3, 2],
        ] as const);
    out.push('easement', {
      id: `${spec.key}-easement-${pfi}-e1`,
      state,
      parcel_pfi: pfi,
      easement_type: drainage ? 'drainage' : 'sewerage',
      width_m: width,
      plan_number: land.plan,
      wkt: frame.polygon(easementRing(lot, width, 'back')).wkt,
    });
  }
  if (spec.fringe && lot.kind === 'residential' && rng.chance(0.04)) {
    out.push('easement', {
      id: `${spec.key}-easement-${pfi}-e2`,
      state,
      parcel_pfi: pfi,
      easement_type: 'carriageway',
      width_m: 3.5,
      plan_number: land.plan,
      wkt: frame.polygon(easementRing(lot, 3.5, 'side')).wkt,
    });
  }
  const valuer = VALUERS[state];
  const rate = SITE_RATE[spec.key] ?? 500;
  const site = roundTo(land.areaM2 * rate * rng.range(0.85, 1.15), 1_000);
  const improvements = roundTo(floorArea * rng.range(1_700, 2_600), 1_000);
  out.push('land_value', {
    state,
    parcel_pfi: pfi,
    site_value: site,
    capital_improved_value: valuer.civ ? site + improvements : null,
    base_date: valuer.baseDate,
    valuer: valuer.valuer,
  });
}

/** Each land layer reaches a covered suburb exactly as far as its cadastre does. */
export function pushLandCoverage(spec: SuburbSpec, wkt: string, out: Batcher): void {
  if (LAND_UNCOVERED.includes(spec.key)) return;
  for (const layer of LAND_LAYERS) {
    out.push('land_coverage', {
      layer,
      state: spec.state,
      name: spec.name,
      snapshot_date: landSnapshotDate(layer, spec.state),
      wkt,
    });
  }
}
