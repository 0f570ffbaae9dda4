import { z } from 'zod';
import type { RequestScope } from '../../core/context.ts';
import { stageBudget, withinBudget } from '../../core/budget.ts';
import { AppError } from '../../core/errors.ts';
import { isInAustralia } from '../../core/geo.ts';
import { withGrant } from '../../core/scopes.ts';
import { NON_PARCEL_GEOCODE_TYPES } from '../../core/vocabulary.ts';
import type { Graph } from '../../gateway/graph.ts';
import { unwrap } from '../graph-result.ts';
import { parseDecimal, quote, stateParam, textParam } from '../params.ts';
import type { Credit } from '../route.ts';
import { defineRoute } from '../route.ts';
import type { LayerFields, ParcelFields } from './cadastre.ts';
import { LAYER_FIELDS, PARCEL_FIELDS, creditOf, parcelFeature } from './cadastre.ts';
import { combineCredits } from './property.ts';

export const ADDRESS_FIELDS = `gnaf_pid formatted_address locality state postcode geocode_type location { lat lng }
  building_name flat_type flat_number flat_number_suffix level_type level_number number_first number_first_suffix
  number_last number_last_suffix lot_number street_name street_type street_suffix legal_parcel_id parcel_pfi`;

export type AddressFields = {
  gnaf_pid: string;
  formatted_address: string;
  locality: string;
  state: string;
  postcode: string | null;
  geocode_type: string;
  location: { lat: number; lng: number };
  building_name: string | null;
  flat_type: string | null;
  flat_number: number | null;
  flat_number_suffix: string | null;
  level_type: string | null;
  level_number: number | null;
  number_first: number | null;
  number_first_suffix: string | null;
  number_last: number | null;
  number_last_suffix: string | null;
  lot_number: string | null;
  street_name: string;
  street_type: string | null;
  street_suffix: string | null;
  legal_parcel_id: string | null;
  parcel_pfi: string | null;
};

export type MatchFields = {
  address: AddressFields;
  similarity: number;
  confidence: number;
  geocode_type: string;
  strict: boolean;
  distance_m: number | null;
  notes: string[];
};

export type MatchResult = {
  status: 'matched' | 'no_match';
  match: MatchFields | null;
  alternatives: MatchFields[];
  parsed: Record<string, unknown>;
  message: string | null;
  hint: string | null;
  source: string | null;
  attribution: string | null;
  license: string | null;
};

const MATCH_FIELDS = `address { ${ADDRESS_FIELDS} } similarity confidence geocode_type strict distance_m notes`;

const MATCH_ADDRESS = `query MatchAddress($q: String!, $state: String, $postcode: String, $near: NearInput, $timeout: Int,
    $grades: MatchGrades) {
  matchAddress(q: $q, state: $state, postcode: $postcode, near: $near, timeout_ms: $timeout, grades: $grades) {
    status message hint source attribution license
    match { ${MATCH_FIELDS} }
    alternatives { ${MATCH_FIELDS} }
    parsed { flat_type flat_number level_type level_number number_first number_last lot_number street_name street_type
      street_suffix locality state postcode trailing_country }
  }
}`;

const PARCEL_AT = `query ParcelAtAddress($lat: Float!, $lng: Float!, $state: String!) {
  parcelAt(lat: $lat, lng: $lng, state: $state) { ${LAYER_FIELDS} data { ${PARCEL_FIELDS} } }
}`;

const SUGGEST = `query SuggestAddresses($q: String!, $state: String, $limit: Int) {
  suggestAddresses(q: $q, state: $state, limit: $limit) { source attribution license suggestions { ${ADDRESS_FIELDS} } }
}`;

/** The by-address budget as spec 4.2.6 reads it: garbage or non-positive is ignored (the default applies). */
export const timeoutParam = z
  .unknown()
  .optional()
  .transform((value) => {
    const number = typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : Number.NaN;
    return Number.isFinite(number) && number > 0 ? number : undefined;
  });

export const postcodeParam = z
  .string({ error: 'postcode must be a single value.' })
  .trim()
  .regex(/^\d{4}$/, { error: 'postcode must be 4 digits, e.g. 3551.' });

/** 'lat,lng' inside Australia. */
const nearParam = z.string({ error: "near must be a single value: 'lat,lng'." }).transform((value, ctx) => {
  const parts = value.split(',').map((part) => parseDecimal(part.trim()));
  const [lat, lng] = parts as [number, number];
  if (parts.length !== 2 || !parts.every(Number.isFinite)) {
    ctx.addIssue({ code: 'custom', message: `near must be 'lat,lng' in decimal degrees, got ${quote(value)}.` });
    return z.NEVER;
  }
  if (!isInAustralia(lng, lat)) {
    ctx.addIssue({
      code: 'custom',
      message: `near (${value}) is outside Australia: pass 'lat,lng' with the latitude first (about -9 to -44).`,
    });
    return z.NEVER;
  }
  return { lat, lng };
});

const matchQuery = z.object({
  q: textParam('q', 300),
  state: stateParam.optional(),
  postcode: postcodeParam.optional(),
  near: nearParam.optional(),
  timeout_ms: timeoutParam,
});

export type MatchInput = z.output<typeof matchQuery>;

/**
 * resolve takes the address as `q`, like the other address routes, or as `address`, as
 * /v1/envelope-by-address names it, so a caller can move between the two without renaming.
 */
const resolveQuery = matchQuery
  .extend({ q: textParam('q', 300).optional(), address: textParam('address', 300).optional() })
  .transform((query, ctx) => {
    const { address, q, ...rest } = query;
    if (q !== undefined && address !== undefined && q !== address) {
      ctx.addIssue({ code: 'custom', message: 'Pass the address once, as q or as address, not both.' });
      return z.NEVER;
    }
    const text = q ?? address;
    if (text === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: "q is required: the address to resolve, e.g. '72 Dwyer Street, Huntly VIC 3551' (address= works too).",
      });
      return z.NEVER;
    }
    return { ...rest, q: text };
  });

/** A point of these grades lies in the road or at a centroid: the parcel under it is not the address's. */
const COARSE_GRADES: ReadonlySet<string> = new Set(NON_PARCEL_GEOCODE_TYPES);

/** Which geocode grades may answer: parcel grades unless the route only needs the address to exist. */
export type MatchGrades = 'parcel' | 'any';

const budgetOf = (q: Pick<MatchInput, 'timeout_ms'>) => stageBudget(q.timeout_ms);

export async function matchAddress(
  graph: Graph,
  scope: RequestScope,
  q: Omit<MatchInput, 'near'> & { near?: MatchInput['near'] },
  grades: MatchGrades = 'parcel',
): Promise<MatchResult> {
  const data = unwrap(
    await graph.execute<{ matchAddress: MatchResult }>(
      MATCH_ADDRESS,
      {
        q: q.q,
        state: q.state ?? null,
        postcode: q.postcode ?? null,
        near: q.near ?? null,
        timeout: q.timeout_ms === undefined ? null : budgetOf(q),
        grades,
      },
      scope,
    ),
  );
  return data.matchAddress;
}

type CadastreLayer = LayerFields & { data: ParcelFields | null };

/** The parcel under a matched address point (spec 4.2.5): the cadastre layer decides mirror or live. */
async function parcelUnder(graph: Graph, scope: RequestScope, match: MatchFields, budgetMs: number) {
  const { lat, lng } = match.address.location;
  const data = unwrap(
    await withinBudget(
      'cadastre',
      budgetMs,
      graph.execute<{ parcelAt: CadastreLayer }>(PARCEL_AT, { lat, lng, state: match.address.state }, scope),
    ),
  );
  return data.parcelAt;
}

export const matchCredit = (result: MatchResult): Credit | null =>
  result.attribution && result.license ? { attribution: result.attribution, license: result.license } : null;

function noMatch(result: MatchResult): AppError {
  return new AppError('NOT_FOUND', result.message ?? 'No address matches.', result.hint ?? undefined);
}

export const cadastreByAddress = defineRoute({
  method: 'get',
  path: '/api/cadastre/by-address',
  tag: 'Cadastre',
  summary: 'The parcel of a free-text address: strict pass, then tolerant pass, then point-in-polygon.',
  access: { scope: 'cadastre.read' },
  query: matchQuery,
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    const budget = budgetOf(q);
    const result = await matchAddress(graph, scope, q);
    if (result.status !== 'matched' || !result.match) throw noMatch(result);
    const match = result.match;
    const layer = await parcelUnder(graph, scope, match, budget);
    if (layer.status === 'error')
      throw new AppError(
        'UPSTREAM_UNAVAILABLE',
        `${match.address.formatted_address} was matched, but the cadastre source failed for its point.`,
        layer.message ?? 'Retry shortly.',
      );
    if (layer.status !== 'ok' || !layer.data)
      throw new AppError(
        'NOT_FOUND',
        `${match.address.formatted_address} was matched, but no parcel lies under its point.`,
        layer.message ?? 'Look the parcel up by point with /api/cadastre/lookup.',
      );
    const feature = parcelFeature(layer.data);
    feature.properties.ezi_address = match.address.formatted_address;
    const credit = combineCredits([creditOf(layer), matchCredit(result)]);
    return {
      body: {
        success: true,
        source: layer.source,
        data: feature,
        error: null,
        hint: null,
        attribution: credit?.attribution ?? null,
        license: credit?.license ?? null,
        similarity: match.similarity,
        confidence: match.confidence,
        geocodeType: match.geocode_type,
      },
      credit,
    };
  },
});

export const propertyResolve = defineRoute({
  method: 'get',
  path: '/v1/property/resolve',
  tag: 'Property',
  summary: 'A free-text address to its gnaf_pid, state and parcel_pfi: the keys to store.',
  access: { scope: 'address.read' },
  query: resolveQuery,
  errorStyle: 'plain',
  async handle(q, { graph, scope }) {
    const budget = budgetOf(q);
    // the keys to store exist whatever the geocode grade; only the parcel needs a parcel-grade point
    const result = await matchAddress(graph, scope, q, 'any');
    if (result.status !== 'matched' || !result.match) throw noMatch(result);
    const { address } = result.match;
    let parcelPfi = address.parcel_pfi;
    let parcelSource: string | null = null;
    const onItsParcel = !COARSE_GRADES.has(result.match.geocode_type);
    if (!parcelPfi && onItsParcel) {
      // The key pays for the parcel identifier, not for the parcel layer: a grant opens just the lookup.
      const layer = await parcelUnder(graph, withGrant(scope, 'internal:address-to-parcel'), result.match, budget);
      parcelPfi = layer.status === 'ok' ? (layer.data?.parcel_pfi ?? null) : null;
      parcelSource = layer.source;
    }
    const credit = matchCredit(result);
    return {
      body: {
        success: true,
        data: {
          gnaf_pid: address.gnaf_pid,
          state: address.state,
          parcel_pfi: parcelPfi,
          address: address.formatted_address,
          locality: address.locality,
          postcode: address.postcode,
          lat: address.location.lat,
          lng: address.location.lng,
          geocodeType: result.match.geocode_type,
          similarity: result.match.similarity,
          confidence: result.match.confidence,
        },
        hint: result.hint,
        source: parcelSource ? `${result.source} ${parcelSource}` : result.source,
        attribution: credit?.attribution ?? null,
        license: credit?.license ?? null,
      },
      credit,
    };
  },
});

function suggestion(address: AddressFields) {
  return {
    gnaf_pid: address.gnaf_pid,
    address: address.formatted_address,
    locality: address.locality,
    state: address.state,
    postcode: address.postcode,
    lat: address.location.lat,
    lng: address.location.lng,
  };
}

export const addressAutocomplete = defineRoute({
  method: 'get',
  path: '/api/address/autocomplete',
  tag: 'Address',
  summary: 'Addresses starting with the typed text, for a search box: free of charge, rate limited.',
  access: { scope: 'locality.read' },
  // spec 8: address suggestions are free, for the demo key too
  metered: false,
  query: z.object({
    q: textParam('q', 300).refine((q) => q.length >= 2, { error: 'q must be at least 2 characters.' }),
    state: stateParam.optional(),
    limit: z
      .string({ error: 'limit must be a single value.' })
      .regex(/^\d+$/, { error: 'limit must be a whole number from 1 to 20.' })
      .transform(Number)
      .refine((n) => n >= 1 && n <= 20, { error: 'limit must be a whole number from 1 to 20.' })
      .optional(),
  }),
  errorStyle: 'plain',
  async handle(q, { graph, scope }) {
    const data = unwrap(
      await graph.execute<{
        suggestAddresses: {
          source: string | null;
          attribution: string | null;
          license: string | null;
          suggestions: AddressFields[];
        };
      }>(SUGGEST, { q: q.q, state: q.state ?? null, limit: q.limit ?? 10 }, scope),
    );
    const result = data.suggestAddresses;
    const credit =
      result.attribution && result.license ? { attribution: result.attribution, license: result.license } : null;
    return {
      body: {
        success: true,
        query: q.q,
        suggestions: result.suggestions.map(suggestion),
        source: result.source,
        attribution: result.attribution,
        license: result.license,
      },
      credit,
    };
  },
});

export const addressValidate = defineRoute({
  method: 'get',
  path: '/api/address/validate',
  tag: 'Address',
  summary: 'Whether an address is real, its normalised G-NAF form and what was corrected.',
  access: { scope: 'locality.read' },
  query: matchQuery.omit({ near: true }),
  errorStyle: 'plain',
  async handle(q, { graph, scope }) {
    // an address G-NAF places only on its street or locality is still a real address
    const result = await matchAddress(graph, scope, q, 'any');
    const match = result.match;
    const credit = matchCredit(result);
    return {
      body: {
        success: true,
        valid: result.status === 'matched',
        query: q.q,
        parsed: result.parsed,
        data: match
          ? {
              gnaf_pid: match.address.gnaf_pid,
              address: match.address.formatted_address,
              components: {
                building_name: match.address.building_name,
                flat_type: match.address.flat_type,
                flat_number: match.address.flat_number,
                level_type: match.address.level_type,
                level_number: match.address.level_number,
                number_first: match.address.number_first,
                number_last: match.address.number_last,
                lot_number: match.address.lot_number,
                street_name: match.address.street_name,
                street_type: match.address.street_type,
                street_suffix: match.address.street_suffix,
                locality: match.address.locality,
                state: match.address.state,
                postcode: match.address.postcode,
              },
              lat: match.address.location.lat,
              lng: match.address.location.lng,
              geocodeType: match.geocode_type,
              exact: match.strict,
              similarity: match.similarity,
              confidence: match.confidence,
              corrections: match.notes,
            }
          : null,
        error: match ? null : result.message,
        hint: result.hint,
        source: result.source,
        attribution: result.attribution,
        license: result.license,
      },
      credit,
    };
  },
});
