import type { RequestScope } from '../../core/context.ts';
import { detectState } from '../../core/geo.ts';
import type { GraphExecutor } from '../jobs/worker.ts';
import type { MatchInput } from './mapping.ts';

/**
 * How a row was located: matched (an address with its gnaf_pid), no_match (the matcher or the
 * point found none), invalid_input (the mapped cells are empty or unreadable), unavailable (the
 * matcher failed for this row: the row can be submitted again).
 */
export const MATCH_STATUSES = ['matched', 'no_match', 'invalid_input', 'unavailable'] as const;
export type MatchStatus = (typeof MATCH_STATUSES)[number];

export type RowMatch = {
  match_status: MatchStatus;
  gnaf_pid: string | null;
  matched_address: string | null;
  lat: number | null;
  lng: number | null;
  state: string | null;
  /** What the matcher said when it did not match, or how it matched (a street-level point). */
  match_note: string | null;
  confidence: number | null;
  attribution: string | null;
  license: string | null;
};

type GraphError = { message: string; extensions?: Record<string, unknown> };

const MATCH = `query EnrichMatch($q: String!, $state: String, $postcode: String, $near: NearInput) {
  matchAddress(q: $q, state: $state, postcode: $postcode, near: $near, grades: any) {
    status message hint attribution license
    match { confidence geocode_type address { gnaf_pid formatted_address state location { lat lng } } }
  }
}`;

const AT_POINT = `query EnrichAtPoint($lat: Float!, $lng: Float!, $state: String!) {
  propertyAt(lat: $lat, lng: $lng, state: $state) {
    gnaf_pid
    address { status message attribution license data { gnaf_pid formatted_address state location { lat lng } } }
  }
}`;

type MatchData = {
  matchAddress: {
    status: 'matched' | 'no_match';
    message: string | null;
    hint: string | null;
    attribution: string | null;
    license: string | null;
    match: {
      confidence: number;
      geocode_type: string;
      address: { gnaf_pid: string; formatted_address: string; state: string; location: { lat: number; lng: number } };
    } | null;
  } | null;
};

type PointData = {
  propertyAt: {
    gnaf_pid: string | null;
    address: {
      status: string;
      message: string | null;
      attribution: string | null;
      license: string | null;
      data: {
        gnaf_pid: string;
        formatted_address: string;
        state: string;
        location: { lat: number; lng: number };
      } | null;
    } | null;
  } | null;
};

const empty = (status: MatchStatus, note: string | null): RowMatch => ({
  match_status: status,
  gnaf_pid: null,
  matched_address: null,
  lat: null,
  lng: null,
  state: null,
  match_note: note,
  confidence: null,
  attribution: null,
  license: null,
});

/** A refusal of the row's own text (400/422) is the row's problem; anything else is the matcher's. */
function failed(errors: readonly GraphError[]): RowMatch {
  const first = errors[0]!;
  const status = (first.extensions?.http as { status?: number } | undefined)?.status;
  const code = first.extensions?.code;
  const theRow = code === 'BAD_REQUEST' || status === 400 || status === 422;
  return empty(theRow ? 'invalid_input' : 'unavailable', first.message);
}

/**
 * Locates one row through the graph: its text through the address matcher (`matchAddress`, any
 * geocode grade, the row's state and postcode as filters, its point as a hint), or its point
 * through `propertyAt` and the address on that parcel.
 */
export async function matchRow(graph: GraphExecutor, scope: RequestScope, input: MatchInput): Promise<RowMatch> {
  if (input.problem || (!input.text && !input.point)) return empty('invalid_input', input.problem);
  if (input.text) {
    const result = await graph.execute<MatchData>(
      MATCH,
      { q: input.text, state: input.state, postcode: input.postcode, near: input.point },
      scope,
    );
    if (result.errors?.length) return failed(result.errors);
    const answer = result.data?.matchAddress;
    if (!answer) return empty('unavailable', 'the matcher gave no answer');
    if (answer.status !== 'matched' || !answer.match) return empty('no_match', answer.message ?? answer.hint);
    const { address } = answer.match;
    return {
      match_status: 'matched',
      gnaf_pid: address.gnaf_pid,
      matched_address: address.formatted_address,
      lat: address.location.lat,
      lng: address.location.lng,
      state: address.state,
      match_note: answer.hint,
      confidence: answer.match.confidence,
      attribution: answer.attribution,
      license: answer.license,
    };
  }
  const point = input.point!;
  const state = input.state ?? detectState(point.lng, point.lat);
  if (!state) return empty('invalid_input', 'the point lies in no Australian state');
  const result = await graph.execute<PointData>(AT_POINT, { ...point, state }, scope);
  if (result.errors?.length) return failed(result.errors);
  const layer = result.data?.propertyAt?.address;
  if (!layer) return empty('no_match', 'no address at this point');
  if (layer.status === 'error') return empty('unavailable', layer.message);
  if (layer.status !== 'ok' || !layer.data) return empty('no_match', layer.message ?? 'no address at this point');
  return {
    match_status: 'matched',
    gnaf_pid: layer.data.gnaf_pid,
    matched_address: layer.data.formatted_address,
    lat: layer.data.location.lat,
    lng: layer.data.location.lng,
    state: layer.data.state,
    match_note: 'the address of the parcel at the point',
    confidence: null,
    attribution: layer.attribution,
    license: layer.license,
  };
}

/** Runs `work` over `items` with at most `limit` at once, results in item order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      out[index] = await work(items[index]!);
    }
  });
  await Promise.all(lanes);
  return out;
}
