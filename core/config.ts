import { resolve } from 'node:path';
import { z } from 'zod';
import type { StateCode } from './geo.ts';
import { STATES, isStateCode } from './geo.ts';
import { MIN_SECRET_LENGTH } from './internal-auth.ts';

/**
 * The one place the environment is read. Every setting has its default here and a
 * malformed value stops the process at start rather than surfacing mid-request.
 */
const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === '' ? undefined : value))
    .refine((value) => value === undefined || protocols.some((p) => value.startsWith(`${p}://`)), {
      message: `must be a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    });

const port = z.coerce.number().int().min(0).max(65535);

/** An ArcGIS REST layer: `<service>/MapServer/<n>` or `<service>/FeatureServer/<n>`, over http(s). */
const ARCGIS_LAYER = /\/(MapServer|FeatureServer)\/\d+\/?$/;

type LiveLayers = Partial<Record<StateCode, string>>;

/** Reads `VIC=https://.../MapServer/0,NSW=...`: each state at most once, each URL an ArcGIS layer. */
function parseLiveLayers(value: string): LiveLayers | string {
  const layers: LiveLayers = {};
  for (const entry of value.split(',').map((e) => e.trim())) {
    if (entry === '') continue;
    const match = /^([A-Za-z]+)\s*=\s*(\S+)$/.exec(entry);
    if (!match) return `'${entry}' is not STATE=URL`;
    const [, code = '', url = ''] = match;
    const state = code.toUpperCase();
    if (!isStateCode(state)) return `unknown state '${code}' (use ${STATES.join(', ')})`;
    if (layers[state]) return `${state} is given twice`;
    const parsed = URL.canParse(url) ? new URL(url) : undefined;
    if (!parsed || !/^https?:$/.test(parsed.protocol)) return `${state}: '${url}' is not an http(s) URL`;
    if (!ARCGIS_LAYER.test(parsed.pathname)) {
      return `${state}: '${url}' is not an ArcGIS layer URL (.../MapServer/<n> or .../FeatureServer/<n>)`;
    }
    layers[state] = url.replace(/\/+$/, '');
  }
  return layers;
}

/** Per-state live cadastre layers; unset or empty means no live source anywhere. */
const liveLayers = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const parsed = parseLiveLayers(value ?? '');
    if (typeof parsed === 'string') {
      ctx.addIssue({ code: 'custom', message: parsed });
      return z.NEVER;
    }
    return parsed;
  });

/** A state's live planning service: the protocol it speaks and its endpoint. */
export type PlanningLiveService = { protocol: 'wfs' | 'arcgis'; url: string };
type PlanningLive = Partial<Record<StateCode, PlanningLiveService>>;
const isPlanningProtocol = (value: string): value is PlanningLiveService['protocol'] =>
  value === 'wfs' || value === 'arcgis';

/**
 * Reads `VIC=wfs:https://.../geoserver/wfs,NSW=arcgis:https://.../MapServer/19`: each state at
 * most once, the protocol named, an ArcGIS endpoint a layer URL and a WFS endpoint the service's
 * base URL (the client adds the GetFeature parameters).
 */
function parsePlanningLive(value: string): PlanningLive | string {
  const services: PlanningLive = {};
  for (const entry of value.split(',').map((e) => e.trim())) {
    if (entry === '') continue;
    const match = /^([A-Za-z]+)\s*=\s*([A-Za-z]+):(\S+)$/.exec(entry);
    if (!match) return `'${entry}' is not STATE=wfs:URL or STATE=arcgis:URL`;
    const [, code = '', kind = '', url = ''] = match;
    const state = code.toUpperCase();
    const protocol = kind.toLowerCase();
    if (!isStateCode(state)) return `unknown state '${code}' (use ${STATES.join(', ')})`;
    if (services[state]) return `${state} is given twice`;
    if (/^https?$/.test(protocol))
      return `${state}: name the protocol before the URL (wfs:${kind}:... or arcgis:${kind}:...)`;
    if (!isPlanningProtocol(protocol)) return `${state}: unknown protocol '${kind}' (use wfs or arcgis)`;
    const parsed = URL.canParse(url) ? new URL(url) : undefined;
    if (!parsed || !/^https?:$/.test(parsed.protocol)) return `${state}: '${url}' is not an http(s) URL`;
    if (protocol === 'arcgis' && !ARCGIS_LAYER.test(parsed.pathname)) {
      return `${state}: '${url}' is not an ArcGIS layer URL (.../MapServer/<n> or .../FeatureServer/<n>)`;
    }
    if (protocol === 'wfs' && [...parsed.searchParams.keys()].some((k) => k.toLowerCase() === 'request')) {
      return `${state}: give the WFS service URL without a request parameter (the client asks GetFeature itself)`;
    }
    services[state] = { protocol, url: protocol === 'arcgis' ? url.replace(/\/+$/, '') : url };
  }
  return services;
}

/** Per-state live planning services; unset or empty means none anywhere. */
const planningLive = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const parsed = parsePlanningLive(value ?? '');
    if (typeof parsed === 'string') {
      ctx.addIssue({ code: 'custom', message: parsed });
      return z.NEVER;
    }
    return parsed;
  });

/** Reads `VIC,NSW,QLD`: each state at most once. */
function parseStates(value: string): StateCode[] | string {
  const states: StateCode[] = [];
  for (const entry of value.split(',').map((e) => e.trim())) {
    if (entry === '') continue;
    const state = entry.toUpperCase();
    if (!isStateCode(state)) return `unknown state '${entry}' (use ${STATES.join(', ')})`;
    if (states.includes(state)) return `${state} is given twice`;
    states.push(state);
  }
  return states;
}

/**
 * Reads `VIC.overlays=https://.../geoserver/wfs,QLD.flood=https://.../MapServer/0`: a state's
 * named live service and the endpoint that replaces its published default, each at most once.
 * Whether the state has such a service, and the URL its protocol's shape, the hazards subgraph
 * checks against its profiles at start.
 */
function parseServiceUrls(value: string): Record<string, string> | string {
  const urls: Record<string, string> = {};
  for (const entry of value.split(',').map((e) => e.trim())) {
    if (entry === '') continue;
    const match = /^([A-Za-z]+)\.([A-Za-z]+)\s*=\s*(\S+)$/.exec(entry);
    if (!match) return `'${entry}' is not STATE.service=URL`;
    const [, code = '', service = '', url = ''] = match;
    const state = code.toUpperCase();
    if (!isStateCode(state)) return `unknown state '${code}' (use ${STATES.join(', ')})`;
    const key = `${state}.${service.toLowerCase()}`;
    if (urls[key]) return `${key} is given twice`;
    const parsed = URL.canParse(url) ? new URL(url) : undefined;
    if (!parsed || !/^https?:$/.test(parsed.protocol)) return `${key}: '${url}' is not an http(s) URL`;
    urls[key] = url;
  }
  return urls;
}

/** A setting read by one of the parsers above: its message, where it refuses, stops the start. */
const parsedBy = <T>(parse: (value: string) => T | string) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      const parsed = parse(value ?? '');
      if (typeof parsed === 'string') {
        ctx.addIssue({ code: 'custom', message: parsed });
        return z.NEVER;
      }
      return parsed;
    });

/**
 * Where the suburb bundles' licensed_metrics come from (core/suburb-analytics/licensed.ts):
 * unset, empty or `none`: no feed (every metric not_yet_available); `file:/path/feed.json`: a
 * JSON file the operator keeps (a relative path is read from the working directory).
 */
export type LicensedMetricsFeedSetting = { kind: 'none' } | { kind: 'file'; path: string };

function parseLicensedFeed(value: string): LicensedMetricsFeedSetting | string {
  const text = value.trim();
  if (text === '' || text === 'none') return { kind: 'none' };
  if (text.startsWith('file:') && text.length > 'file:'.length) return { kind: 'file', path: resolve(text.slice(5)) };
  return `'${text}' is not none or file:/path/to/feed.json`;
}

/** `1`, `true` or `yes` switch a flag on; unset, empty, `0`, `false` or `no` leave it off. */
const flag = z
  .string()
  .trim()
  .optional()
  .transform((value, ctx) => {
    const v = (value ?? '').toLowerCase();
    if (['1', 'true', 'yes'].includes(v)) return true;
    if (['', '0', 'false', 'no'].includes(v)) return false;
    ctx.addIssue({ code: 'custom', message: `'${value}' is not a flag (use 1 or 0)` });
    return z.NEVER;
  });

/** Reads `0,5000,300000`: the waits (ms) before each webhook delivery attempt after the first. */
function parseSchedule(value: string): number[] | string {
  if (value.trim() === '') return [];
  const waits = value.split(',').map((part) => Number(part.trim()));
  if (waits.some((n) => !Number.isInteger(n) || n < 0 || n > 7 * 86_400_000))
    return `'${value}' is not a comma-separated list of whole milliseconds (at most a week each)`;
  return waits;
}

const EnvSchema = z.object({
  PORT: port.default(4000),
  HOST: z.string().default('127.0.0.1'),
  LANDGRAPH_TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  LANDGRAPH_KEYLESS_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(120),
  DATABASE_URL: optionalUrl(['postgres', 'postgresql']),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  REDIS_URL: optionalUrl(['redis', 'rediss']),
  LANDGRAPH_DATA_DIR: z.string().default('.landgraph'),
  LANDGRAPH_MODE: z.enum(['embedded', 'distributed']).default('embedded'),
  LANDGRAPH_SUBGRAPH_BASE_PORT: port.default(4101),
  LANDGRAPH_SANDBOX_SEED: z.coerce.number().int().default(20261122),
  LANDGRAPH_LOG_LEVEL: z.enum(['silent', 'error', 'warn', 'info', 'debug']).default('info'),
  LANDGRAPH_CADASTRE_LIVE: liveLayers,
  LANDGRAPH_CADASTRE_LIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(4000),
  LANDGRAPH_CADASTRE_LIVE_RETRIES: z.coerce.number().int().min(0).max(5).default(0),
  LANDGRAPH_CADASTRE_CIRCUIT_THRESHOLD: z.coerce.number().int().min(1).max(100).default(5),
  LANDGRAPH_CADASTRE_CIRCUIT_COOLDOWN_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  LANDGRAPH_PLANNING_LIVE: planningLive,
  LANDGRAPH_PLANNING_LIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(4000),
  LANDGRAPH_PLANNING_LIVE_RETRIES: z.coerce.number().int().min(0).max(5).default(2),
  LANDGRAPH_PLANNING_CIRCUIT_THRESHOLD: z.coerce.number().int().min(1).max(100).default(5),
  LANDGRAPH_PLANNING_CIRCUIT_COOLDOWN_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  LANDGRAPH_PLANNING_CACHE_TTL_S: z.coerce.number().int().min(0).max(86_400).default(300),
  LANDGRAPH_HAZARDS_LIVE: parsedBy(parseStates),
  LANDGRAPH_HAZARDS_LIVE_URLS: parsedBy(parseServiceUrls),
  LANDGRAPH_HAZARDS_LIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(4000),
  LANDGRAPH_HAZARDS_LIVE_RETRIES: z.coerce.number().int().min(0).max(5).default(1),
  LANDGRAPH_HAZARDS_CIRCUIT_THRESHOLD: z.coerce.number().int().min(1).max(100).default(5),
  LANDGRAPH_HAZARDS_CIRCUIT_COOLDOWN_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  LANDGRAPH_HAZARDS_CACHE_TTL_S: z.coerce.number().int().min(0).max(86_400).default(300),
  LANDGRAPH_LICENSED_METRICS_FEED: parsedBy(parseLicensedFeed),
  LANDGRAPH_SUBURB_ANALYTICS_EVERY_H: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 7)
    .default(24),
  LANDGRAPH_OBJECT_STORE_DIR: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? resolve(value) : undefined)),
  // The job engine (platform/jobs) and webhooks (platform/webhooks).
  LANDGRAPH_JOB_LEASE_MS: z.coerce.number().int().min(200).max(3_600_000).default(30_000),
  LANDGRAPH_JOB_POLL_MS: z.coerce.number().int().min(20).max(60_000).default(1_000),
  LANDGRAPH_JOB_RETENTION_HOURS: z.coerce.number().min(0.001).max(8_760).default(168),
  LANDGRAPH_JOB_WORKERS: z.coerce.number().int().min(0).max(32).default(2),
  LANDGRAPH_TEST_JOB_KINDS: flag,
  LANDGRAPH_WEBHOOK_ALLOW_LOOPBACK: flag,
  LANDGRAPH_WEBHOOK_CA_FILE: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? resolve(value) : undefined)),
  LANDGRAPH_WEBHOOK_RETRY_SCHEDULE_MS: parsedBy(parseSchedule),
  LANDGRAPH_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  LANDGRAPH_WEBHOOK_SECRET_KEY: z.string().trim().optional(),
  // Bulk export: the monthly row allowance of a key that has none of its own (keys create --export-rows-monthly).
  LANDGRAPH_EXPORT_ROWS_MONTHLY: z.coerce.number().int().min(0).max(100_000_000).default(100_000),
  // Enrich's mapping model: an OpenAI-compatible chat-completions provider (all three, or none).
  LANDGRAPH_ENRICH_LLM_URL: optionalUrl(['http', 'https']),
  LANDGRAPH_ENRICH_LLM_KEY: z.string().trim().optional(),
  LANDGRAPH_ENRICH_LLM_MODEL: z.string().trim().optional(),
  LANDGRAPH_ENRICH_LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(8_000),
  LANDGRAPH_ENRICH_LLM_RETRIES: z.coerce.number().int().min(0).max(5).default(1),
  // Distributed mode: where the subgraph services listen and how the gateway calls them.
  LANDGRAPH_SUBGRAPH_HOST: z.string().trim().min(1).default('127.0.0.1'),
  LANDGRAPH_SUBGRAPH_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  // How often the land-supply rollup is checked (0: never; unset: hourly under `landgraph serve`).
  LANDGRAPH_LAND_SUPPLY_ROLLUP_EVERY_MS: z.coerce.number().int().min(0).max(604_800_000).optional(),
  LANDGRAPH_INTERNAL_SECRET: z
    .string()
    .optional()
    .transform((value) => (value === '' ? undefined : value))
    .refine((value) => value === undefined || value.length >= MIN_SECRET_LENGTH, {
      message: `must be at least ${MIN_SECRET_LENGTH} characters (e.g. openssl rand -hex 32)`,
    }),
});

export type Config = {
  port: number;
  host: string;
  /** Reverse proxies in front of the facade whose X-Forwarded-For is believed; 0: the socket's address. */
  trustProxyHops: number;
  /** Keyless calls of the open routes (the UGB map mount) a minute from one client, in bursts of as many. */
  keylessRateLimitPerMinute: number;
  databaseUrl: string | undefined;
  databasePoolMax: number;
  redisUrl: string | undefined;
  dataDir: string;
  mode: 'embedded' | 'distributed';
  subgraphBasePort: number;
  sandboxSeed: number;
  logLevel: 'silent' | 'error' | 'warn' | 'info' | 'debug';
  /** Live ArcGIS cadastre layer per state, asked where the mirrors do not reach; none when empty. */
  cadastreLive: Partial<Record<StateCode, string>>;
  /** Budget of one attempt of a live cadastre call, all its pages included. */
  cadastreLiveTimeoutMs: number;
  /** Further attempts after a retryable failure; none by default, so a lookup waits one budget at most. */
  cadastreLiveRetries: number;
  /** Consecutive failed calls that open a live cadastre layer's circuit. */
  cadastreCircuitThreshold: number;
  /** How long an open cadastre circuit refuses calls before one trial call may go. */
  cadastreCircuitCooldownMs: number;
  /** Folder of the object-store mirror (parcel snapshot tiles); undefined: no object-store mirror. */
  objectStoreDir: string | undefined;
  /** Live planning service per state, asked (for live keys) where the planning mirror does not reach. */
  planningLive: Partial<Record<StateCode, PlanningLiveService>>;
  /** Budget of one attempt of a live planning call, all its pages included. */
  planningLiveTimeoutMs: number;
  /** Further attempts after a retryable failure (timeout, 5xx, connection reset). */
  planningLiveRetries: number;
  /** Consecutive failed calls that open a live planning service's circuit. */
  planningCircuitThreshold: number;
  /** How long an open circuit refuses calls before one trial call may go. */
  planningCircuitCooldownMs: number;
  /** Seconds a live planning answer is kept in process; 0 turns the cache off. */
  planningCacheTtlS: number;
  /** States whose published hazard services live keys ask where the hazards mirror does not reach; none when empty. */
  hazardsLive: StateCode[];
  /** Endpoints replacing a state's published default, by `STATE.service` (VIC.overlays, NSW.bushfire, QLD.flood...). */
  hazardsLiveUrls: Record<string, string>;
  /** Budget of one attempt of a live hazard call, all its pages included. */
  hazardsLiveTimeoutMs: number;
  /** Further attempts after a retryable failure (timeout, 5xx, connection reset). */
  hazardsLiveRetries: number;
  /** Consecutive failed calls that open a live hazard service's circuit. */
  hazardsCircuitThreshold: number;
  /** How long an open hazard circuit refuses calls before one trial call may go. */
  hazardsCircuitCooldownMs: number;
  /** Seconds a live hazard answer is kept in process; 0 turns the cache off. */
  hazardsCacheTtlS: number;
  /** The licensed feed of the suburb bundles' licensed_metrics; none unless configured. */
  licensedMetricsFeed: LicensedMetricsFeedSetting;
  /** Hours after which the serving process recomputes a state's suburb bundles even without a new ingest. */
  suburbAnalyticsEveryH: number;
  /** Interface the subgraph services bind to in distributed mode; loopback unless set. */
  subgraphHost: string;
  /** Budget of one gateway → subgraph HTTP call. */
  subgraphTimeoutMs: number;
  /** Key of the gateway → subgraph signatures; undefined: the distributed start makes one per run. */
  internalSecret: string | undefined;
  /**
   * How often the land-supply rollup schedule checks the latest week (0: no schedule). Unset:
   * `landgraph serve` checks hourly; a process started otherwise (tests, a lone subgraph) runs none.
   */
  landSupplyRollupEveryMs: number | undefined;
  /** How long a worker's claim on a job lasts unless its heartbeat renews it. */
  jobLeaseMs: number;
  /** How often an idle worker looks for work (it is also woken by NOTIFY). */
  jobPollMs: number;
  /** Hours a finished job's result rows are kept before the sweeper removes them. */
  jobRetentionHours: number;
  /** Jobs one worker (the serving process's, or `landgraph worker`) runs at once. */
  jobWorkers: number;
  /** Export rows a key may receive per calendar month (UTC) unless the key sets its own allowance. */
  exportRowsMonthly: number;
  /** Registers the test-only job kinds (`test.rows`): the crash-recovery e2e sets it. */
  testJobKinds: boolean;
  /** Test only: lets webhook endpoints on loopback addresses register and receive deliveries. */
  webhookAllowLoopback: boolean;
  /** A PEM file of further certificate authorities webhook deliveries trust (a test receiver's). */
  webhookCaFile: string | undefined;
  /** Waits before each retry of a webhook delivery; empty means the default schedule of about a day. */
  webhookRetryScheduleMs: number[];
  /** Budget of one webhook delivery attempt. */
  webhookTimeoutMs: number;
  /** Key the webhook signing secrets are encrypted under; unset: a key file in the data folder. */
  webhookSecretKey: string | undefined;
  /** The model that may propose an enrich upload's column mapping; undefined: heuristics only. */
  enrichLlm: EnrichLlmSettings | undefined;
};

/** An OpenAI-compatible chat-completions provider: POST {url}/chat/completions with a Bearer key. */
export type EnrichLlmSettings = { url: string; key: string; model: string; timeoutMs: number; retries: number };

/** All three of URL, key and model, or none: a half-configured provider fails the start rather than going unused. */
function enrichLlmOf(e: z.output<typeof EnvSchema>): EnrichLlmSettings | undefined {
  const url = e.LANDGRAPH_ENRICH_LLM_URL;
  const key = e.LANDGRAPH_ENRICH_LLM_KEY || undefined;
  const model = e.LANDGRAPH_ENRICH_LLM_MODEL || undefined;
  if (!url && !key && !model) return undefined;
  if (!url || !key || !model) {
    const missing = [
      !url && 'LANDGRAPH_ENRICH_LLM_URL',
      !key && 'LANDGRAPH_ENRICH_LLM_KEY',
      !model && 'LANDGRAPH_ENRICH_LLM_MODEL',
    ]
      .filter(Boolean)
      .join(', ');
    throw new ConfigError(`Invalid configuration: the enrich mapping model needs ${missing} as well.`);
  }
  return {
    url,
    key,
    model,
    timeoutMs: e.LANDGRAPH_ENRICH_LLM_TIMEOUT_MS,
    retries: e.LANDGRAPH_ENRICH_LLM_RETRIES,
  };
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    trustProxyHops: e.LANDGRAPH_TRUST_PROXY_HOPS,
    keylessRateLimitPerMinute: e.LANDGRAPH_KEYLESS_RATE_LIMIT,
    databaseUrl: e.DATABASE_URL,
    databasePoolMax: e.DATABASE_POOL_MAX,
    redisUrl: e.REDIS_URL,
    dataDir: resolve(e.LANDGRAPH_DATA_DIR),
    mode: e.LANDGRAPH_MODE,
    subgraphBasePort: e.LANDGRAPH_SUBGRAPH_BASE_PORT,
    sandboxSeed: e.LANDGRAPH_SANDBOX_SEED,
    logLevel: e.LANDGRAPH_LOG_LEVEL,
    cadastreLive: e.LANDGRAPH_CADASTRE_LIVE,
    cadastreLiveTimeoutMs: e.LANDGRAPH_CADASTRE_LIVE_TIMEOUT_MS,
    cadastreLiveRetries: e.LANDGRAPH_CADASTRE_LIVE_RETRIES,
    cadastreCircuitThreshold: e.LANDGRAPH_CADASTRE_CIRCUIT_THRESHOLD,
    cadastreCircuitCooldownMs: e.LANDGRAPH_CADASTRE_CIRCUIT_COOLDOWN_MS,
    objectStoreDir: e.LANDGRAPH_OBJECT_STORE_DIR,
    planningLive: e.LANDGRAPH_PLANNING_LIVE,
    planningLiveTimeoutMs: e.LANDGRAPH_PLANNING_LIVE_TIMEOUT_MS,
    planningLiveRetries: e.LANDGRAPH_PLANNING_LIVE_RETRIES,
    planningCircuitThreshold: e.LANDGRAPH_PLANNING_CIRCUIT_THRESHOLD,
    planningCircuitCooldownMs: e.LANDGRAPH_PLANNING_CIRCUIT_COOLDOWN_MS,
    planningCacheTtlS: e.LANDGRAPH_PLANNING_CACHE_TTL_S,
    hazardsLive: e.LANDGRAPH_HAZARDS_LIVE,
    hazardsLiveUrls: e.LANDGRAPH_HAZARDS_LIVE_URLS,
    hazardsLiveTimeoutMs: e.LANDGRAPH_HAZARDS_LIVE_TIMEOUT_MS,
    hazardsLiveRetries: e.LANDGRAPH_HAZARDS_LIVE_RETRIES,
    hazardsCircuitThreshold: e.LANDGRAPH_HAZARDS_CIRCUIT_THRESHOLD,
    hazardsCircuitCooldownMs: e.LANDGRAPH_HAZARDS_CIRCUIT_COOLDOWN_MS,
    hazardsCacheTtlS: e.LANDGRAPH_HAZARDS_CACHE_TTL_S,
    licensedMetricsFeed: e.LANDGRAPH_LICENSED_METRICS_FEED,
    suburbAnalyticsEveryH: e.LANDGRAPH_SUBURB_ANALYTICS_EVERY_H,
    subgraphHost: e.LANDGRAPH_SUBGRAPH_HOST,
    subgraphTimeoutMs: e.LANDGRAPH_SUBGRAPH_TIMEOUT_MS,
    internalSecret: e.LANDGRAPH_INTERNAL_SECRET,
    landSupplyRollupEveryMs: e.LANDGRAPH_LAND_SUPPLY_ROLLUP_EVERY_MS,
    jobLeaseMs: e.LANDGRAPH_JOB_LEASE_MS,
    jobPollMs: e.LANDGRAPH_JOB_POLL_MS,
    jobRetentionHours: e.LANDGRAPH_JOB_RETENTION_HOURS,
    jobWorkers: e.LANDGRAPH_JOB_WORKERS,
    exportRowsMonthly: e.LANDGRAPH_EXPORT_ROWS_MONTHLY,
    testJobKinds: e.LANDGRAPH_TEST_JOB_KINDS,
    webhookAllowLoopback: e.LANDGRAPH_WEBHOOK_ALLOW_LOOPBACK,
    webhookCaFile: e.LANDGRAPH_WEBHOOK_CA_FILE,
    webhookRetryScheduleMs: e.LANDGRAPH_WEBHOOK_RETRY_SCHEDULE_MS,
    webhookTimeoutMs: e.LANDGRAPH_WEBHOOK_TIMEOUT_MS,
    webhookSecretKey: e.LANDGRAPH_WEBHOOK_SECRET_KEY,
    enrichLlm: enrichLlmOf(e),
  };
}
