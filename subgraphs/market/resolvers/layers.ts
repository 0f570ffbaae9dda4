import { badRequest } from '../../../core/errors.ts';
import type { LayerResult, Provenance } from '../../../core/layer.ts';
import { guardLayer, layerEmpty, layerOk } from '../../../core/layer.ts';
import type { MarketContext } from '../data.ts';
import type { MarketLayerName } from '../sql.ts';

/** The property types a sale is filed under. */
export const PROPERTY_TYPES = ['house', 'unit', 'land', 'other'] as const;

export function assertPropertyType(value: string | null | undefined, name = 'property_type'): string | null {
  if (value === null || value === undefined) return null;
  const type = value.trim().toLowerCase();
  if (!(PROPERTY_TYPES as readonly string[]).includes(type)) {
    throw badRequest(`${name} must be one of ${PROPERTY_TYPES.join(', ')}.`, `Got '${value}'.`);
  }
  return type;
}

/** A whole number within [min, max], else a 400 naming the argument. */
export function assertWhole(
  value: number | null | undefined,
  name: string,
  min: number,
  max: number,
  fallback: number,
) {
  const n = value ?? fallback;
  if (!Number.isInteger(n) || n < min || n > max) {
    throw badRequest(`${name} must be a whole number from ${min} to ${max}.`, `Got ${value}.`);
  }
  return n;
}

/** A date as YYYY-MM-DD, else a 400 naming the argument. */
export function assertDate(value: string | null | undefined, name: string): string | null {
  if (value === null || value === undefined) return null;
  const date = value.trim();
  const parsed = new Date(`${date}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(parsed.getTime()) || !parsed.toISOString().startsWith(date)) {
    throw badRequest(`${name} must be a date as YYYY-MM-DD.`, `Got '${value}'.`);
  }
  return date;
}

/**
 * The credit of an answer built from rows that each carry their publisher's (a sale, a rent):
 * every distinct credit joined, or the layer's own where the rows carry none.
 */
export function joinCredits(
  rows: ReadonlyArray<{ attribution: string; license: string }>,
  base: Provenance,
): Provenance {
  if (rows.length === 0) return base;
  const join = (values: string[]) => [...new Set(values)].join(' | ');
  return {
    source: base.source,
    freshness: base.freshness ?? null,
    attribution: join(rows.map((r) => r.attribution)),
    license: join(rows.map((r) => r.license)),
  };
}

/** A layer's answer: not covered where no source of the state is loaded, else ok or no_data. */
export async function judged<T>(
  ctx: MarketContext,
  layer: MarketLayerName,
  state: string,
  what: string,
  answer: (provenance: Provenance) => Promise<{ data: T | null; empty: string; credit?: Provenance }>,
): Promise<LayerResult<T>> {
  return guardLayer(what, async () => {
    const provenance = await ctx.market.provenance(layer, state);
    if (!provenance) return layerEmpty('not_covered', `No ${what} are held for ${state || 'this state'} yet.`);
    const { data, empty, credit } = await answer(provenance);
    if (data === null) return layerEmpty('no_data', empty, provenance);
    return { ...layerOk(data, credit ?? provenance), freshness: provenance.freshness ?? null };
  });
}
