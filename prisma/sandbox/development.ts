/**
 * Synthetic development applications for the sandbox, labelled demo: about one lot in twelve
 * carries an application (shops more often; a few carry two), lodged between 2022 and late 2025 with its council's
 * reference style, every status and category, and the address and parcel it stands on. Each
 * lot draws from its block's own random stream, so adding this layer left every other table
 * of the sandbox exactly as it was.
 */
import type { Batcher } from './batcher.ts';
import { IdMint } from './identifiers.ts';
import type { Lot } from './lots.ts';
import type { Rng } from './random.ts';
import type { AddressRow, DevelopmentCategory, DevelopmentStatus } from './rows.ts';
import type { SandboxState, SuburbSpec } from './suburbs.ts';

/** The formats each state's synthetic applications imitate (their credit names them). */
export const DA_MODELLED_ON: Record<SandboxState, string> = {
  VIC: 'PlanningAlerts (VIC councils)',
  NSW: 'NSW Planning Portal DA API',
  QLD: 'PlanningAlerts (QLD councils)',
};

/** The day the sandbox's applications were last looked at: nothing is lodged after it. */
const AS_AT = Date.UTC(2025, 9, 31);
const FIRST_LODGED = Date.UTC(2022, 0, 3);
const DAY_MS = 86_400_000;

const REFERENCE: Record<SandboxState, (year: number, n: string) => string> = {
  VIC: (year, n) => `DR/${n}/${year}`,
  NSW: (year, n) => `DA/${year}/${n}`,
  QLD: (year, n) => `DA-${year}-${n}`,
};

const DESCRIPTIONS: Record<DevelopmentCategory, readonly string[]> = {
  dwelling: ['Construction of a single dwelling', 'Two dwellings on a lot', 'Construction of a double-storey dwelling'],
  alterations: ['Alterations and additions to the existing dwelling', 'Rear extension and deck', 'Carport and garage'],
  subdivision: ['Two-lot subdivision', 'Subdivision into three lots and common property'],
  demolition: ['Demolition of the existing dwelling', 'Demolition of outbuildings'],
  commercial: ['Change of use to a food and drink premises', 'Shopfront alterations and signage', 'Medical centre'],
  industrial: ['Warehouse and ancillary office', 'Light industrial units'],
  other: ['Removal of native vegetation', 'Swimming pool and fence', 'Telecommunications facility'],
};

function categoryOf(rng: Rng, lot: Lot, fringe: boolean): DevelopmentCategory {
  if (lot.kind === 'commercial') {
    return rng.weighted([
      ['commercial', 5],
      ['alterations', 2],
      ['demolition', 1],
      ['industrial', 2],
    ] as const);
  }
  return rng.weighted([
    ['dwelling', 5],
    ['alterations', 5],
    ['subdivision', fringe ? 3 : 1],
    ['demolition', 1],
    ['other', 1],
  ] as const);
}

/** What became of an application lodged `ageDays` ago: the young ones are still being assessed. */
function outcomeOf(rng: Rng, ageDays: number): DevelopmentStatus {
  if (ageDays < 30) return rng.chance(0.5) ? 'lodged' : 'under_assessment';
  if (ageDays < 120 && rng.chance(0.5)) return 'under_assessment';
  return rng.weighted([
    ['approved', 12],
    ['refused', 2],
    ['withdrawn', 1],
    ['determined', 2],
  ] as const);
}

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export interface DevelopmentLot {
  spec: SuburbSpec;
  lot: Lot;
  pfi: string;
  /** The lot's addresses: the application is lodged against the first, at its point. */
  addresses: readonly AddressRow[];
}

/** One lot's applications, drawn from `rng` (its block's development stream). */
export function pushDevelopmentRows(rng: Rng, land: DevelopmentLot, out: Batcher): void {
  const { spec, lot, pfi } = land;
  const address = land.addresses.find((a) => a.parcel_pfi === pfi && a.geocode_type !== 'STL');
  // shops change hands and fit out often: their lots carry applications more often than houses
  if (!address || lot.kind === 'park' || !rng.chance(lot.kind === 'commercial' ? 0.4 : 0.08)) return;
  const count = rng.chance(0.15) ? 2 : 1;
  for (let i = 0; i < count; i++) {
    const lodged = FIRST_LODGED + rng.int(0, Math.floor((AS_AT - FIRST_LODGED) / DAY_MS)) * DAY_MS;
    const ageDays = (AS_AT - lodged) / DAY_MS;
    const status = outcomeOf(rng, ageDays);
    const decided = ['lodged', 'under_assessment'].includes(status)
      ? null
      : Math.min(AS_AT, lodged + rng.int(status === 'withdrawn' ? 10 : 25, 240) * DAY_MS);
    const category = categoryOf(rng, lot, spec.fringe);
    const descriptions = DESCRIPTIONS[category];
    const description = descriptions[rng.int(0, descriptions.length - 1)]!;
    const year = new Date(lodged).getUTCFullYear();
    // the lot's place in its state's PFI series: the PFI's last six digits until a state passes a million
    // PFI numbers, where those repeated and a million-parcel sandbox broke the unique reference
    const serial = String(IdMint.pfiSerial(spec.state, pfi)).padStart(6, '0');
    const reference = REFERENCE[spec.state](year, `${serial}${i}`);
    // the source's last change: the decision, or a step of the assessment after lodgement
    const changed = (decided ?? Math.min(AS_AT, lodged + rng.int(0, 20) * DAY_MS)) + rng.int(8, 17) * 3_600_000;
    const dwellings =
      category === 'dwelling' ? (description.startsWith('Two') ? 2 : 1) : category === 'subdivision' ? 0 : null;
    out.push('development_application', {
      source: 'sandbox',
      authority: spec.lga.name,
      council_reference: reference,
      state: spec.state,
      lga_code: spec.lga.code,
      lga_name: spec.lga.name,
      suburb: spec.name,
      address: address.formatted_address,
      gnaf_pid: address.gnaf_pid,
      parcel_pfi: pfi,
      description,
      category,
      status,
      lodged_date: isoDate(lodged),
      decided_date: decided === null ? null : isoDate(decided),
      estimated_cost: category === 'other' && rng.chance(0.3) ? null : Math.round(rng.range(8, 900)) * 1_000,
      dwellings_proposed: dwellings,
      source_url: `https://sandbox.landgraph.invalid/development-applications/${spec.state.toLowerCase()}/${encodeURIComponent(reference)}`,
      attribution: developmentCredit(spec.state),
      updated_at: new Date(changed).toISOString(),
      lng: address.lng,
      lat: address.lat,
    });
  }
}

/** The credit every sandbox application carries: the same words as its dataset_source row. */
export function developmentCredit(state: SandboxState): string {
  return `Landgraph sandbox: synthetic demo data, not real ${state} development applications (modelled on ${DA_MODELLED_ON[state]} formats). Do not rely on it.`;
}
