import type { DemographicsContext, SalBoundaryModel } from '../data.ts';
import type { SuburbResolvers } from '../generated/resolvers-types.ts';
import type { GeoJSONGeometry } from '../../../core/geojson.ts';

export const Suburb: SuburbResolvers<DemographicsContext> = {
  __resolveReference(reference) {
    return { state: reference.state ?? '', name: reference.name ?? '' };
  },
  async sal_boundary(suburb, _args, ctx): Promise<SalBoundaryModel | null> {
    const [row, provenance] = await Promise.all([
      ctx.demographics.salBoundary.load({ state: suburb.state, name: suburb.name }),
      ctx.demographics.provenance(suburb.state),
    ]);
    // a boundary is served only with the credit of the load it came from
    if (!row.code || !row.name || !row.geometry || !provenance) return null;
    return {
      code: row.code,
      name: row.name,
      geometry: row.geometry as GeoJSONGeometry,
      attribution: provenance.attribution,
      license: provenance.license,
    };
  },
};
