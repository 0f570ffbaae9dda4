import { AppError } from '../../core/errors.ts';
import { defineRoute } from '../route.ts';
import { LAYER_FIELDS, creditOf } from './cadastre.ts';
import { landLayer, landQuery } from './land.ts';
import type { ProvisionsLayerFields } from './provisions-shape.ts';
import { PROVISIONS_FIELDS, provisionsToRest } from './provisions-shape.ts';

export const planningProvisions = defineRoute({
  method: 'get',
  path: '/v1/planning-provisions',
  tag: 'Planning',
  summary: 'Setbacks per boundary, site coverage, height and walls on boundaries for a lot, with their regulations.',
  access: { scope: 'planning.provisions.read' },
  query: landQuery,
  errorStyle: 'plain',
  async handle(q, { graph, scope }) {
    const selection = `provisions(lot: $lot) { ${LAYER_FIELDS} data { ${PROVISIONS_FIELDS} } }`;
    const { property, query } = await landLayer<ProvisionsLayerFields>(graph, scope, q, selection);
    const layer = property.layer;
    if (layer.status === 'error' || !layer.data) {
      throw new AppError(
        layer.status === 'error' ? 'UPSTREAM_UNAVAILABLE' : 'NOT_FOUND',
        layer.message ?? 'No provisions could be worked out here.',
        layer.status === 'error' ? 'A planning source failed; retry shortly.' : undefined,
      );
    }
    const credit = creditOf(layer);
    return {
      body: {
        success: true,
        query,
        property: { parcel_pfi: property.parcel_pfi, state: property.state },
        status: layer.status,
        source: layer.source,
        message: layer.message,
        data: provisionsToRest(layer.data),
        attribution: credit?.attribution ?? null,
        license: credit?.license ?? null,
      },
      credit,
    };
  },
});
