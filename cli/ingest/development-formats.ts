/**
 * The development-application formats the ingest reads, each mapped to one record shape:
 *
 * - `planningalerts`: the PlanningAlerts API's application JSON (applications.json), either the
 *   bare array of `{ application: {...} }` or the v2 body `{ application_count, page_count,
 *   applications: [...] }`. PlanningAlerts lists applications as councils put them on notice and
 *   publishes no outcome, so every record is `lodged`.
 * - `nsw-portal`: the NSW Planning Portal's Online DA data API JSON (`{ PageSize, PageNumber,
 *   TotalPages, TotalCount, Application: [...] }`, checked against real answers in
 *   data/samples/nsw-planning-portal-online-da), whose ApplicationStatus, DevelopmentType, Location
 *   (X is longitude, Y latitude, as strings; Suburb) and cost and dwelling counts map field by field.
 *   The API leaves out a field it has no value for, and the whole real answer seen has no
 *   DevelopmentDescription: the development types then stand in for the description.
 *
 * A record that cannot be read is reported with its place in the file and why, never fatal.
 */
import { detectState, isStateCode } from '../../core/geo.ts';
import type { FeatureNote } from './planning-load.ts';

export const DA_FORMATS = ['planningalerts', 'nsw-portal'] as const;
export type DaFormat = (typeof DA_FORMATS)[number];
export const isDaFormat = (value: string): value is DaFormat => (DA_FORMATS as readonly string[]).includes(value);

export type DaCategory =
  'dwelling' | 'alterations' | 'subdivision' | 'demolition' | 'commercial' | 'industrial' | 'other';
export type DaStatus = 'lodged' | 'under_assessment' | 'approved' | 'refused' | 'withdrawn' | 'determined';

export type DaRecord = {
  /** Where it is in the file: 1 for the first application. */
  seq: number;
  source: DaFormat;
  authority: string;
  council_reference: string;
  state: string;
  lga_code: string | null;
  lga_name: string | null;
  suburb: string | null;
  address: string | null;
  description: string | null;
  category: DaCategory;
  status: DaStatus;
  lodged_date: string | null;
  decided_date: string | null;
  estimated_cost: number | null;
  dwellings_proposed: number | null;
  source_url: string | null;
  attribution: string;
  license: string;
  /** ISO 8601 instant with its zone. */
  updated_at: string;
  lng: number | null;
  lat: number | null;
};

export type Credit = { attribution: string; license: string };

/** The credit of each source, carried by every record it gives (the state's or aggregator's words). */
export const DA_CREDITS: Record<DaFormat, Credit> = {
  planningalerts: {
    attribution:
      'Development applications from PlanningAlerts.org.au (OpenAustralia Foundation), collected from councils',
    license: 'PlanningAlerts API terms (planningalerts.org.au/api)',
  },
  'nsw-portal': {
    // the credit line the department asks for (as reported, not read from its dataset page)
    attribution:
      'NSW Planning Portal Online DA data © State Government of NSW and NSW Department of Planning, Housing and Infrastructure',
    license: 'CC BY 4.0',
  },
};

/** The kind of works, read from the words of the description and the source's development types. */
export function categoryOf(text: string): DaCategory {
  const t = text.toLowerCase();
  if (/subdivi|strata|boundary adjustment|consolidation of lots/.test(t)) return 'subdivision';
  if (
    /(new|single|double|two|multi|secondary|semi-detached)[- ]?(storey )?(dwelling|house)|dual occupancy|townhouse|residential flat|apartments?|multi-dwelling|\bunits?\b|construction of (a )?(dwelling|house)|^dwelling|dwelling house/.test(
      t,
    )
  ) {
    return 'dwelling';
  }
  if (/demoli/.test(t)) return 'demolition';
  if (/industrial|warehouse|factory|depot|storage premises/.test(t)) return 'industrial';
  if (
    /commercial|retail|shop|office|restaurant|cafe|food and drink|signage|medical|child ?care|business|hotel|change of use/.test(
      t,
    )
  ) {
    return 'commercial';
  }
  if (/alteration|addition|extension|carport|garage|deck|verandah|pergola|shed|renovation/.test(t))
    return 'alterations';
  return 'other';
}

/** The NSW portal's ApplicationStatus in our vocabulary; null for one we do not know. */
export function nswStatus(value: string): DaStatus | null {
  switch (value.trim().toLowerCase()) {
    case 'pending lodgement':
      return 'lodged';
    case 'under assessment':
    case 'on exhibition':
    case 'additional information requested':
    case 'pending court appeal':
      return 'under_assessment';
    case 'determined':
      return 'determined';
    // a consent that takes effect once a condition is met is an approval
    case 'deferred commencement':
    case 'approved':
      return 'approved';
    // rejected: the council would not accept the application; refused: it was assessed and refused
    case 'rejected':
    case 'refused':
      return 'refused';
    case 'withdrawn':
      return 'withdrawn';
    default:
      return null;
  }
}

/** The offset of Sydney's clock from UTC at an instant, in minutes. */
function sydneyOffsetMinutes(ms: number): number {
  const parts = new Intl.DateTimeFormat('en-AU', {
    timeZone: 'Australia/Sydney',
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(ms));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return Math.round((local - Math.floor(ms / 1000) * 1000) / 60_000);
}

const ZONED = /(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * An instant from a source's timestamp: one with a zone as it says; one without (the NSW portal
 * writes Sydney's wall clock) read in Australia/Sydney; a bare date as midnight there.
 */
export function instantOf(text: string): string | null {
  const value = text.trim();
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i.test(value)) return null;
  if (ZONED.test(value)) {
    const ms = Date.parse(value.replace(' ', 'T'));
    return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
  }
  const wall = Date.parse(`${value.length === 10 ? `${value}T00:00:00` : value.replace(' ', 'T')}Z`);
  if (!Number.isFinite(wall) || new Date(wall).toISOString().slice(0, 10) !== value.slice(0, 10)) return null;
  let utc = wall - sydneyOffsetMinutes(wall) * 60_000;
  utc = wall - sydneyOffsetMinutes(utc) * 60_000;
  return new Date(utc).toISOString();
}

/** A calendar date (YYYY-MM-DD) from a date or a timestamp; null when there is none. */
export function dateOf(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const day = /^(\d{4}-\d{2}-\d{2})/.exec(value.trim())?.[1];
  if (day === undefined) return null;
  const ms = Date.parse(`${day}T00:00:00Z`);
  // Date.parse rolls 30 February over into March: the day must come back as written
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === day ? day : null;
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().replace(/\s+/g, ' ') : null;

const numberOf = (value: unknown): number | null => {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return null;
};

/** The state a point lies in, else the one an Australian address ends with ("..., NSW 2000"). */
function stateOf(lng: number | null, lat: number | null, address: string | null): string | null {
  if (lng !== null && lat !== null) {
    const found = detectState(lng, lat);
    if (found) return found;
  }
  const match = address ? /\b(NSW|VIC|QLD|SA|WA|TAS|NT|ACT)\b\s*,?\s*(\d{4})?\s*$/i.exec(address) : null;
  const code = match?.[1]?.toUpperCase();
  return code && isStateCode(code) ? code : null;
}

/** A longitude/latitude pair inside Australia, or both null. */
function pointOf(lng: unknown, lat: unknown): { lng: number | null; lat: number | null } {
  const x = numberOf(lng);
  const y = numberOf(lat);
  if (x === null || y === null || x < 96 || x > 169 || y < -45 || y > -8) return { lng: null, lat: null };
  return { lng: x, lat: y };
}

export type Parsed = { records: DaRecord[]; refused: FeatureNote[]; read: number };

class Refusal extends Error {}
const refuse = (reason: string): never => {
  throw new Refusal(reason);
};

function planningAlertsRecord(raw: unknown, seq: number): DaRecord {
  const wrapped = raw as { application?: unknown } | null;
  const a = (wrapped && typeof wrapped === 'object' && 'application' in wrapped ? wrapped.application : raw) as Record<
    string,
    unknown
  > | null;
  if (!a || typeof a !== 'object') return refuse('is not an application object');
  const reference = text(a.council_reference) ?? refuse('has no council_reference');
  const authority =
    text((a.authority as { full_name?: unknown } | undefined)?.full_name) ?? refuse('has no authority.full_name');
  const address = text(a.address);
  const { lng, lat } = pointOf(a.lng, a.lat);
  const state =
    stateOf(lng, lat, address) ?? refuse('has neither a point in Australia nor an address naming its state');
  const scraped = text(a.date_scraped);
  const updated = (scraped && instantOf(scraped)) ?? refuse('has no date_scraped (when PlanningAlerts found it)');
  const description = text(a.description);
  return {
    seq,
    source: 'planningalerts',
    authority,
    council_reference: reference,
    state,
    lga_code: null,
    lga_name: null,
    suburb: null,
    address,
    description,
    category: categoryOf(description ?? ''),
    status: 'lodged',
    lodged_date: dateOf(a.date_received),
    decided_date: null,
    estimated_cost: null,
    dwellings_proposed: null,
    source_url: text(a.info_url),
    ...DA_CREDITS.planningalerts,
    updated_at: updated,
    lng,
    lat,
  };
}

function nswPortalRecord(raw: unknown, seq: number): DaRecord {
  const a = raw as Record<string, unknown> | null;
  if (!a || typeof a !== 'object') return refuse('is not an application object');
  const reference =
    text(a.CouncilApplicationNumber) ??
    text(a.PlanningPortalApplicationNumber) ??
    refuse('has neither CouncilApplicationNumber nor PlanningPortalApplicationNumber');
  const authority =
    text((a.Council as { CouncilName?: unknown } | undefined)?.CouncilName) ?? refuse('has no Council.CouncilName');
  const statusText = text(a.ApplicationStatus) ?? refuse('has no ApplicationStatus');
  const status = nswStatus(statusText) ?? refuse(`has an ApplicationStatus we do not know: '${statusText}'`);
  const location = Array.isArray(a.Location) ? (a.Location[0] as Record<string, unknown> | undefined) : undefined;
  const { lng, lat } = pointOf(location?.X, location?.Y);
  const types = Array.isArray(a.DevelopmentType)
    ? a.DevelopmentType.map((t) => text((t as { DevelopmentType?: unknown }).DevelopmentType)).filter(Boolean)
    : [];
  const description = text(a.DevelopmentDescription) ?? (types.length > 0 ? types.join('; ') : null);
  const changed = text(a.DateLastUpdated) ?? text(a.DeterminationDate) ?? text(a.LodgementDate);
  const updated =
    (changed && instantOf(changed)) ?? refuse('has no DateLastUpdated, DeterminationDate or LodgementDate');
  const cost = numberOf(a.CostOfDevelopment);
  const dwellings = numberOf(a.NumberOfNewDwellings);
  const decided = ['approved', 'refused', 'determined', 'withdrawn'].includes(status)
    ? dateOf(a.DeterminationDate)
    : null;
  return {
    seq,
    source: 'nsw-portal',
    authority,
    council_reference: reference,
    state: 'NSW',
    lga_code: null,
    lga_name: null,
    suburb: text(location?.Suburb),
    address: text(location?.FullAddress),
    description,
    category: categoryOf(`${types.join(' ')} ${description ?? ''}`),
    status,
    lodged_date: dateOf(a.LodgementDate),
    decided_date: decided,
    estimated_cost: cost !== null && cost >= 0 ? cost : null,
    dwellings_proposed: dwellings !== null && Number.isInteger(dwellings) && dwellings >= 0 ? dwellings : null,
    source_url: text(a.PlanningPortalApplicationNumber)
      ? `https://www.planningportal.nsw.gov.au/daapplicationtracker/${encodeURIComponent(String(a.PlanningPortalApplicationNumber))}`
      : null,
    ...DA_CREDITS['nsw-portal'],
    updated_at: updated,
    lng,
    lat,
  };
}

/** The applications of a file's JSON in the format's published shape; refuses a body that is not that shape. */
export function parseApplications(format: DaFormat, body: unknown, file: string): Parsed | { error: string } {
  let items: unknown[];
  if (format === 'planningalerts') {
    const list = Array.isArray(body) ? body : (body as { applications?: unknown } | null)?.applications;
    if (!Array.isArray(list)) return { error: 'is not PlanningAlerts application JSON: no array of applications' };
    items = list;
  } else {
    const list = (body as { Application?: unknown } | null)?.Application;
    if (!Array.isArray(list)) return { error: 'is not NSW Planning Portal DA JSON: no Application array' };
    items = list;
  }
  const records: DaRecord[] = [];
  const refused: FeatureNote[] = [];
  items.forEach((item, index) => {
    const seq = index + 1;
    try {
      records.push(format === 'planningalerts' ? planningAlertsRecord(item, seq) : nswPortalRecord(item, seq));
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      const key =
        (item as { application?: { council_reference?: unknown } })?.application?.council_reference ??
        (item as { PlanningPortalApplicationNumber?: unknown })?.PlanningPortalApplicationNumber;
      refused.push({ file, feature: seq, key: typeof key === 'string' ? key : null, reason: error.message });
    }
  });
  return { records, refused, read: items.length };
}
