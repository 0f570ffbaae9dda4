/**
 * Synthetic SPEAR applications for the sandbox's Victorian suburbs, labelled demo. SPEAR is
 * Victoria's, so NSW and QLD get none (and no dataset_source row: they answer not_covered).
 * A block is one registered plan, so its applications touch one to three neighbouring lots of
 * it (a subdivision or a boundary realignment spans lots); about one lot in ten is touched, a
 * few lots by two applications. The block's own random stream keeps every other table as it was.
 */
import type { Batcher } from './batcher.ts';
import { IdMint } from './identifiers.ts';
import type { Rng } from './random.ts';
import type { SpearApplicationType, SpearStatus } from './rows.ts';
import type { SuburbSpec } from './suburbs.ts';

export const SPEAR_MODELLED_ON = { VIC: 'SPEAR public application search' } as const;

const AS_AT = Date.UTC(2025, 9, 31);
const FIRST_LODGED = Date.UTC(2021, 6, 1);
const DAY_MS = 86_400_000;

export const SPEAR_TYPES: readonly SpearApplicationType[] = [
  'planning_permit',
  'subdivision_permit',
  'certification',
  'permit_and_certification',
  'statement_of_compliance',
  'plan_of_subdivision',
  'other',
];

const DESCRIPTIONS: Record<SpearApplicationType, string> = {
  planning_permit: 'Planning permit: development of two dwellings',
  subdivision_permit: 'Planning permit for a two-lot subdivision',
  certification: 'Certification of a plan of subdivision',
  permit_and_certification: 'Subdivision permit and certification of the plan (three lots)',
  statement_of_compliance: 'Statement of compliance for a plan of subdivision',
  plan_of_subdivision: 'Plan of subdivision lodged with Land Use Victoria for registration',
  other: 'Boundary realignment',
};

/** The statuses an application of a type can reach once decided (the undecided ones are shared). */
const DECIDED: Record<SpearApplicationType, readonly SpearStatus[]> = {
  planning_permit: ['approved', 'refused', 'withdrawn', 'lapsed'],
  subdivision_permit: ['approved', 'refused', 'lapsed'],
  certification: ['certified', 'withdrawn'],
  permit_and_certification: ['approved', 'certified', 'refused'],
  statement_of_compliance: ['compliance_issued'],
  plan_of_subdivision: ['registered'],
  other: ['approved', 'withdrawn'],
};

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The reference's number: the lot's place in its state's PFI series (which starts at 1,000,000 and only rises),
 * six digits while it fits. The PFI's last six digits repeated once a state passed a million PFI numbers,
 * so a million-parcel sandbox collided on the unique reference; below that the two are the same digits.
 */
function spearNumber(pfi: string): string {
  return String(IdMint.pfiSerial('VIC', pfi)).padStart(6, '0');
}

export type SpearLot = { pfi: string; lng: number; lat: number; address: string };

/** The applications of one block's lots (in frontage order), drawn from `rng` (the block's SPEAR stream). */
export function pushSpearRows(rng: Rng, spec: SuburbSpec, lots: readonly SpearLot[], out: Batcher): void {
  if (spec.state !== 'VIC') return;
  for (let i = 0; i < lots.length; i++) {
    if (!rng.chance(0.1)) continue;
    const count = rng.chance(0.2) ? 2 : 1;
    for (let k = 0; k < count; k++) {
      const type = SPEAR_TYPES[rng.int(0, SPEAR_TYPES.length - 1)]!;
      const span = type === 'planning_permit' ? 1 : rng.int(1, 3);
      const touched = lots.slice(i, i + span);
      const first = touched[0]!;
      const lodged = FIRST_LODGED + rng.int(0, Math.floor((AS_AT - FIRST_LODGED) / DAY_MS)) * DAY_MS;
      const age = (AS_AT - lodged) / DAY_MS;
      const outcomes = DECIDED[type];
      const status: SpearStatus =
        age < 40
          ? 'lodged'
          : age < 150 && rng.chance(0.5)
            ? 'under_assessment'
            : outcomes[rng.int(0, outcomes.length - 1)]!;
      const decided =
        status === 'lodged' || status === 'under_assessment'
          ? null
          : Math.min(AS_AT, lodged + rng.int(20, 300) * DAY_MS);
      const reference = `S${spearNumber(first.pfi)}${'ABCDEFGH'[k]}`;
      const changed = (decided ?? Math.min(AS_AT, lodged + rng.int(0, 30) * DAY_MS)) + rng.int(8, 17) * 3_600_000;
      out.push('spear_application', {
        source: 'sandbox',
        spear_reference: reference,
        application_type: type,
        responsible_authority: spec.lga.name,
        council_reference:
          type === 'certification' || type === 'plan_of_subdivision'
            ? null
            : `PLN/${new Date(lodged).getUTCFullYear()}/${reference.slice(1, 5)}`,
        lga_code: spec.lga.code,
        status,
        description: DESCRIPTIONS[type],
        lodged_date: isoDate(lodged),
        decided_date: decided === null ? null : isoDate(decided),
        parcel_pfis: touched.map((l) => l.pfi),
        address: first.address,
        source_url: `https://sandbox.landgraph.invalid/spear/${reference}`,
        attribution: spearCredit(),
        updated_at: new Date(changed).toISOString(),
        lng: first.lng,
        lat: first.lat,
      });
    }
  }
}

/** The credit every sandbox SPEAR application carries: the same words as its dataset_source row. */
export function spearCredit(): string {
  return `Landgraph sandbox: synthetic demo data, not real VIC SPEAR applications (modelled on ${SPEAR_MODELLED_ON.VIC} formats). Do not rely on it.`;
}
