import type { LandContext, LandProperty } from '../data.ts';
import type { PropertyResolvers } from '../generated/resolvers-types.ts';
import type { LandLayerName } from '../sql.ts';
import { buildingCredit, guarded, judge } from './layers.ts';

/** Why a property-level land layer has nothing to look up: no parcel, or no point to place it by. */
async function skipped(ctx: LandContext, layer: LandLayerName, state: string, what: string) {
  const provenance = await ctx.land.provenance(layer, state);
  return {
    status: 'skipped' as const,
    data: null,
    message: `The property has no parcel whose ${what} could be looked up.`,
    attribution: provenance?.attribution ?? null,
    license: provenance?.license ?? null,
    source: provenance?.source ?? null,
    freshness: null,
  };
}

export const Property: PropertyResolvers<LandContext> = {
  __resolveReference(reference) {
    return {
      parcel_pfi: reference.parcel_pfi ?? null,
      state: reference.state ?? '',
      location: reference.location ?? null,
      parcel_geometry: 'parcel_geometry' in reference ? (reference.parcel_geometry ?? null) : null,
    } satisfies LandProperty;
  },
  easements: (property, _args, ctx) =>
    guarded('easements', async () => {
      const { state, parcel_pfi, location } = property;
      if (!parcel_pfi || !location) return skipped(ctx, 'easements', state, 'easements');
      const found = await ctx.land.easementsOf.load({ state, parcel_pfi, ...location });
      return judge(ctx, 'easements', state, found, 'this parcel', (features) => features);
    }),
  buildings: (property, _args, ctx) =>
    guarded('buildings', async () => {
      const { state, parcel_pfi, location, parcel_geometry } = property;
      if (!parcel_pfi || !location || !parcel_geometry) {
        return skipped(ctx, 'buildings', state, 'building footprints');
      }
      const found = await ctx.land.buildingsOn.load({ state, parcel_pfi, geometry: parcel_geometry, ...location });
      return judge(
        ctx,
        'buildings',
        state,
        found,
        'this parcel',
        (features) => features,
        (features, osm) => buildingCredit(ctx, state, features, osm),
      );
    }),
  land_value: (property, _args, ctx) =>
    guarded('land values', async () => {
      const { state, parcel_pfi, location } = property;
      if (!parcel_pfi || !location) return skipped(ctx, 'land-values', state, 'land value');
      const found = await ctx.land.landValueOf.load({ state, parcel_pfi, ...location });
      return judge(ctx, 'land-values', state, found, 'this parcel', (features) => features[0] ?? null);
    }),
};
