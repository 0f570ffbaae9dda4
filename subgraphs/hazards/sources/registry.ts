import type { Config } from '../../../core/config.ts';
import { ConfigError, loadConfig } from '../../../core/config.ts';
import type { Dataset } from '../../../core/context.ts';
import type { StateCode } from '../../../core/geo.ts';
import { isStateCode } from '../../../core/geo.ts';
import { ArcGisLayerClient } from '../../../core/sources/arcgis.ts';
import { ResilientService } from '../../../core/sources/resilient.ts';
import { WfsClient } from '../../../core/sources/wfs.ts';
import type { HazardKind } from '../sql.ts';
import type { LiveSettings } from './live.ts';
import { LiveHazardService, arcgisFeatures, wfsFeatures } from './live.ts';
import { HAZARD_PROFILES } from './profiles.ts';

export type HazardSourcesConfig = Pick<
  Config,
  | 'hazardsLive'
  | 'hazardsLiveUrls'
  | 'hazardsLiveTimeoutMs'
  | 'hazardsLiveRetries'
  | 'hazardsCircuitThreshold'
  | 'hazardsCircuitCooldownMs'
  | 'hazardsCacheTtlS'
>;

const ARCGIS_LAYER = /\/(MapServer|FeatureServer)\/\d+\/?$/;

function refuse(setting: string, why: string): never {
  throw new ConfigError(`Invalid configuration: ${setting}: ${why}`);
}

/**
 * The live hazard services of one process, by state (their circuits, counters and caches outlive
 * requests). Only live keys reach them: the sandbox is frozen.
 */
export class HazardLiveSources {
  constructor(private readonly byState: Partial<Record<StateCode, LiveHazardService[]>>) {}

  /**
   * The services a configuration names; a state without a profile, an override naming no service
   * of its state, or an ArcGIS override that is not a layer URL stops the start (ConfigError).
   */
  static fromConfig(config: HazardSourcesConfig | undefined, overrides: Partial<LiveSettings> = {}): HazardLiveSources {
    const c = config ?? loadConfig({});
    const settings: LiveSettings = {
      timeoutMs: c.hazardsLiveTimeoutMs,
      retries: c.hazardsLiveRetries,
      circuitThreshold: c.hazardsCircuitThreshold,
      circuitCooldownMs: c.hazardsCircuitCooldownMs,
      cacheTtlSeconds: c.hazardsCacheTtlS,
      ...overrides,
    };
    const known = Object.keys(HAZARD_PROFILES).join(', ');
    for (const key of Object.keys(c.hazardsLiveUrls)) {
      const [state = '', name] = key.split('.');
      const profile = isStateCode(state) ? HAZARD_PROFILES[state] : undefined;
      const services = profile?.services.map((s) => `${state}.${s.name}`) ?? [];
      if (!services.includes(key)) {
        refuse(
          'LANDGRAPH_HAZARDS_LIVE_URLS',
          profile
            ? `${state} has no live hazard service '${name}' (it has ${services.join(', ')})`
            : `no live hazard profile for ${state} (there are profiles for ${known})`,
        );
      }
      if (!c.hazardsLive.includes(state as StateCode)) {
        refuse('LANDGRAPH_HAZARDS_LIVE_URLS', `${key} is given but ${state} is not in LANDGRAPH_HAZARDS_LIVE`);
      }
    }
    const byState: Partial<Record<StateCode, LiveHazardService[]>> = {};
    for (const state of c.hazardsLive) {
      const profile = HAZARD_PROFILES[state];
      if (!profile)
        refuse('LANDGRAPH_HAZARDS_LIVE', `no live hazard profile for ${state} (there are profiles for ${known})`);
      byState[state] = profile.services.map((service) => {
        const url = c.hazardsLiveUrls[`${state}.${service.name}`] ?? service.url;
        const label = `live ${state} ${service.name === 'overlays' ? 'hazard overlay' : service.name} service`;
        const { timeoutMs, fetch } = settings;
        let features;
        if (service.protocol === 'wfs') {
          if ([...new URL(url).searchParams.keys()].some((k) => k.toLowerCase() === 'request')) {
            refuse(
              'LANDGRAPH_HAZARDS_LIVE_URLS',
              `${state}.${service.name}: give the WFS service URL without a request parameter`,
            );
          }
          features = wfsFeatures(new WfsClient({ serviceUrl: url, label, timeoutMs, fetch }), service.typeName!);
        } else {
          if (!ARCGIS_LAYER.test(new URL(url).pathname)) {
            refuse(
              'LANDGRAPH_HAZARDS_LIVE_URLS',
              `${state}.${service.name}: '${url}' is not an ArcGIS layer URL (.../MapServer/<n> or .../FeatureServer/<n>)`,
            );
          }
          features = arcgisFeatures(
            new ArcGisLayerClient({ layerUrl: url.replace(/\/+$/, ''), label, timeoutMs, fetch }),
          );
        }
        return new LiveHazardService(
          profile,
          service,
          features,
          new ResilientService(label, settings),
          settings.cacheTtlSeconds,
          settings.now,
        );
      });
    }
    return new HazardLiveSources(byState);
  }

  /** The live services a dataset may ask for a state: live keys only. */
  servicesFor(dataset: Dataset, state: string): LiveHazardService[] {
    return dataset === 'live' && isStateCode(state) ? (this.byState[state] ?? []) : [];
  }

  /** The service of a state speaking for a hazard kind, where a live key may ask one. */
  serviceFor(dataset: Dataset, state: string, kind: HazardKind): LiveHazardService | undefined {
    return this.servicesFor(dataset, state).find((s) => s.kinds.includes(kind));
  }

  /** Every live service, for health and probes. */
  all(): LiveHazardService[] {
    return Object.values(this.byState).flat();
  }
}
