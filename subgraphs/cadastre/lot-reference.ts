import { badRequest } from '../../core/errors.ts';
import type { StateCode } from '../../core/geo.ts';
import { assertState } from '../../core/validate.ts';

/**
 * A lot on a plan, read from the ways people and registries write one, with the state's own
 * single-line form (its SPI) to look the parcel up by.
 */
export interface LotReference {
  /** The lot, or the allotment of Victorian crown land; null when only a plan was given. */
  readonly lot: string | null;
  /** The NSW section, or the section of a Victorian crown allotment. */
  readonly section: string | null;
  /** Plan type and number together ("PS612345"); "PARISH OF KILMORE" for crown land named by its parish. */
  readonly plan: string;
  /** PS, LP, TP, CP, CS, PC, PP (a Victorian parish or township), SP, RP, DP, BUP, GTP; PARISH when named. */
  readonly planType: string;
  /** Empty for crown land named by its parish. */
  readonly planNumber: string;
  /** The state given, or the one the plan type and the way it is written imply; null when they do not say. */
  readonly state: StateCode | null;
  /**
   * The state's canonical form: VIC "3\PS612345" (crown land "12~4\PP3019"), NSW "3//DP123456" or "3/2/DP1234",
   * QLD "3SP210455"; elsewhere, or when the state is unknown, G-NAF's LEGAL_PARCEL_ID style "3/SP210455". Null
   * only for crown land named by its parish, whose code the text does not carry.
   */
  readonly spi: string | null;
  /** The parish or township named for Victorian crown land ("KILMORE"); otherwise null. */
  readonly parish: string | null;
  readonly input: string;
}

// The states each plan type is registered in, as far as this parser knows them.
const PLAN_TYPES: Readonly<Record<string, readonly StateCode[]>> = {
  PS: ['VIC'],
  LP: ['VIC'],
  TP: ['VIC'],
  CS: ['VIC'],
  PC: ['VIC'],
  PP: ['VIC'],
  CP: ['VIC', 'QLD'],
  RP: ['QLD', 'VIC'],
  SP: ['NSW', 'QLD', 'VIC'],
  DP: ['NSW'],
  BUP: ['QLD'],
  GTP: ['QLD'],
};

const PLAN_NAMES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bPLAN OF SUBDIVISION\b/g, 'PS'],
  [/\bPLAN OF CONSOLIDATION\b/g, 'PC'],
  [/\bLODGED PLAN\b/g, 'LP'],
  [/\bTITLE PLAN\b/g, 'TP'],
  [/\bDEPOSITED PLAN\b/g, 'DP'],
  [/\bSTRATA PLAN\b/g, 'SP'],
  [/\bSURVEY PLAN\b/g, 'SP'],
  [/\bREGISTERED PLAN\b/g, 'RP'],
  [/\bCROWN PLAN\b/g, 'CP'],
  [/\bBUILDING UNITS? PLAN\b/g, 'BUP'],
  [/\bGROUP TITLES? PLAN\b/g, 'GTP'],
  [/\bSECTION\b/g, 'SEC'],
];

const MAX_LENGTH = 200;

const NOT_A_REFERENCE_HINT =
  "Write a lot and its plan, e.g. 'Lot 3 PS612345' or '3\\PS612345' (VIC), 'Lot 10 DP123456', '10//DP123456' " +
  "or '10/2/DP1234' (NSW), 'Lot 3 RP123456' or '3RP123456' (QLD), or crown land as 'Crown Allotment 12 " +
  "Section 4 Parish of Kilmore'.";

const LOT = '(?<lot>(?!LOT\\b)[A-Z0-9]{1,8})';
const PLAN = '(?<type>[A-Z]{2,3})(?<number>\\d{1,8})(?<check>[A-Z])?';
const SPACED_PLAN = '(?<type>[A-Z]{2,3}) ?(?<number>\\d{1,8})(?<check>[A-Z])?';
// Written together, the lot's last letter and the plan type's first would blur: only known types end the lot.
const KNOWN_PLAN = `(?<type>${Object.keys(PLAN_TYPES)
  .sort((a, b) => b.length - a.length)
  .join('|')})(?<number>\\d{1,8})(?<check>[A-Z])?`;
// Ways of writing a reference, tried in order on the upper-cased text with single spaces.
const FORMS: ReadonlyArray<{ form: Form; pattern: RegExp }> = [
  { form: 'vicmap', pattern: new RegExp(`^(?:LOT ?)?${LOT}(?: ?~ ?(?<section>[A-Z0-9]{1,8}))? ?\\\\ ?${PLAN}$`) },
  { form: 'nsw', pattern: new RegExp(`^(?:LOT ?)?(?<lot>[A-Z0-9]{0,8}) ?/ ?(?<section>[A-Z0-9]{0,8}) ?/ ?${PLAN}$`) },
  { form: 'slash', pattern: new RegExp(`^(?:LOT ?)?${LOT} ?/ ?${PLAN}$`) },
  { form: 'joined', pattern: new RegExp(`^(?:LOT ?)?(?<lot>\\d{1,6}[A-Z]?)${KNOWN_PLAN}$`) },
  {
    form: 'words',
    pattern: new RegExp(`^(?:LOT )?${LOT} (?:SEC (?<section>[A-Z0-9]{1,8}) )?(?:ON )?(?:PLAN )?${SPACED_PLAN}$`),
  },
  { form: 'plan', pattern: new RegExp(`^(?:PLAN )?${SPACED_PLAN}$`) },
  {
    form: 'crown',
    pattern:
      /^(?:CROWN ALLOTMENT|CROWN ALLOT|ALLOTMENT|ALLOT|CA) ?(?<lot>[A-Z0-9]{1,8})(?: SEC ?(?<section>[A-Z0-9]{1,8}))?(?: (?:(?:PARISH|TOWNSHIP) OF (?<parish>[A-Z][A-Z' -]*)|(?:PARISH |PP ?)(?<number>\d{1,6}[A-Z]?)))$/,
  },
];

type Form = 'vicmap' | 'nsw' | 'slash' | 'joined' | 'words' | 'plan' | 'crown';

/**
 * Reads a lot/plan reference. Throws a 400 AppError when the text is not one, or when the plan
 * type cannot be in the state given.
 */
export function parseLotReference(text: string, state?: string): LotReference {
  const input = text.trim();
  if (input.length > MAX_LENGTH) {
    throw badRequest(`A lot/plan reference is at most ${MAX_LENGTH} characters.`, NOT_A_REFERENCE_HINT);
  }
  const given = state === undefined || state.trim() === '' ? null : assertState(state);
  const normal = normalise(input);
  for (const { form, pattern } of FORMS) {
    const groups = pattern.exec(normal)?.groups;
    if (groups) return build(input, form, groups, given);
  }
  throw badRequest(`'${input}' is not a lot/plan reference.`, NOT_A_REFERENCE_HINT);
}

function normalise(input: string): string {
  let text = input.toUpperCase().replace(/[,.:;#]/g, ' ');
  for (const [name, code] of PLAN_NAMES) text = text.replace(name, code);
  return text.replace(/\s+/g, ' ').trim();
}

function build(
  input: string,
  form: Form,
  groups: Record<string, string | undefined>,
  given: StateCode | null,
): LotReference {
  const lot = groups.lot || null;
  const section = groups.section || null;
  if (form === 'crown') return crownAllotment(input, lot, section, groups, given);

  const planType = groups.type ?? '';
  const states = PLAN_TYPES[planType];
  if (!states) {
    throw badRequest(
      `'${input}' names plan type ${planType}, which is not one Landgraph reads.`,
      `Known plan types: ${Object.keys(PLAN_TYPES).join(', ')}. ${NOT_A_REFERENCE_HINT}`,
    );
  }
  // Only Victorian plan numbers carry a check letter ("PS612345X"); the SPI leaves it out.
  if (groups.check && !states.includes('VIC')) {
    throw badRequest(`'${input}' is not a lot/plan reference.`, NOT_A_REFERENCE_HINT);
  }
  const planNumber = groups.number ?? '';
  const plan = `${planType}${planNumber}`;
  const inState = given ?? impliedState(input, form, planType, states);
  // Plans of the states this parser does not model (WA, SA, TAS...) are taken as written.
  if (given && isModelled(given) && !states.includes(given)) {
    throw badRequest(
      `${planType} plans are not registered in ${given}: '${input}' cannot be a ${given} parcel.`,
      `${planType} plans are used in ${states.join(', ')}. ${NOT_A_REFERENCE_HINT}`,
    );
  }
  return {
    lot,
    section,
    plan,
    planType,
    planNumber,
    state: inState,
    spi: spi(inState, lot, section, plan),
    parish: null,
    input,
  };
}

const isModelled = (state: StateCode) => state === 'VIC' || state === 'NSW' || state === 'QLD';

function impliedState(input: string, form: Form, planType: string, states: readonly StateCode[]): StateCode | null {
  if (form === 'joined' && states.includes('QLD')) return 'QLD';
  const written: Partial<Record<Form, StateCode>> = { vicmap: 'VIC', nsw: 'NSW' };
  const byForm = written[form];
  if (byForm) {
    if (!states.includes(byForm)) {
      throw badRequest(
        `'${input}' is written the ${byForm} way, but ${planType} plans are not registered in ${byForm}.`,
        NOT_A_REFERENCE_HINT,
      );
    }
    return byForm;
  }
  if (states.length === 1) return states[0] ?? null;
  // G-NAF writes Queensland's LEGAL_PARCEL_ID as "16/SP210455".
  if (form === 'slash' && planType === 'SP') return 'QLD';
  // Registered plans are Queensland's but for old Victorian strata plans; a CP not written the Queensland way
  // ("3CP123456") is taken as Victoria's; a strata plan in words could be any of three states, so it stays unknown.
  if (planType === 'RP') return 'QLD';
  if (planType === 'CP') return 'VIC';
  return null;
}

function spi(state: StateCode | null, lot: string | null, section: string | null, plan: string): string {
  switch (state) {
    case 'VIC':
      return lot ? `${lot}${section ? `~${section}` : ''}\\${plan}` : plan;
    case 'NSW':
      return `${lot ?? ''}/${section ?? ''}/${plan}`;
    case 'QLD':
      return `${lot ?? ''}${plan}`;
    default:
      return lot ? [lot, section, plan].filter(Boolean).join('/') : plan;
  }
}

function crownAllotment(
  input: string,
  lot: string | null,
  section: string | null,
  groups: Record<string, string | undefined>,
  given: StateCode | null,
): LotReference {
  if (given && given !== 'VIC') {
    throw badRequest(
      `Crown allotments are read for Victoria only: '${input}' cannot be a ${given} parcel.`,
      NOT_A_REFERENCE_HINT,
    );
  }
  const parish = groups.parish?.trim() ?? null;
  if (parish) {
    const plan = `PARISH OF ${parish}`;
    return { lot, section, plan, planType: 'PARISH', planNumber: '', state: 'VIC', spi: null, parish, input };
  }
  const planNumber = groups.number ?? '';
  const plan = `PP${planNumber}`;
  return {
    lot,
    section,
    plan,
    planType: 'PP',
    planNumber,
    state: 'VIC',
    spi: spi('VIC', lot, section, plan),
    parish: null,
    input,
  };
}
