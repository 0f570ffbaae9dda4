import { DatabaseUnavailableError } from './errors.ts';
import { logger } from './logger.ts';

/** The statuses every layer of the property graph reports (spec 2.6). */
export type LayerStatus = 'ok' | 'no_data' | 'not_covered' | 'skipped' | 'error';

export type Provenance = { attribution: string; license: string; source: string };

export type LayerResult<T> = {
  status: LayerStatus;
  attribution: string | null;
  license: string | null;
  source: string | null;
  message: string | null;
  data: T | null;
};

export function layerOk<T>(data: T, provenance: Provenance): LayerResult<T> {
  return { status: 'ok', data, message: null, ...provenance };
}

export function layerEmpty<T>(
  status: Exclude<LayerStatus, 'ok' | 'error'>,
  message: string,
  provenance?: Provenance,
): LayerResult<T> {
  return {
    status,
    data: null,
    message,
    attribution: provenance?.attribution ?? null,
    license: provenance?.license ?? null,
    source: provenance?.source ?? null,
  };
}

/**
 * Runs one layer's lookup so that its failure stays inside the layer: the caller sees
 * status `error` for this layer and every other layer of the same query still resolves.
 */
export async function guardLayer<T>(layer: string, lookup: () => Promise<LayerResult<T>>): Promise<LayerResult<T>> {
  try {
    return await lookup();
  } catch (error) {
    // The database being out of reach is not one layer failing: the whole answer is a 503.
    if (error instanceof DatabaseUnavailableError) throw error;
    logger.error(`layer ${layer} failed`, { error: (error as Error).message });
    return {
      status: 'error',
      data: null,
      message: `The ${layer} source failed for this property; other layers are unaffected. Retry later.`,
      attribution: null,
      license: null,
      source: null,
    };
  }
}
