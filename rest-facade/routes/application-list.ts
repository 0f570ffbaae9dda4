import { AppError } from '../../core/errors.ts';
import type { RouteResponse } from '../route.ts';
import type { LayerFields } from './cadastre.ts';
import { creditOf } from './cadastre.ts';

/** An application layer as the DA and SPEAR routes read it: the layer's fields and its freshness. */
export type ApplicationLayerFields = LayerFields & { freshness: string | null };

/** A failing source is a 502 (docs/decisions.md "Hardening (P5)"); `what` names it, e.g. "SPEAR". */
export function refuseFailedSource(layer: LayerFields, what: string): void {
  if (layer.status === 'error') {
    throw new AppError(
      'UPSTREAM_UNAVAILABLE',
      `The ${what} source failed for this request.`,
      layer.message ?? 'Retry shortly.',
    );
  }
}

/**
 * The body of a list of applications (DA or SPEAR), with the layer's status and credit: the
 * records only where the layer is ok and found some, credit headers only then.
 */
export function applicationListBody(
  what: string,
  layer: ApplicationLayerFields,
  applications: ReadonlyArray<Record<string, unknown>>,
  extra: Record<string, unknown>,
): RouteResponse {
  refuseFailedSource(layer, what);
  const ok = layer.status === 'ok' && applications.length > 0;
  return {
    body: {
      success: true,
      ...extra,
      status: layer.status,
      source: layer.source,
      freshness: layer.freshness,
      count: ok ? applications.length : 0,
      data: ok ? applications : [],
      error: null,
      hint: ok ? null : layer.message,
      attribution: layer.attribution,
      license: layer.license,
    },
    credit: ok ? creditOf(layer) : null,
  };
}
