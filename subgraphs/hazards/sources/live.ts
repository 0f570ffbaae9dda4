import type { StateCode } from '../../../core/geo.ts';
import { containsPoint } from '../../../core/polygons.ts';
import type { ParcelGeometry } from '../../../core/polygons.ts';
import { AnswerCache } from '../../../core/sources/answer-cache.ts';
import type { ArcGisLayerClient } from '../../../core/sources/arcgis.ts';
import type { Attributes } from '../../../core/sources/attributes.ts';
import type { ProbeResult, ResilienceOptions, ResilienceSnapshot } from '../../../core/sources/resilient.ts';
import type { ResilientService } from '../../../core/sources/resilient.ts';
import type { WfsClient } from '../../../core/sources/wfs.ts';
import type { HazardKind, OverlayHit } from '../sql.ts';
import type { HazardProfile, HazardServiceProfile } from './profiles.ts';

export type LiveSettings = ResilienceOptions & {
  /** Budget of one attempt, every page included. */
  timeoutMs: number;
  /** Seconds an answer is kept; 0: not kept. */
  cacheTtlSeconds: number;
  fetch?: typeof fetch;
};

/** A live service's answer at a point: the hazard overlays over it, and the day it was asked. */
export type LiveHazardAnswer = {
  overlays: Array<OverlayHit & { kind: HazardKind }>;
  /** YYYY-MM-DD (UTC): a live service answers as of the moment it is asked. */
  asOf: string;
};

type Polygonal = { attributes: Attributes; geometry: ParcelGeometry | null };

/** Half a centimetre: the box a WFS point query asks for, so the service's index answers it. */
const POINT_BOX = 5e-8;

/** One protocol's way of asking a service for the features over a point. */
export type FeaturesAtPoint = {
  at(lng: number, lat: number): Promise<Polygonal[]>;
  /** A cheap request that proves the service answers its protocol. */
  probe(): Promise<void>;
};

export function wfsFeatures(client: WfsClient, typeName: string): FeaturesAtPoint {
  return {
    async at(lng, lat) {
      const bbox = { west: lng - POINT_BOX, south: lat - POINT_BOX, east: lng + POINT_BOX, north: lat + POINT_BOX };
      const features = await client.getFeatures({ typeName, bbox });
      return features.map((f) => ({ attributes: f.properties, geometry: f.geometry }));
    },
    async probe() {
      await client.getFeatures({ typeName, count: 1 });
    },
  };
}

export function arcgisFeatures(client: ArcGisLayerClient): FeaturesAtPoint {
  return {
    at: (lng, lat) => client.query({ filter: { kind: 'point', lng, lat } }),
    async probe() {
      await client.query({ where: '1=0' });
    },
  };
}

/**
 * One published hazard service of a state, as the hazards layer asks it: through its protocol,
 * behind the resilience every live call gets (timeout, retries, circuit breaker, counters), with
 * answers kept for the cache's lifetime. It speaks for its kinds only: its failure makes those
 * hazards `unavailable` and leaves the others as they are.
 */
export class LiveHazardService {
  private readonly cache: AnswerCache<LiveHazardAnswer>;

  constructor(
    readonly profile: HazardProfile,
    readonly service: HazardServiceProfile,
    private readonly features: FeaturesAtPoint,
    private readonly resilient: ResilientService,
    cacheTtlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {
    this.cache = new AnswerCache(cacheTtlSeconds, undefined, now);
  }

  get state(): StateCode {
    return this.profile.state;
  }

  get kinds(): readonly HazardKind[] {
    return this.service.kinds;
  }

  get label(): string {
    return this.resilient.label;
  }

  /** The hazard overlays at a point; a cached answer asks nothing and counts as no call. */
  async atPoint(lng: number, lat: number): Promise<LiveHazardAnswer> {
    const key = `${lng}:${lat}`;
    const kept = this.cache.get(key);
    if (kept) return kept;
    const answer = await this.resilient.call(async () => this.read(await this.features.at(lng, lat), lng, lat));
    this.cache.set(key, answer);
    return answer;
  }

  probe(): Promise<ProbeResult> {
    return this.resilient.probe(() => this.features.probe());
  }

  snapshot(): ResilienceSnapshot {
    return this.resilient.snapshot();
  }

  /**
   * The service's features held to the mirror's rules: only polygons that contain the point
   * (services match by bounding box or tolerance), only the hazards this service speaks for, one
   * piece of evidence per code, in code order as the mirror gives them.
   */
  private read(features: Polygonal[], lng: number, lat: number): LiveHazardAnswer {
    const asOf = new Date(this.now()).toISOString().slice(0, 10);
    const byCode = new Map<string, OverlayHit & { kind: HazardKind }>();
    for (const feature of features) {
      if (feature.geometry && !containsPoint(feature.geometry, lng, lat)) continue;
      const reading = this.service.read(feature.attributes);
      if (!reading || !this.service.kinds.includes(reading.kind)) continue;
      const known = byCode.get(reading.code);
      if (known && SEVERITY_RANK[known.severity] >= SEVERITY_RANK[reading.severity]) continue;
      byCode.set(reading.code, { ...reading, source: this.service.dataset, snapshot_date: asOf });
    }
    const overlays = [...byCode.values()].sort((a, b) => a.kind.localeCompare(b.kind) || a.code.localeCompare(b.code));
    return { overlays, asOf };
  }
}

const SEVERITY_RANK = { low: 1, medium: 2, high: 3, extreme: 4 } as const;
