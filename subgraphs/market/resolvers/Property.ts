import { layerEmpty } from '../../../core/layer.ts';
import { guardLayer } from '../../../core/layer.ts';
import {
  DEFAULT_SALES_LIMIT,
  MAX_SALES_LIMIT,
  DEFAULT_COMPARABLES,
  DEFAULT_COMPARABLE_MONTHS,
  DEFAULT_COMPARABLE_RADIUS_M,
  MAX_COMPARABLES,
  MAX_COMPARABLE_MONTHS,
  MAX_COMPARABLE_RADIUS_M,
} from '../../../core/limits.ts';
import { badRequest } from '../../../core/errors.ts';
import type { ComparableSalesModel, MarketContext, MarketProperty } from '../data.ts';
import type { PropertyResolvers } from '../generated/resolvers-types.ts';
import type { SaleRow } from '../sql.ts';
import { assertPropertyType, assertWhole, joinCredits, judged } from './layers.ts';
import { suburbLayer } from './suburb-layers.ts';

export const Property: PropertyResolvers<MarketContext> = {
  __resolveReference(reference) {
    return {
      parcel_pfi: reference.parcel_pfi ?? null,
      state: reference.state ?? '',
      gnaf_pid: 'gnaf_pid' in reference ? ((reference.gnaf_pid as string | null) ?? null) : null,
      location: 'location' in reference ? (reference.location ?? null) : null,
      address: 'address' in reference ? ((reference.address as MarketProperty['address']) ?? null) : null,
    } satisfies MarketProperty;
  },
  market_trends: async (property, _args, ctx) => {
    const locality = property.address?.data?.locality;
    if (!locality) {
      const layer = await guardLayer('market trends', async () => {
        const provenance = await ctx.market.provenance('market-sales', property.state);
        return layerEmpty<never>(
          'skipped',
          'The property has no address, so no suburb to read the market trends of; ask /api/suburb-trends by suburb.',
          provenance,
        );
      });
      return { ...layer, known: false };
    }
    const { unknown, ...layer } = await suburbLayer(
      ctx,
      property.state,
      locality,
      property.address?.data?.postcode ?? null,
      null,
      // the address's own G-NAF locality is one of the state's of its name
      { known: true, postcode: property.address?.data?.locality_postcode ?? null },
    );
    return { ...layer, known: !unknown };
  },
  sales: async (property, args, ctx) => {
    const limit = assertWhole(args.limit, 'limit', 1, MAX_SALES_LIMIT, DEFAULT_SALES_LIMIT);
    const { state, parcel_pfi, gnaf_pid } = property;
    let sales: SaleRow[] = [];
    let more = false;
    const layer = await judged<true>(ctx, 'market-sales', state, 'property sales', async (provenance) => {
      if (!parcel_pfi && !gnaf_pid) {
        return { data: null, empty: 'The property has neither a parcel nor an address to match sales to.' };
      }
      const rows = await ctx.market.salesOfProperty.load({ state, parcel_pfi, gnaf_pid, limit });
      if (rows.length === 0) return { data: null, empty: 'No sale of this property is recorded.' };
      sales = rows.slice(0, limit);
      more = rows.length > limit;
      return { data: true, empty: '', credit: joinCredits(sales, provenance) };
    });
    const { data: _data, ...rest } = layer;
    return {
      ...rest,
      message: more ? `More than ${limit} sales: the newest ${limit} are listed; raise limit.` : rest.message,
      sales: layer.status === 'ok' ? sales : [],
    };
  },
  comparable_sales: async (property, args, ctx) => {
    // argument errors are the caller's, raised before the layer's guard
    const asked = assertPropertyType(args.property_type);
    const radius = assertWhole(args.radius_m, 'radius_m', 1, MAX_COMPARABLE_RADIUS_M, DEFAULT_COMPARABLE_RADIUS_M);
    const months = assertWhole(args.months, 'months', 1, MAX_COMPARABLE_MONTHS, DEFAULT_COMPARABLE_MONTHS);
    const limit = assertWhole(args.limit, 'limit', 1, MAX_COMPARABLES, DEFAULT_COMPARABLES);
    if (args.area_m2 !== null && args.area_m2 !== undefined && !(args.area_m2 > 0 && args.area_m2 < 1e8)) {
      throw badRequest('area_m2 must be a positive number of square metres.', `Got ${args.area_m2}.`);
    }
    const { state, parcel_pfi, location } = property;
    return judged<ComparableSalesModel>(ctx, 'market-sales', state, 'property sales', async (provenance) => {
      if (!location) return { data: null, empty: 'The property has no point to look for sales around.' };
      const last = parcel_pfi ? await ctx.market.lastSaleOfParcel(state, parcel_pfi) : null;
      const type = asked ?? last?.property_type ?? null;
      if (!type) {
        return {
          data: null,
          empty: 'The property has no recorded sale to take its type from: pass property_type (house, unit, land).',
        };
      }
      const area = args.area_m2 ?? (asked && asked !== last?.property_type ? null : (last?.area_m2 ?? null));
      const asOf = await ctx.market.newestSale(state);
      if (!asOf) return { data: null, empty: `No sales are held for ${state}.` };
      const rows = await ctx.market.comparables({
        state,
        lng: location.lng,
        lat: location.lat,
        type,
        area,
        radius,
        months,
        asOf,
        excludePfi: parcel_pfi,
        limit,
      });
      if (rows.length === 0) {
        return {
          data: null,
          empty: `No ${type} sold within ${radius} m in the ${months} months to ${asOf}.`,
        };
      }
      return {
        data: {
          property_type: type,
          property_type_from: asked ? 'argument' : 'last_sale',
          area_m2: area,
          radius_m: radius,
          months,
          comparables: rows.map(({ score, distance_score, recency_score, size_score, ...sale }) => ({
            sale,
            score,
            distance_score,
            recency_score,
            size_score,
          })),
        },
        empty: '',
        credit: joinCredits(rows, provenance),
      };
    });
  },
};
