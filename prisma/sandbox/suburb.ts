/**
 * One suburb's rows, produced block row by block row so that even a suburb of a few hundred
 * thousand parcels never sits in memory: the caller drains the batcher after every row.
 */
import {
  chooseAddressing,
  frontageOf,
  HouseNumbers,
  lotAddresses,
  type SuburbAddressing,
  unplacedAddress,
} from './addresses.ts';
import { at } from './arrays.ts';
import type { Batcher } from './batcher.ts';
import { pushDevelopmentRows } from './development.ts';
import { pushSpearRows } from './spear.ts';
import type { SpearLot } from './spear.ts';
import { hazardRows } from './hazards.ts';
import { climateZoneRow } from './climate.ts';
import { Frame, rectRing, Shear } from './geometry.ts';
import { buildGrid, type Grid, shearLevels } from './grid.ts';
import { type IdMint, parcelSpi } from './identifiers.ts';
import { pushLandCoverage, pushLandRows } from './land.ts';
import { layoutBlock, type Lot } from './lots.ts';
import { zoneCode } from './planning-codes.ts';
import { coverageRing, mainRoadZone, overlayShapes, rowZones, type Shape } from './planning.ts';
import { Rng } from './random.ts';
import { type RoadContext, roadRows } from './roads.ts';
import type { SandboxBatch } from './rows.ts';
import { buildStreets } from './streets.ts';
import { soilRows } from './soil.ts';
import { statePid, type SuburbSpec } from './suburbs.ts';
import { ugbRow } from './ugb.ts';
import { type BlockPlan, planBlocks } from './zoning.ts';

export interface SuburbPlan {
  readonly spec: SuburbSpec;
  readonly grid: Grid;
  readonly frame: Frame;
  readonly blocks: readonly (readonly BlockPlan[])[];
  readonly parcels: number;
}

function blockLots(seed: number, spec: SuburbSpec, grid: Grid, plan: BlockPlan, r: number, j: number): Lot[] {
  return layoutBlock(Rng.for(seed, spec.key, 'lots', r, j), at(grid.cols, j), at(grid.rows, r), plan);
}

function planFor(seed: number, spec: SuburbSpec, target: number): SuburbPlan {
  const rng = Rng.for(seed, spec.key, 'grid');
  const grid = buildGrid(rng, target);
  const shear = Shear.sine(shearLevels(grid), spec.curveAmplitude, rng.range(700, 1100), rng.range(0, 2 * Math.PI));
  const frame = new Frame(spec.centre, spec.rotationDeg, shear);
  const blocks = planBlocks(Rng.for(seed, spec.key, 'zoning'), spec, grid);
  let count = 0;
  blocks.forEach((row, r) => row.forEach((plan, j) => (count += blockLots(seed, spec, grid, plan, r, j).length)));
  return { spec, grid, frame, blocks, parcels: count };
}

/**
 * A suburb's layout for about `parcels` lots. Parks, shops and large fringe lots make the
 * count per block vary by suburb, so the grid is resized until the count lands close.
 */
export function planSuburb(seed: number, spec: SuburbSpec, parcels: number): SuburbPlan {
  const miss = (p: SuburbPlan) => Math.abs(p.parcels - parcels);
  let best = planFor(seed, spec, parcels);
  let last = best;
  for (let pass = 0; pass < 3 && miss(best) > parcels * 0.04; pass++) {
    last = planFor(seed, spec, (parcels * parcels) / last.parcels);
    if (miss(last) < miss(best)) best = last;
  }
  return best;
}

/** A lot's ring; its back fence carries the other row's lot-line vertices. */
function lotRing(lot: Lot) {
  return lot.row === 'bottom'
    ? rectRing(lot.u0, lot.u1, lot.v0, lot.v1, [], lot.backNodes)
    : rectRing(lot.u0, lot.u1, lot.v0, lot.v1, lot.backNodes, []);
}

/** One block's parcels and their addresses: each block is one registered plan. */
function emitBlock(seed: number, ctx: SuburbAddressing, block: BlockPlan, r: number, j: number, out: Batcher): void {
  const { spec, grid, mint, frame } = ctx;
  const rng = Rng.for(seed, spec.key, 'addresses', r, j);
  const blockPlan = mint.plan(rng.weighted(spec.plans));
  // the land layers draw from a stream of their own, so they leave every other table as it was
  const landRng = Rng.for(seed, spec.key, 'land', r, j);
  const developmentRng = Rng.for(seed, spec.key, 'development', r, j);
  const spearLots: SpearLot[] = [];
  let lotNumber = 0;
  for (const lot of blockLots(seed, spec, grid, block, r, j)) {
    const frontage = frontageOf(rng, grid, ctx.streets, lot, r, j);
    if (lot.kind !== 'park' && rng.chance(0.01)) out.push('address_detail', unplacedAddress(rng, ctx, lot, frontage));
    const addressing = chooseAddressing(rng, lot, frontage, grid, spec.fringe);
    // a NSW block of units is a strata scheme: its land is the common property of its own SP plan
    const strata = spec.state === 'NSW' && addressing.kind === 'units';
    const planNumber = strata ? mint.plan('SP_STRATA') : blockPlan;
    const lotLabel = strata ? 'CP' : String(++lotNumber);
    const pfi = mint.parcelPfi();
    const { rows, ezi } = lotAddresses(rng, ctx, lot, frontage, addressing, { pfi, lot: lotLabel, plan: planNumber });
    const polygon = frame.polygon(lotRing(lot));
    out.push('parcel', {
      state: spec.state,
      parcel_pfi: pfi,
      parcel_spi: parcelSpi(spec.state, lotLabel, planNumber),
      parcel_lot_number: lotLabel,
      parcel_plan_number: planNumber,
      ezi_address: ezi,
      area_m2: polygon.areaM2,
      wkt: polygon.wkt,
    });
    for (const address of rows) out.push('address_detail', address);
    pushLandRows(landRng, { spec, frame, lot, pfi, plan: planNumber, areaM2: polygon.areaM2 }, out);
    pushDevelopmentRows(developmentRng, { spec, lot, pfi, addresses: rows }, out);
    const placed = rows.find((a) => a.parcel_pfi === pfi && a.geocode_type !== 'STL');
    if (placed && lot.kind !== 'park') {
      spearLots.push({ pfi, lng: placed.lng, lat: placed.lat, address: placed.formatted_address });
    }
  }
  pushSpearRows(Rng.for(seed, spec.key, 'spear', r, j), spec, spearLots, out);
}

export function* suburbRows(
  seed: number,
  plan: SuburbPlan,
  mint: IdMint,
  firstHeritage: number,
  out: Batcher,
): Generator<SandboxBatch> {
  const { spec, grid, frame } = plan;
  const localityPid = mint.localityPid();
  out.push('locality', {
    locality_pid: localityPid,
    locality_name: spec.name,
    state: spec.state,
    state_pid: statePid(spec.state),
    postcode: spec.postcode,
    locality_class_code: 'G',
    lga_code: spec.lga.code,
    lga_name: spec.lga.name,
  });
  const streets = buildStreets(Rng.for(seed, spec.key, 'streets'), spec, grid, mint);
  for (const s of streets.streets) {
    out.push('street_locality', {
      street_locality_pid: s.pid,
      locality_pid: localityPid,
      street_name: s.name,
      street_type_code: s.type,
      street_suffix_code: s.suffix,
      street_class_code: 'C',
    });
  }
  const ctx: SuburbAddressing = { spec, localityPid, frame, grid, streets, mint, numbers: new HouseNumbers() };
  const roadCode = zoneCode(spec.planning, 'road');
  const lga = { state: spec.state, lga_code: spec.lga.code, lga_name: spec.lga.name };
  let zoneCount = 0;
  const pushZone = (shape: Shape) => {
    zoneCount += 1;
    out.push('zone', {
      id: `${spec.key}-zone-${String(zoneCount).padStart(5, '0')}`,
      ...lga,
      scheme_code: shape.code.scheme,
      zone_code: shape.code.code,
      zone_description: shape.code.description,
      wkt: frame.polygon(shape.ring).wkt,
    });
  };

  const roads: RoadContext = { spec, grid, frame, streets };
  for (const [r, blocks] of plan.blocks.entries()) {
    for (const [j, block] of blocks.entries()) emitBlock(seed, ctx, block, r, j, out);
    if (spec.planningCovered) rowZones(grid, blocks, r, roadCode !== null).forEach(pushZone);
    for (const road of roadRows(roads, r)) out.push('road', road);
    yield* out.drain(false);
  }
  for (const road of roadRows(roads, grid.rows.length)) out.push('road', road);

  if (spec.planningCovered) {
    if (roadCode) pushZone(mainRoadZone(grid, roadCode));
    overlayShapes(Rng.for(seed, spec.key, 'overlays'), spec, grid, firstHeritage).forEach((shape, i) => {
      out.push('overlay', {
        id: `${spec.key}-overlay-${String(i + 1).padStart(4, '0')}`,
        ...lga,
        scheme_code: shape.code.scheme,
        overlay_code: shape.code.code,
        overlay_description: shape.code.description,
        wkt: frame.planarPolygon(shape.ring).wkt,
      });
    });
  }
  // planning reaches exactly as far as the cadastre here; only a suburb without planning lacks it
  const coverage = { state: spec.state, name: spec.name, wkt: frame.polygon(coverageRing(grid)).wkt };
  if (spec.planningCovered) out.push('planning_coverage', coverage);
  out.push('cadastre_coverage', coverage);
  pushLandCoverage(spec, coverage.wkt, out);
  const ugb = ugbRow(spec, grid, frame);
  if (ugb) out.push('ugb', ugb);
  out.push('climate_zone', climateZoneRow(spec, grid, frame));
  const soil = soilRows(spec, grid, frame);
  for (const row of soil.polygons) out.push('soil_polygon', row);
  for (const row of soil.coverage) out.push('soil_coverage', row);
  const hazards = hazardRows(spec, grid, frame);
  for (const row of hazards.overlays) out.push('hazard_overlay', row);
  for (const row of hazards.sites) out.push('contamination_site', row);
  for (const row of hazards.vegetation) out.push('vegetation', row);
  for (const row of hazards.coverage) out.push('hazard_coverage', row);
  yield* out.drain(false);
}
