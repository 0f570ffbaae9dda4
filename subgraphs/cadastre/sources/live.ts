import { ConfigError } from '../../../core/config.ts';
import type { BBox, StateCode } from '../../../core/geo.ts';
import type { Provenance } from '../../../core/layer.ts';
import { fetchedToday } from '../../../core/layer.ts';
import { areaM2, containsPoint, interiorPoint, intersectsBox } from '../../../core/polygons.ts';
import type { ArcGisFeature } from '../../../core/sources/arcgis.ts';
import { ArcGisLayerClient, sqlString } from '../../../core/sources/arcgis.ts';
import { SourceError } from '../../../core/sources/errors.ts';
import type { ResilienceOptions, ResilienceSnapshot } from '../../../core/sources/resilient.ts';
import { ResilientService } from '../../../core/sources/resilient.ts';
import type { ParcelRow } from '../sql.ts';
import type { StateAdapter } from './state-adapters.ts';
import { STATE_ADAPTERS } from './state-adapters.ts';

export type LiveCadastreSettings = ResilienceOptions & {
  /** Budget of one attempt, every page included. */
  timeoutMs: number;
  fetch?: typeof fetch;
};

/** How many identifiers one `where ... IN (...)` carries. */
const PFI_BATCH = 100;

/**
 * A state's live cadastre (an ArcGIS layer) answering in our parcel shape: identifiers
 * mapped by the state's adapter, raw attributes kept, area and an inside point computed
 * here, and every answer held to the mirror's exact rules. Every call goes through the same
 * resilience as a live planning service's (circuit breaker, retries, counters), so a state
 * service that is down costs each lookup a refusal rather than a timeout.
 */
export class LiveCadastre {
  private readonly credit: Provenance;

  constructor(
    readonly adapter: StateAdapter,
    private readonly client: ArcGisLayerClient,
    private readonly service: ResilientService,
  ) {
    this.credit = {
      attribution: adapter.attribution,
      license: adapter.license,
      source: `live:${adapter.state.toLowerCase()}/cadastre`,
    };
  }

  /** A live answer is as fresh as the day it is fetched. */
  get provenance(): Provenance {
    return { ...this.credit, freshness: fetchedToday() };
  }

  /** The live source of a configured state; a state without an adapter stops the start. */
  static forState(state: StateCode, layerUrl: string, settings: LiveCadastreSettings): LiveCadastre {
    const adapter = STATE_ADAPTERS[state];
    if (!adapter) {
      const known = Object.keys(STATE_ADAPTERS).join(', ');
      throw new ConfigError(
        `Invalid configuration: LANDGRAPH_CADASTRE_LIVE: no live cadastre adapter for ${state} (there are adapters for ${known}).`,
      );
    }
    const label = `live ${state} cadastre`;
    const { timeoutMs, fetch } = settings;
    return new LiveCadastre(
      adapter,
      new ArcGisLayerClient({ layerUrl, timeoutMs, label, fetch }),
      new ResilientService(label, settings),
    );
  }

  /** The counters and circuit of the state's service since the process started. */
  snapshot(): ResilienceSnapshot {
    return this.service.snapshot();
  }

  /** The parcel under a point: of several (a point on a shared boundary), the lowest PFI, as the mirror picks. */
  async atPoint(lng: number, lat: number): Promise<ParcelRow | null> {
    return this.service.call(async () => {
      const features = await this.client.query({ filter: { kind: 'point', lng, lat } });
      const parcels = this.parcels(features).filter((p) => containsPoint(p.geometry, lng, lat));
      return parcels.sort(byPfi)[0] ?? null;
    });
  }

  async byPfis(pfis: readonly string[]): Promise<Map<string, ParcelRow>> {
    const wanted = [...new Set(pfis)].filter((pfi) => !this.adapter.idIsNumber || /^\d{1,18}$/.test(pfi));
    const found = new Map<string, ParcelRow>();
    for (let i = 0; i < wanted.length; i += PFI_BATCH) {
      const batch = wanted.slice(i, i + PFI_BATCH);
      const values = batch.map((pfi) => (this.adapter.idIsNumber ? pfi : sqlString(pfi)));
      const where = `${this.adapter.idField} IN (${values.join(',')})`;
      const parcels = await this.service.call(async () => this.parcels(await this.client.query({ where })));
      for (const parcel of parcels) {
        if (batch.includes(parcel.parcel_pfi) && !found.has(parcel.parcel_pfi)) found.set(parcel.parcel_pfi, parcel);
      }
    }
    return found;
  }

  /**
   * Parcels genuinely intersecting a window, whole, by PFI: at most `limit + 1`, so the caller
   * can refuse an over-full window. Paging stops as soon as the answer is known to be over.
   */
  async inBBox(box: BBox, limit: number): Promise<ParcelRow[]> {
    // One call for the whole walk: a retry starts it again from the first page.
    return this.service.call(async () => {
      const found = new Map<string, ParcelRow>();
      for await (const page of this.client.pages({ filter: { kind: 'envelope', ...box } })) {
        for (const parcel of this.parcels(page)) {
          if (intersectsBox(parcel.geometry, box)) found.set(parcel.parcel_pfi, parcel);
        }
        if (found.size > limit) break;
      }
      return [...found.values()].sort(byPfi).slice(0, limit + 1);
    });
  }

  private parcels(features: ArcGisFeature[]): Array<ParcelRow & { geometry: NonNullable<ArcGisFeature['geometry']> }> {
    return features.flatMap((feature) => {
      const geometry = feature.geometry;
      if (!geometry) return [];
      const ids = this.adapter.identify(feature.attributes);
      if (!ids.parcel_pfi) {
        throw new SourceError(
          'schema',
          `The ${this.client.label} answered a parcel without ${this.adapter.idField}: its schema may have changed.`,
        );
      }
      const inside = interiorPoint(geometry);
      return [
        {
          ...ids,
          parcel_pfi: ids.parcel_pfi,
          state: this.adapter.state,
          area_m2: areaM2(geometry),
          geometry,
          inside_lat: inside.lat,
          inside_lng: inside.lng,
          upstream_attributes: feature.attributes,
        },
      ];
    });
  }
}

const byPfi = (a: ParcelRow, b: ParcelRow) => (a.parcel_pfi < b.parcel_pfi ? -1 : a.parcel_pfi > b.parcel_pfi ? 1 : 0);
