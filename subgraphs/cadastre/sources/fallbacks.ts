import { existsSync } from 'node:fs';
import type { Config } from '../../../core/config.ts';
import type { Dataset } from '../../../core/context.ts';
import type { BBox, StateCode } from '../../../core/geo.ts';
import type { Provenance } from '../../../core/layer.ts';
import { logger } from '../../../core/logger.ts';
import type { ParcelRow } from '../sql.ts';
import { SourceError } from '../../../core/sources/errors.ts';
import type { LiveCadastreSettings } from './live.ts';
import { LiveCadastre } from './live.ts';
import { FileObjectStore, ObjectStoreMirror } from './object-store.ts';

/** The answer of a source, in layer terms: a parcel, or why there is none. */
export type Resolution =
  | { status: 'ok'; parcel: ParcelRow; provenance: Provenance }
  | { status: 'no_data' | 'not_covered'; message: string; provenance: Provenance | null }
  | { status: 'error'; message: string; source: string };

export type CollectionResolution =
  | {
      status: 'ok' | 'no_data' | 'not_covered';
      message: string | null;
      provenance: Provenance | null;
      features: ParcelRow[];
    }
  | { status: 'error'; message: string; source: string };

export type SourcesConfig = Pick<
  Config,
  | 'cadastreLive'
  | 'cadastreLiveTimeoutMs'
  | 'cadastreLiveRetries'
  | 'cadastreCircuitThreshold'
  | 'cadastreCircuitCooldownMs'
  | 'objectStoreDir'
>;

const OFF_PARCEL = 'it falls on a road reserve, water or unparcelled land.';

/**
 * The cadastre's sources behind its database mirror, asked in order where the mirror does not
 * reach: the object-store mirror (snapshots of the caller's own dataset), then the state's
 * live service (live keys only: a test key reads nothing but the frozen sandbox). Every
 * answer is a Resolution (null: no source reaches); a failing source never throws out of here.
 */
export class CadastreFallbacks {
  constructor(
    private readonly objectStore: ObjectStoreMirror | undefined,
    private readonly live: Partial<Record<StateCode, LiveCadastre>>,
  ) {}

  static none(): CadastreFallbacks {
    return new CadastreFallbacks(undefined, {});
  }

  /** The sources of a configuration; a malformed one stops the start (ConfigError). */
  static fromConfig(
    config: SourcesConfig | undefined,
    overrides: Partial<LiveCadastreSettings> = {},
  ): CadastreFallbacks {
    if (!config) return CadastreFallbacks.none();
    const settings: LiveCadastreSettings = {
      timeoutMs: config.cadastreLiveTimeoutMs,
      retries: config.cadastreLiveRetries,
      circuitThreshold: config.cadastreCircuitThreshold,
      circuitCooldownMs: config.cadastreCircuitCooldownMs,
      ...overrides,
    };
    const live: Partial<Record<StateCode, LiveCadastre>> = {};
    for (const [state, url] of Object.entries(config.cadastreLive) as Array<[StateCode, string]>) {
      live[state] = LiveCadastre.forState(state, url, settings);
    }
    const dir = config.objectStoreDir;
    if (dir && !existsSync(dir)) logger.warn('the object-store mirror folder does not exist yet', { dir });
    return new CadastreFallbacks(dir ? new ObjectStoreMirror(new FileObjectStore(dir)) : undefined, live);
  }

  private liveFor(dataset: Dataset, state: StateCode): LiveCadastre | undefined {
    return dataset === 'live' ? this.live[state] : undefined;
  }

  /** Whether any source may answer for a dataset and state, so the mirror's gaps are worth asking about. */
  serves(dataset: Dataset, state: StateCode): boolean {
    return this.objectStore !== undefined || this.liveFor(dataset, state) !== undefined;
  }

  async atPoint(dataset: Dataset, state: StateCode, lng: number, lat: number): Promise<Resolution | null> {
    let failure: Resolution | null = null;
    try {
      const stored = await this.objectStore?.atPoint(dataset, state, lng, lat);
      if (stored) return found(stored.parcel, stored.provenance, `No parcel at this point: ${OFF_PARCEL}`);
    } catch (error) {
      failure = failed(error, 'object-store mirror', `object-store:${state.toLowerCase()}/cadastre`);
    }
    const live = this.liveFor(dataset, state);
    if (!live) return failure;
    try {
      const parcel = await live.atPoint(lng, lat);
      return found(parcel, live.provenance, `No parcel at this point in the live ${state} cadastre: ${OFF_PARCEL}`);
    } catch (error) {
      return failed(error, `live ${state} cadastre`, live.provenance.source);
    }
  }

  /** Parcels by PFI; a PFI no source knows is absent from the map (not reached). */
  async byPfis(dataset: Dataset, state: StateCode, pfis: readonly string[]): Promise<Map<string, Resolution>> {
    const answers = new Map<string, Resolution>();
    for (const pfi of pfis) {
      try {
        const stored = await this.objectStore?.byPfi(dataset, state, pfi);
        if (stored) answers.set(pfi, { status: 'ok', ...stored });
      } catch (error) {
        answers.set(pfi, failed(error, 'object-store mirror', `object-store:${state.toLowerCase()}/cadastre`));
      }
    }
    const live = this.liveFor(dataset, state);
    const asked = pfis.filter((pfi) => answers.get(pfi)?.status !== 'ok');
    if (!live || asked.length === 0) return answers;
    try {
      const parcels = await live.byPfis(asked);
      for (const pfi of asked) {
        const parcel = parcels.get(pfi);
        answers.set(
          pfi,
          found(parcel ?? null, live.provenance, `No parcel with PFI ${pfi} in the live ${state} cadastre.`),
        );
      }
    } catch (error) {
      const failure = failed(error, `live ${state} cadastre`, live.provenance.source);
      for (const pfi of asked) answers.set(pfi, failure);
    }
    return answers;
  }

  /**
   * Parcels in a window: the first source that holds the whole window answers; failing that,
   * one that holds part of it (as the mirror does at its edges); null when none reaches it.
   */
  async inBBox(dataset: Dataset, state: StateCode, box: BBox, limit: number): Promise<CollectionResolution | null> {
    let partial: CollectionResolution | null = null;
    try {
      const stored = await this.objectStore?.inBBox(dataset, state, box, limit);
      if (stored) {
        partial = collection(stored.features, stored.provenance);
        if (stored.holds) return partial;
      }
    } catch (error) {
      partial = failed(error, 'object-store mirror', `object-store:${state.toLowerCase()}/cadastre`);
    }
    const live = this.liveFor(dataset, state);
    if (!live) return partial;
    try {
      return collection(await live.inBBox(box, limit), live.provenance);
    } catch (error) {
      return failed(error, `live ${state} cadastre`, live.provenance.source);
    }
  }
}

function found(parcel: ParcelRow | null, provenance: Provenance, missing: string): Resolution {
  return parcel ? { status: 'ok', parcel, provenance } : { status: 'no_data', message: missing, provenance };
}

function collection(features: ParcelRow[], provenance: Provenance): CollectionResolution {
  return features.length > 0
    ? { status: 'ok', message: null, provenance, features }
    : { status: 'no_data', message: 'No parcels intersect this window.', provenance, features };
}

/** A source failure as an `error` answer; anything but a SourceError is a bug, told in general words. */
function failed(error: unknown, label: string, source: string): { status: 'error'; message: string; source: string } {
  const known = error instanceof SourceError;
  logger.warn(`cadastre source failed: ${label}`, { error: (error as Error).message });
  const what = known ? error.message : `The ${label} failed.`;
  return { status: 'error', message: `${what} Retry shortly; other layers are unaffected.`, source };
}
