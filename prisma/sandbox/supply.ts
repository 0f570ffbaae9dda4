/**
 * Synthetic land supply for the sandbox, labelled demo: greenfield estates beside its growth
 * suburbs (Huntly and Kangaroo Flat VIC, Castle Hill NSW, North Lakes QLD), each two rows of lots
 * back to back, turned to its own street bearing (twelve of the 16 aspects between them), with a year of weekly
 * listings: lots released in stages, going under offer, sold or withdrawn, prices trimmed now
 * and then. Some lots carry no drawn frontage but a plan north point or listing words, and a few
 * nothing at all (aspect null). Drawn from its own random stream, so it leaves every other
 * table of the sandbox as it was.
 */
import { deriveAspect } from '../../core/aspect.ts';
import type { LngLat } from '../../core/aspect.ts';
import type { Batcher } from './batcher.ts';
import { Rng } from './random.ts';
import type { SalesStatus, TitleStatus } from './rows.ts';
import type { SandboxState, SuburbSpec } from './suburbs.ts';

export const SUPPLY_MODELLED_ON: Record<SandboxState, string> = {
  VIC: 'developer price lists and Vicmap Property',
  NSW: 'developer price lists and the NSW Digital Cadastral Database',
  QLD: 'developer price lists and the Queensland DCDB',
};

/** The weeks of history: 52 Mondays up to the week the sandbox's listings were last read. */
export const SUPPLY_LAST_WEEK = '2025-10-27';
export const SUPPLY_WEEKS = 52;
const DAY_MS = 86_400_000;
const LAST_WEEK_MS = Date.parse(`${SUPPLY_LAST_WEEK}T00:00:00Z`);
export const weekAt = (i: number) =>
  new Date(LAST_WEEK_MS - (SUPPLY_WEEKS - 1 - i) * 7 * DAY_MS).toISOString().slice(0, 10);

/** The estates of each growth suburb: where they lie from its centre (km east, km north) and their street bearing. */
type EstatePlan = {
  name: string;
  developer: string;
  east: number;
  north: number;
  bearing: number;
  base: number;
  lots: number;
};
const ESTATES: Record<string, readonly EstatePlan[]> = {
  HUNTLY: [
    { name: 'Huntly Rise', developer: 'Sandbox Land Co', east: 1.2, north: 0.9, bearing: 0, base: 210_000, lots: 36 },
    {
      name: 'Bendigo Creek Fields',
      developer: 'Demo Communities',
      east: -1.1,
      north: 1.3,
      bearing: 22.5,
      base: 195_000,
      lots: 36,
    },
  ],
  'KANGAROO FLAT': [
    {
      name: 'Flat Hill Views',
      developer: 'Sandbox Land Co',
      east: -1.6,
      north: -1.2,
      bearing: 45,
      base: 240_000,
      lots: 36,
    },
  ],
  'CASTLE HILL': [
    {
      name: 'Hills Ridge (demo)',
      developer: 'Example Urban',
      east: -2.4,
      north: 1.8,
      bearing: 67.5,
      base: 890_000,
      lots: 36,
    },
    // announced, nothing released yet
    {
      name: 'Cattai Creek (demo)',
      developer: 'Example Urban',
      east: -3.2,
      north: 2.6,
      bearing: 0,
      base: 900_000,
      lots: 0,
    },
  ],
  'NORTH LAKES': [
    {
      name: 'Lakeside Meadows',
      developer: 'Demo Communities',
      east: 1.8,
      north: 1.5,
      bearing: 112.5,
      base: 410_000,
      lots: 36,
    },
    {
      name: 'Mango Hill Grove',
      developer: 'Example Urban',
      east: -1.7,
      north: 1.1,
      bearing: 135,
      base: 395_000,
      lots: 36,
    },
  ],
};

export interface SupplyEstateRow {
  estate_id: string;
  name: string;
  developer: string;
  state: SandboxState;
  lga_code: string;
  lga_name: string;
  suburb: string;
  status: 'selling' | 'coming_soon' | 'sold_out';
  attribution: string;
  lng: number;
  lat: number;
}

export interface SupplyLotRow {
  lot_id: string;
  estate_id: string;
  lot_number: string;
  state: SandboxState;
  suburb: string;
  asking_price: number;
  area_m2: number;
  frontage_m: number;
  depth_m: number;
  title_status: TitleStatus;
  sales_status: SalesStatus;
  aspect: string | null;
  aspect_source: string | null;
  listing_text: string | null;
  listed_week: string | null;
  updated_at: string;
  lng: number;
  lat: number;
  /** WKT, or null where the plan was not drawn. */
  boundary: string | null;
  frontage_edge: string | null;
}

export interface SupplySnapshotRow {
  lot_id: string;
  week: string;
  asking_price: number;
  sales_status: SalesStatus;
}

export function supplyCredit(state: SandboxState): string {
  return `Landgraph sandbox: synthetic demo data, not real ${state} land supply (modelled on ${SUPPLY_MODELLED_ON[state]} formats). Do not rely on it.`;
}

const M_PER_DEG_LAT = 110_574;
const mPerDegLng = (lat: number) => 111_320 * Math.cos((lat * Math.PI) / 180);

/** A point `east`/`north` metres from an origin. */
function offset(origin: LngLat, east: number, north: number): LngLat {
  return [origin[0] + east / mPerDegLng(origin[1]), origin[1] + north / M_PER_DEG_LAT];
}

const fmt = (p: LngLat) => `${p[0].toFixed(7)} ${p[1].toFixed(7)}`;

const TEXTS = [
  'North-facing backyard, walk to the future town centre.',
  'Rare east-facing block close to the park.',
  'Backyard faces south-west; wide frontage.',
  'Level lot, ready to build.',
];

/** Every estate, lot and weekly snapshot of one suburb (nothing for a suburb with no estate). */
export function pushSupplyRows(seed: number, spec: SuburbSpec, out: Batcher): void {
  const estates = ESTATES[spec.name];
  if (!estates) return;
  estates.forEach((plan, e) => {
    const rng = Rng.for(seed, spec.key, 'supply', e);
    const centre = offset([spec.centre.lng, spec.centre.lat], plan.east * 1000, plan.north * 1000);
    const estateId = `${spec.state.toLowerCase()}-${spec.name.toLowerCase().replace(/\s+/g, '-')}-${e + 1}`;
    const lotRows: SupplyLotRow[] = [];
    const snapshots: SupplySnapshotRow[] = [];
    // two rows of lots back to back along a street; the second row fronts the parallel street
    // behind, so its rear faces the other way: each estate gives two aspects, the six give twelve
    // plus four more from the turned stage at the end of each first row
    const theta = (plan.bearing * Math.PI) / 180;
    const along: [number, number] = [Math.sin(theta), Math.cos(theta)];
    const across: [number, number] = [Math.sin(theta + Math.PI / 2), Math.cos(theta + Math.PI / 2)];
    const at = (a: number, c: number) => offset(centre, a * along[0] + c * across[0], a * along[1] + c * across[1]);
    for (let n = 0; n < plan.lots; n++) {
      const row = n % 2;
      const k = Math.floor(n / 2);
      const frontage = Math.round(rng.range(10, 18) * 2) / 2;
      const depth = Math.round(rng.range(25, 34) * 2) / 2;
      const a0 = k * 20 - 180;
      // row 0 fronts the street at across = -depth and runs to the shared rear line at 0; row 1 the mirror
      const sign = row === 0 ? -1 : 1;
      const front = [at(a0, sign * depth), at(a0 + frontage, sign * depth)] as const;
      const rear = [at(a0 + frontage, 0), at(a0, 0)] as const;
      const ring: LngLat[] = [front[0], front[1], rear[0], rear[1], front[0]];
      const middle = at(a0 + frontage / 2, (sign * depth) / 2);
      // how the plan came to us: mostly drawn with its frontage, else a north point or listing words
      const kind = rng.weighted([
        ['drawn', 8],
        ['plan', 1],
        ['text', 1],
        ['none', 1],
      ] as const);
      const drawn = kind === 'drawn';
      const text = kind === 'text' ? TEXTS[rng.int(0, TEXTS.length - 1)]! : null;
      const plan_ = kind === 'plan' ? { front_to_rear_deg: rng.int(0, 15) * 22.5, north_point_deg: 0 } : null;
      const aspect = deriveAspect({
        polygon: drawn ? ring : null,
        frontage: drawn ? front : null,
        plan: plan_,
        text,
      });
      const area = Math.round(frontage * depth);
      const price = Math.round((plan.base * (0.75 + area / 1800) * rng.range(0.95, 1.05)) / 500) * 500;
      const lotId = `${estateId}-lot-${String(n + 1).padStart(3, '0')}`;
      const history = lotHistory(rng, price, n);
      const last = history.at(-1);
      lotRows.push({
        lot_id: lotId,
        estate_id: estateId,
        lot_number: String(101 + n),
        state: spec.state,
        suburb: spec.name,
        asking_price: last?.asking_price ?? price,
        area_m2: area,
        frontage_m: frontage,
        depth_m: depth,
        title_status: history.length > 20 || n % 5 === 0 ? 'titled' : 'untitled',
        sales_status: last?.sales_status ?? 'available',
        aspect: aspect.aspect,
        aspect_source: aspect.aspect_source,
        listing_text: text,
        listed_week: history[0]?.week ?? null,
        updated_at: `${last?.week ?? SUPPLY_LAST_WEEK}T09:00:00.000Z`,
        lng: middle[0],
        lat: middle[1],
        boundary: drawn ? `POLYGON((${ring.map(fmt).join(', ')}))` : null,
        frontage_edge: drawn ? `LINESTRING(${fmt(front[0])}, ${fmt(front[1])})` : null,
      });
      for (const s of history) snapshots.push({ ...s, lot_id: lotId });
    }
    const onMarket = lotRows.some((l) => l.sales_status === 'available' || l.sales_status === 'under_offer');
    out.push('supply_estate', {
      estate_id: estateId,
      name: plan.name,
      developer: plan.developer,
      state: spec.state,
      lga_code: spec.lga.code,
      lga_name: spec.lga.name,
      suburb: spec.name,
      status: lotRows.length === 0 ? 'coming_soon' : onMarket ? 'selling' : 'sold_out',
      attribution: supplyCredit(spec.state),
      lng: centre[0],
      lat: centre[1],
    });
    for (const lot of lotRows) out.push('supply_lot', lot);
    for (const snapshot of snapshots) out.push('supply_lot_snapshot', snapshot);
  });
}

/**
 * One lot's weeks on the market: released in a stage (some before the year began), offers
 * taken and lost, then sold or withdrawn, or still listed at the end; never listed again once gone.
 */
function lotHistory(rng: Rng, price: number, n: number): Omit<SupplySnapshotRow, 'lot_id'>[] {
  const weeks: Omit<SupplySnapshotRow, 'lot_id'>[] = [];
  const release = Math.floor(n / 6) * 8 - 10 + rng.int(0, 3);
  if (release >= SUPPLY_WEEKS) return [];
  let asking = price;
  let status: SalesStatus = 'available';
  for (let w = Math.max(0, release); w < SUPPLY_WEEKS; w++) {
    if (status === 'available' && rng.chance(0.06)) asking = Math.round((asking * 0.97) / 500) * 500;
    weeks.push({ week: weekAt(w), asking_price: asking, sales_status: status });
    if (status === 'sold' || status === 'withdrawn') break;
    if (status === 'under_offer') status = rng.chance(0.5) ? 'sold' : rng.chance(0.3) ? 'available' : 'under_offer';
    else if (rng.chance(0.07)) status = 'under_offer';
    else if (rng.chance(0.008)) status = 'withdrawn';
  }
  return weeks;
}
