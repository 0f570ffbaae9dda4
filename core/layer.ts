import { DatabaseUnavailableError } from './errors.ts';
import { logger } from './logger.ts';

/** The statuses every layer of the property graph reports (spec 2.6). */
export type LayerStatus = 'ok' | 'no_data' | 'not_covered' | 'skipped' | 'error';

/**
 * Where a layer's answer came from. `freshness` is the date (YYYY-MM-DD) of the snapshot that
 * answered: for a mirror, the day the catalog records it was loaded; for a live source, the day
 * it was fetched. Absent where a source cannot date itself.
 */
export type Provenance = { attribution: string; license: string; source: string; freshness?: string | null };

export type LayerResult<T> = {
  status: LayerStatus;
  attribution: string | null;
  license: string | null;
  source: string | null;
  message: string | null;
  /** The snapshot date of the source that answered (see Provenance); null without one. */
  freshness?: string | null;
  data: T | null;
};

export function layerOk<T>(data: T, provenance: Provenance): LayerResult<T> {
  return { status: 'ok', data, message: null, freshness: null, ...provenance };
}

/** The day (YYYY-MM-DD, UTC) a live source is read on: its answer is as fresh as the fetch. */
export function fetchedToday(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** The oldest of several snapshot dates: an answer built from them is at least that fresh. */
export function oldestFreshness(dates: ReadonlyArray<string | null | undefined>): string | null {
  const present = dates.filter((d): d is string => !!d).sort();
  return present[0] ?? null;
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
    freshness: provenance?.freshness ?? null,
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
      freshness: null,
    };
  }
}
