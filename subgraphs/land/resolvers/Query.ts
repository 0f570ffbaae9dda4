import { MAX_BBOX_FEATURES, assertBBox, assertPoint, assertState } from '../../../core/validate.ts';
import type { LandContext } from '../data.ts';
import type { QueryResolvers } from '../generated/resolvers-types.ts';
import { asCollection, buildingCredit, guarded, judge } from './layers.ts';

export const Query: QueryResolvers<LandContext> = {
  async easementsInBBox(_parent, { bbox, state }, ctx) {
    assertBBox(bbox);
    const code = assertState(state);
    const judged = await guarded('easements', async () =>
      judge(
        ctx,
        'easements',
        code,
        await ctx.land.easementsInBBox(code, bbox, MAX_BBOX_FEATURES),
        'this window',
        (f) => f,
      ),
    );
    return asCollection(judged, 'easements');
  },
  async buildingsInBBox(_parent, { bbox, state }, ctx) {
    assertBBox(bbox);
    const code = assertState(state);
    const judged = await guarded('buildings', async () =>
      judge(
        ctx,
        'buildings',
        code,
        await ctx.land.buildingsInBBox(code, bbox, MAX_BBOX_FEATURES),
        'this window',
        (f) => f,
        (f, osm) => buildingCredit(ctx, code, f, osm),
      ),
    );
    return asCollection(judged, 'building footprints');
  },
  async buildingsAt(_parent, { lat, lng, state }, ctx) {
    assertPoint(lat, lng);
    const code = assertState(state);
    const judged = await guarded('buildings', async () =>
      judge(
        ctx,
        'buildings',
        code,
        await ctx.land.buildingsAt(code, lng, lat),
        'this point',
        (f) => f,
        (f, osm) => buildingCredit(ctx, code, f, osm),
      ),
    );
    return asCollection(judged, 'building footprints');
  },
};
