import { badRequest } from '../../../core/errors.ts';
import { guardLayer, layerEmpty } from '../../../core/layer.ts';
import {
  DEFAULT_SALES_LIMIT,
  DEFAULT_SALES_RADIUS_M,
  MAX_SALES_LIMIT,
  MAX_SALES_RADIUS_M,
} from '../../../core/limits.ts';
import { assertPoint, assertState } from '../../../core/validate.ts';
import type { MarketContext, PropertySalesModel } from '../data.ts';
import type { QueryResolvers } from '../generated/resolvers-types.ts';
import type { SalesFilter } from '../sql.ts';
import { assertDate, assertPropertyType, assertWhole, joinCredits } from './layers.ts';

/** Which place a sales search is of: exactly one of a point, a parcel (with state) or an address. */
function salesFilter(args: {
  lat?: number | null;
  lng?: number | null;
  radius_m?: number | null;
  parcel_pfi?: string | null;
  gnaf_pid?: string | null;
  state?: string | null;
}): SalesFilter {
  const point = args.lat != null || args.lng != null;
  const forms = [point, args.parcel_pfi != null, args.gnaf_pid != null].filter(Boolean).length;
  if (forms !== 1) {
    throw badRequest('Name the place one way: lat and lng, or parcel_pfi and state, or gnaf_pid.');
  }
  const state = args.state != null ? assertState(args.state) : null;
  if (point) {
    if (args.lat == null || args.lng == null) throw badRequest('lat and lng must be given together.');
    assertPoint(args.lat, args.lng);
    const radius = assertWhole(args.radius_m, 'radius_m', 1, MAX_SALES_RADIUS_M, DEFAULT_SALES_RADIUS_M);
    return { kind: 'near', lat: args.lat, lng: args.lng, radius_m: radius, state };
  }
  if (args.parcel_pfi != null) {
    if (!state) throw badRequest('parcel_pfi needs state: parcel identifiers are only unique within a state.');
    return { kind: 'parcel', state, parcel_pfi: args.parcel_pfi };
  }
  return { kind: 'address', gnaf_pid: args.gnaf_pid! };
}

export const Query: QueryResolvers<MarketContext> = {
  async propertySales(_parent, args, ctx) {
    const where = salesFilter(args);
    const since = assertDate(args.since, 'since');
    const until = assertDate(args.until, 'until');
    if (since && until && since > until) throw badRequest('since must be on or before until.');
    const type = assertPropertyType(args.property_type);
    const limit = assertWhole(args.limit, 'limit', 1, MAX_SALES_LIMIT, DEFAULT_SALES_LIMIT);
    let sales: PropertySalesModel['sales'] = [];
    const layer = await guardLayer('property sales', async () => {
      const rows = await ctx.market.sales(where, since, until, type, limit);
      sales = rows.slice(0, limit);
      const state =
        where.kind === 'address'
          ? (rows[0]?.state ?? (args.state ? assertState(args.state) : ''))
          : (where.state ?? rows[0]?.state ?? '');
      const provenance = state ? await ctx.market.provenance('market-sales', state) : undefined;
      if (!provenance && rows.length === 0) {
        return layerEmpty<never>('not_covered', `No property sales are held for ${state || 'this place'} yet.`);
      }
      const base = provenance ?? { source: 'market-sales', attribution: '', license: '' };
      if (rows.length === 0)
        return layerEmpty<never>('no_data', 'No sale is recorded here in the period asked.', provenance);
      const credit = joinCredits(sales, base);
      return {
        status: 'ok' as const,
        data: null,
        message:
          rows.length > limit
            ? `More than ${limit} sales: the newest ${limit} are listed; narrow the period or raise limit.`
            : null,
        ...credit,
        freshness: provenance?.freshness ?? null,
      };
    });
    const { data: _data, ...rest } = layer;
    return { ...rest, sales: layer.status === 'error' ? [] : sales };
  },
};
