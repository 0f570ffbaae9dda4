import { layerEmpty } from '../../../core/layer.ts';
import type { DevelopmentProperty } from '../data.ts';
import type { DevelopmentContext } from '../data.ts';
import type { PropertyResolvers } from '../generated/resolvers-types.ts';
import { guarded, judge } from './layers.ts';
import { judgeSpear } from './spear.ts';

export const Property: PropertyResolvers<DevelopmentContext> = {
  __resolveReference(reference) {
    return { parcel_pfi: reference.parcel_pfi ?? null, state: reference.state ?? '' } satisfies DevelopmentProperty;
  },
  development_applications: (property, _args, ctx) =>
    guarded(async () => {
      const { state, parcel_pfi } = property;
      if (!parcel_pfi) {
        const provenance = await ctx.development.provenance(state);
        return {
          status: 'skipped' as const,
          data: null,
          message: 'The property has no parcel whose development applications could be looked up.',
          attribution: provenance?.attribution ?? null,
          license: provenance?.license ?? null,
          source: provenance?.source ?? null,
          freshness: null,
        };
      }
      const found = await ctx.development.applicationsOf.load({ state, parcel_pfi });
      return judge(ctx, state, found, 'No development application is recorded against this parcel.', (f) => f);
    }),
  spear_applications: (property, _args, ctx) =>
    guarded(async () => {
      const { state, parcel_pfi } = property;
      if (!parcel_pfi && state === 'VIC') {
        const provenance = await ctx.development.spearProvenance();
        return {
          ...layerEmpty(
            'skipped',
            'The property has no parcel whose SPEAR applications could be looked up.',
            provenance,
          ),
          freshness: null,
        };
      }
      return judgeSpear(
        ctx,
        state,
        () => ctx.development.spearOf.load(parcel_pfi!),
        'No SPEAR application touches this parcel.',
      );
    }),
};
