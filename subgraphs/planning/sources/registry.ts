import type { Config } from '../../../core/config.ts';
import { loadConfig } from '../../../core/config.ts';
import type { Dataset } from '../../../core/context.ts';
import type { StateCode } from '../../../core/geo.ts';
import { isStateCode } from '../../../core/geo.ts';
import type { Provenance } from '../../../core/layer.ts';
import type { ProvenanceCatalog } from '../../../core/provenance.ts';
import type { LivePlanningAdapter, LiveSettings } from './live.ts';
import { liveAdapterFor } from './live.ts';
import type { ResilienceSnapshot } from '../../../core/sources/resilient.ts';

/** The states and territories the planning-zone service counts (spec 2.13: totalStates). */
export const PLANNING_STATES: readonly StateCode[] = ['NSW', 'VIC', 'QLD', 'SA', 'WA', 'TAS', 'NT', 'ACT'];

export type PlanningSourcesConfig = Pick<
  Config,
  | 'planningLive'
  | 'planningLiveTimeoutMs'
  | 'planningLiveRetries'
  | 'planningCircuitThreshold'
  | 'planningCircuitCooldownMs'
  | 'planningCacheTtlS'
>;

/** What health and metrics report of the settings every live call runs under. */
export type ServiceSettings = { cacheEnabled: boolean; cacheTTL: number; requestTimeout: number };

/** The planning layer held in the database for a state: the datasets holding it and the credit of the one shown. */
export type MirrorView = { datasets: Dataset[]; provenance: Provenance };

/** One state's adapter: the database mirror where we hold the layer, the live service where one is configured. */
export type StateView = {
  state: StateCode;
  mirror: MirrorView | null;
  live: { adapter: LivePlanningAdapter; snapshot: ResilienceSnapshot } | null;
};

/** Live data is what the service serves for real; the sandbox is the demo beside it. */
const DATASETS: readonly Dataset[] = ['live', 'sandbox'];

/**
 * The planning-zone adapters of one process, one per state: its live services (with their
 * circuits, counters and caches, which outlive requests) and a view of the database mirror
 * from the credits catalogue. Test keys never reach a live service: the sandbox is frozen.
 */
export class PlanningAdapters {
  constructor(
    private readonly catalog: Pick<ProvenanceCatalog, 'get'>,
    private readonly live: Partial<Record<StateCode, LivePlanningAdapter>>,
    readonly settings: ServiceSettings,
  ) {}

  /**
   * The adapters a configuration names; a state or protocol without a profile stops the start
   * (ConfigError). Without a configuration only the mirror serves, under the default settings.
   */
  static fromConfig(
    config: PlanningSourcesConfig | undefined,
    catalog: Pick<ProvenanceCatalog, 'get'>,
    overrides: Partial<LiveSettings> = {},
  ): PlanningAdapters {
    const c = config ?? loadConfig({});
    const settings: LiveSettings = {
      timeoutMs: c.planningLiveTimeoutMs,
      retries: c.planningLiveRetries,
      circuitThreshold: c.planningCircuitThreshold,
      circuitCooldownMs: c.planningCircuitCooldownMs,
      cacheTtlSeconds: c.planningCacheTtlS,
      ...overrides,
    };
    const live: Partial<Record<StateCode, LivePlanningAdapter>> = {};
    for (const [state, service] of Object.entries(c.planningLive)) {
      if (isStateCode(state)) live[state] = liveAdapterFor(state, service, settings);
    }
    return new PlanningAdapters(catalog, live, {
      cacheEnabled: settings.cacheTtlSeconds > 0,
      cacheTTL: settings.cacheTtlSeconds,
      requestTimeout: settings.timeoutMs,
    });
  }

  /** The live service a dataset may ask for a state: live keys only. */
  liveFor(dataset: Dataset, state: string): LivePlanningAdapter | undefined {
    return dataset === 'live' && isStateCode(state) ? this.live[state] : undefined;
  }

  /** The live services, for probing. */
  liveAdapters(): LivePlanningAdapter[] {
    return PLANNING_STATES.flatMap((state) => this.live[state] ?? []);
  }

  /** Every state's adapter as it stands now, in PLANNING_STATES order. */
  async states(): Promise<StateView[]> {
    return Promise.all(
      PLANNING_STATES.map(async (state): Promise<StateView> => {
        const held = await Promise.all(DATASETS.map((d) => this.catalog.get(d, 'planning', state)));
        const datasets = DATASETS.filter((_d, i) => held[i] !== undefined);
        const shown = held.find((p) => p !== undefined);
        const adapter = this.live[state];
        return {
          state,
          mirror: shown ? { datasets, provenance: shown } : null,
          live: adapter ? { adapter, snapshot: adapter.snapshot() } : null,
        };
      }),
    );
  }
}
