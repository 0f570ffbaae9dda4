import type { PlanningLiveService } from '../../../core/config.ts';
import { ConfigError } from '../../../core/config.ts';
import type { BBox, StateCode } from '../../../core/geo.ts';
import type { Provenance } from '../../../core/layer.ts';
import { fetchedToday } from '../../../core/layer.ts';
import { ArcGisLayerClient } from '../../../core/sources/arcgis.ts';
import { AnswerCache } from '../../../core/sources/answer-cache.ts';
import type { PlanningProfile } from './profiles.ts';
import { PLANNING_PROFILES } from './profiles.ts';
import type { LivePlanningAnswer, LiveUgbFeature, PlanningProtocol, ServiceType } from './protocols.ts';
import { ArcGisPlanning, WfsPlanning } from './protocols.ts';
import type { ProbeResult, ResilienceOptions, ResilienceSnapshot } from '../../../core/sources/resilient.ts';
import { ResilientService } from '../../../core/sources/resilient.ts';
import { WfsClient } from '../../../core/sources/wfs.ts';

export type LiveSettings = ResilienceOptions & {
  /** Budget of one attempt, every page included. */
  timeoutMs: number;
  /** Seconds an answer is kept; 0: not kept. */
  cacheTtlSeconds: number;
  fetch?: typeof fetch;
};

/**
 * A state's live planning service as the planning layer asks it: through its protocol, behind
 * the resilience every call gets, with answers kept for the cache's lifetime. Its credit is the
 * state publisher's, on every answer it gives.
 */
export class LivePlanningAdapter {
  private readonly credit: Provenance;
  private readonly cache: AnswerCache<LivePlanningAnswer>;
  private readonly ugbCache: AnswerCache<LiveUgbFeature[]>;

  constructor(
    readonly profile: PlanningProfile,
    private readonly protocol: PlanningProtocol,
    private readonly service: ResilientService,
    cacheTtlSeconds: number,
    now: () => number = Date.now,
  ) {
    this.credit = {
      attribution: profile.attribution,
      license: profile.license,
      source: `live:${profile.state.toLowerCase()}/planning`,
    };
    this.cache = new AnswerCache(cacheTtlSeconds, undefined, now);
    this.ugbCache = new AnswerCache(cacheTtlSeconds, undefined, now);
  }

  /** A live answer is as fresh as the day it is fetched. */
  get provenance(): Provenance {
    return { ...this.credit, freshness: fetchedToday() };
  }

  get state(): StateCode {
    return this.profile.state;
  }

  get serviceType(): ServiceType {
    return this.protocol.serviceType;
  }

  get label(): string {
    return this.service.label;
  }

  /** The zone and overlays at a point; a cached answer asks nothing and counts as no call. */
  async atPoint(lng: number, lat: number): Promise<LivePlanningAnswer> {
    const key = `${lng}:${lat}`;
    const kept = this.cache.get(key);
    if (kept) return kept;
    const answer = await this.service.call(() => this.protocol.lookup(lng, lat));
    this.cache.set(key, answer);
    return answer;
  }

  /** Whether the state's service publishes an urban growth boundary (Vicmap's WFS does). */
  get servesUgb(): boolean {
    return this.protocol.ugbInBBox !== undefined && this.profile.wfs?.ugbType !== undefined;
  }

  /** UGB polygons in a window, through the same resilience (and counters) as the zone lookups. */
  async ugbInBBox(bbox: BBox): Promise<LiveUgbFeature[]> {
    const ask = this.protocol.ugbInBBox?.bind(this.protocol);
    if (!ask) return [];
    const key = `ugb:${bbox.west}:${bbox.south}:${bbox.east}:${bbox.north}`;
    const kept = this.ugbCache.get(key);
    if (kept) return kept;
    const features = await this.service.call(() => ask(bbox));
    this.ugbCache.set(key, features);
    return features;
  }

  probe(): Promise<ProbeResult> {
    return this.service.probe(() => this.protocol.probe());
  }

  snapshot(): ResilienceSnapshot {
    return this.service.snapshot();
  }
}

function refuse(why: string): never {
  throw new ConfigError(`Invalid configuration: LANDGRAPH_PLANNING_LIVE: ${why}`);
}

/** The live adapter of a configured state; a state or protocol without a profile stops the start. */
export function liveAdapterFor(
  state: StateCode,
  service: PlanningLiveService,
  settings: LiveSettings,
): LivePlanningAdapter {
  const profile = PLANNING_PROFILES[state];
  const known = Object.keys(PLANNING_PROFILES).join(', ');
  if (!profile) refuse(`no live planning profile for ${state} (there are profiles for ${known}).`);
  const label = `live ${state} planning service`;
  const resilient = new ResilientService(label, settings);
  const { timeoutMs, fetch } = settings;
  let protocol: PlanningProtocol;
  if (service.protocol === 'wfs') {
    const wfs = profile.wfs;
    if (!wfs) refuse(`${state}'s planning service is published over ArcGIS REST, not WFS (use arcgis:<layer URL>).`);
    protocol = new WfsPlanning(new WfsClient({ serviceUrl: service.url, label, timeoutMs, fetch }), {
      ...profile,
      wfs,
    });
  } else {
    const arcgis = profile.arcgis;
    if (!arcgis) refuse(`${state}'s planning service is published over WFS, not ArcGIS REST (use wfs:<service URL>).`);
    const client = new ArcGisLayerClient({ layerUrl: service.url, label, timeoutMs, fetch });
    protocol = new ArcGisPlanning(client, { ...profile, arcgis });
  }
  return new LivePlanningAdapter(profile, protocol, resilient, settings.cacheTtlSeconds, settings.now);
}
