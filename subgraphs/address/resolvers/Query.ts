import { badRequest } from '../../../core/errors.ts';
import { assertPoint, assertState } from '../../../core/validate.ts';
import type { QueryResolvers } from '../generated/resolvers-types.ts';
import type { AddressContext, AddressMatchResultModel } from '../data.ts';
import { STAGE_BUDGET, stageBudget } from '../../../core/budget.ts';
import { SUGGESTIONS_BY_PREFIX } from '../sql.ts';
import type { AddressRow } from '../sql.ts';
import { suggestionQuery } from '../matching/suggest.ts';
import { NON_PARCEL_GRADES } from '../matching/match.ts';
import { resolvePropertyByGnafPid } from './Property.ts';
import { propertiesByGnafPids, propertySelection } from './selection.ts';

export const MAX_ADDRESS_TEXT = 300;
export const MAX_SUGGESTIONS = 20;

function addressText(q: string, name: string): string {
  const text = q.trim();
  if (!text)
    throw badRequest(`${name} must not be empty.`, "Pass an address, e.g. '72 Dwyer Street, Huntly VIC 3551'.");
  if (text.length > MAX_ADDRESS_TEXT) throw badRequest(`${name} must be at most ${MAX_ADDRESS_TEXT} characters.`);
  return text;
}

function postcodeArg(postcode: string | null | undefined): string | null {
  if (postcode === null || postcode === undefined) return null;
  if (!/^\d{4}$/.test(postcode.trim())) throw badRequest(`postcode must be 4 digits, got '${postcode}'.`);
  return postcode.trim();
}

/** The credit of the addresses in a payload: one line per distinct credit. */
async function creditOf(ctx: AddressContext, rows: AddressRow[]) {
  const seen = new Map<string, { attribution: string; license: string; source: string }>();
  for (const state of new Set(rows.map((r) => r.state))) {
    const provenance = await ctx.address.provenance(state);
    if (provenance) seen.set(`${provenance.attribution}|${provenance.license}`, provenance);
  }
  const all = [...seen.values()];
  if (all.length === 0) return { source: null, attribution: null, license: null };
  return {
    source: [...new Set(all.map((p) => p.source))].join(' '),
    attribution: all.map((p) => p.attribution).join(' | '),
    license: [...new Set(all.map((p) => p.license))].join(' | '),
  };
}

/** What a caller should know about a match that G-NAF does not place on its parcel. */
function gradeHint(geocodeType: string | null): string | null {
  if (!geocodeType || !NON_PARCEL_GRADES.has(geocodeType)) return null;
  const where = COARSE_PLACES[geocodeType] ?? 'not on its parcel';
  return (
    `G-NAF places this address ${where} (geocode ${geocodeType}), not on its parcel, so no parcel_pfi is known. ` +
    'Name the parcel by its lot and plan with /api/cadastre/lot-detail, or look it up by point.'
  );
}

const COARSE_PLACES: Readonly<Record<string, string>> = {
  STL: 'only on its street',
  LOC: 'only at the centre of its locality',
  GG: 'by interpolation along its street',
};

export const Query: QueryResolvers<AddressContext> = {
  propertyByGnafPid: (_parent, { gnaf_pid }, ctx) => resolvePropertyByGnafPid(gnaf_pid, ctx),
  propertiesByGnafPids: (_parent, { gnaf_pids }, ctx) => propertiesByGnafPids(gnaf_pids, ctx),
  propertySelection: (_parent, args, ctx) => propertySelection(args, ctx),

  async matchAddress(_parent, args, ctx): Promise<AddressMatchResultModel> {
    const q = addressText(args.q, 'q');
    const state = args.state ? assertState(args.state) : null;
    const postcode = postcodeArg(args.postcode);
    if (args.near) assertPoint(args.near.lat, args.near.lng);
    const explicit = typeof args.timeout_ms === 'number' && args.timeout_ms > 0;
    const outcome = await ctx.address.matcher(stageBudget(args.timeout_ms), explicit).match(q, {
      state,
      postcode,
      near: args.near ?? null,
      anyGrade: args.grades === 'any',
    });
    if (outcome.status === 'no_match')
      return {
        status: 'no_match',
        match: null,
        alternatives: [],
        parsed: outcome.parsed,
        message: outcome.message,
        hint: outcome.hint,
        source: null,
        attribution: null,
        license: null,
      };
    return {
      status: 'matched',
      match: outcome.match,
      alternatives: outcome.alternatives,
      parsed: outcome.parsed,
      message: null,
      hint: gradeHint(outcome.match.row.geocode_type),
      ...(await creditOf(ctx, [outcome.match.row])),
    };
  },

  async suggestAddresses(_parent, args, ctx) {
    const q = addressText(args.q, 'q');
    const state = args.state ? assertState(args.state) : null;
    const limit = args.limit ?? 10;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SUGGESTIONS)
      throw badRequest(`limit must be a whole number from 1 to ${MAX_SUGGESTIONS}, got ${limit}.`);
    const { prefixes, flatNumber } = suggestionQuery(q);
    if (prefixes.length === 0) return { suggestions: [], source: null, attribution: null, license: null };
    const rows = await ctx.address.runner(STAGE_BUDGET.defaultMs)<AddressRow>(
      'suggestion',
      SUGGESTIONS_BY_PREFIX(ctx.dataset, prefixes, state, flatNumber, limit),
    );
    return { suggestions: rows, ...(await creditOf(ctx, rows)) };
  },

  async addressesOnParcel(_parent, { parcel_pfi, state }, ctx) {
    const addresses = await ctx.address.addressesOnParcel(assertState(state), parcel_pfi);
    return { addresses, ...(await creditOf(ctx, addresses)) };
  },
};
