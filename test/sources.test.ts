import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../core/config.ts';
import { AnswerCache } from '../core/sources/answer-cache.ts';
import { CircuitBreaker } from '../core/sources/circuit-breaker.ts';
import { AdapterCounters } from '../core/sources/counters.ts';
import type { SourceFailure } from '../core/sources/errors.ts';
import { SourceError } from '../core/sources/errors.ts';
import type { ResilienceOptions } from '../core/sources/resilient.ts';
import { ResilientService } from '../core/sources/resilient.ts';
import { CadastreFallbacks } from '../subgraphs/cadastre/sources/fallbacks.ts';
import type { ArcGisTestServer } from './support/arcgis-server.ts';
import { startArcGisServer } from './support/arcgis-server.ts';
import { square } from './support/planning-services.ts';

let clock = 1_000_000;
const delays: number[] = [];

const options = (overrides: Partial<ResilienceOptions> = {}): ResilienceOptions => ({
  retries: 2,
  circuitThreshold: 3,
  circuitCooldownMs: 30_000,
  now: () => clock,
  random: () => 1,
  sleep: async (ms) => {
    delays.push(ms);
  },
  ...overrides,
});

/** A call that fails the given ways in turn, then answers `ok`; it counts how often it ran. */
function script(...failures: Error[]) {
  const run = async () => {
    run.calls += 1;
    const failure = failures.shift();
    if (failure) throw failure;
    return 'ok';
  };
  run.calls = 0;
  return run;
}

const timeout = () => new SourceError('timeout', 'The test service did not answer within 100 ms.');
const http = (status: number) => new SourceError('http', `The test service answered HTTP ${status}.`, { status });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (e: unknown) => e,
  );
}

describe('which source failures another attempt could help', () => {
  it.each<[SourceFailure, ConstructorParameters<typeof SourceError>[2], boolean]>([
    ['timeout', {}, true],
    ['unreachable', {}, true],
    ['http', { status: 503 }, true],
    ['http', { status: 404 }, false],
    ['http', {}, false],
    ['arcgis', { arcgisCode: 500 }, true],
    ['arcgis', { arcgisCode: 400 }, false],
    ['ows', { status: 500, exceptionCode: 'NoApplicableCode' }, true],
    ['ows', { status: 400, exceptionCode: 'InvalidParameterValue' }, false],
    ['malformed', {}, false],
    ['schema', {}, false],
    ['storage', {}, false],
    ['circuit-open', {}, false],
  ])('%s %o: retryable %s', (failure, details, retryable) => {
    expect(new SourceError(failure, 'x', details).retryable).toBe(retryable);
  });
});

describe('circuit breaker', () => {
  it('opens after the threshold of consecutive failures, a success between them resetting the count', () => {
    const breaker = new CircuitBreaker({ threshold: 3, cooldownMs: 1000, now: () => clock });
    breaker.failed();
    breaker.failed();
    breaker.succeeded();
    breaker.failed();
    breaker.failed();
    expect(breaker.state).toBe('closed');
    expect(breaker.acquire()).toBe('call');
    breaker.failed();
    expect(breaker.state).toBe('open');
    expect(breaker.retryAt).toBe(clock + 1000);
    expect(breaker.acquire()).toBe('refused');
  });

  it('lets one trial call go once the cool-down is over: its failure opens the circuit again, its success closes it', () => {
    const breaker = new CircuitBreaker({ threshold: 1, cooldownMs: 1000, now: () => clock });
    breaker.failed();
    clock += 1000;
    expect(breaker.state).toBe('half-open');
    expect(breaker.acquire()).toBe('trial');
    expect(breaker.acquire()).toBe('refused');
    breaker.failed();
    expect(breaker.state).toBe('open');
    expect(breaker.retryAt).toBe(clock + 1000);
    clock += 1000;
    expect(breaker.acquire()).toBe('trial');
    breaker.succeeded();
    expect(breaker.state).toBe('closed');
    expect(breaker.consecutiveFailures).toBe(0);
    expect(breaker.acquire()).toBe('call');
  });
});

describe('resilient service', () => {
  afterEach(() => {
    delays.length = 0;
  });

  it('retries a retryable failure with doubling backoff under its ceiling, and counts it', async () => {
    const service = new ResilientService('test service', options({ retries: 3, baseDelayMs: 100, maxDelayMs: 250 }));
    const run = script(timeout(), http(502), timeout());
    expect(await service.call(run)).toBe('ok');
    expect(run.calls).toBe(4);
    // Full jitter at random 1: the ceilings themselves, 100, 200, then 400 held to 250.
    expect(delays).toEqual([100, 200, 250]);
    expect(service.snapshot()).toMatchObject({
      requests: 1,
      successes: 1,
      errors: 0,
      retries: 3,
      timeouts: 2,
      successRate: 1,
      circuitState: 'closed',
    });
  });

  it('never retries a failure that is ours or the body’s, nor an error that is no source failure', async () => {
    for (const failure of [
      http(400),
      new SourceError('malformed', 'bad body'),
      new SourceError('schema', 'no id'),
      new Error('a bug'),
    ]) {
      const service = new ResilientService('test service', options());
      const run = script(failure);
      expect(await rejection(service.call(run))).toBe(failure);
      expect(run.calls).toBe(1);
      expect(service.snapshot()).toMatchObject({ requests: 1, errors: 1, retries: 0 });
    }
    expect(delays).toEqual([]);
  });

  it('gives up after its retries, the whole call counting as one failure toward the circuit', async () => {
    const service = new ResilientService('test service', options({ retries: 1, circuitThreshold: 2 }));
    const first = script(timeout(), timeout());
    await rejection(service.call(first));
    expect(first.calls).toBe(2);
    expect(service.snapshot()).toMatchObject({ circuitState: 'closed', consecutiveFailures: 1, errors: 1 });
  });

  it('refuses without calling while open, names when it asks again, and gives the trial call no retries', async () => {
    const service = new ResilientService('test service', options({ retries: 2, circuitThreshold: 2 }));
    for (let i = 0; i < 2; i += 1) await rejection(service.call(script(http(400))));
    const untouched = script();
    const refused = await rejection(service.call(untouched));
    expect(untouched.calls).toBe(0);
    expect(refused).toBeInstanceOf(SourceError);
    expect(refused).toMatchObject({
      failure: 'circuit-open',
      retryable: false,
      message: `The test service is paused after 2 failed calls in a row; it is asked again after ${new Date(clock + 30_000).toISOString()}.`,
    });
    // A refusal is an error for the caller but no evidence about the service.
    expect(service.snapshot()).toMatchObject({ requests: 3, errors: 3, recentCalls: 2 });

    clock += 30_000;
    const trial = script(timeout(), timeout());
    await rejection(service.call(trial));
    expect(trial.calls).toBe(1);
    expect(service.snapshot().circuitState).toBe('open');

    clock += 30_000;
    expect(await service.call(script())).toBe('ok');
    expect(service.snapshot()).toMatchObject({ circuitState: 'closed', consecutiveFailures: 0 });
  });
});

describe('counters', () => {
  it('keeps latency and the recent success rate over bounded windows', () => {
    const counters = new AdapterCounters({ latency: 3, outcomes: 4 }, () => clock);
    for (const ms of [10, 20, 30, 40, 50]) counters.succeeded(ms);
    counters.failed('down', 60);
    counters.failed('down again', 70);
    expect(counters.snapshot()).toMatchObject({
      successes: 5,
      errors: 2,
      successRate: 0.7143,
      // The last four outcomes: two successes, two failures.
      recentSuccessRate: 0.5,
      recentCalls: 4,
      // The last three latencies: 50, 60, 70.
      latency: { meanMs: 60, p50Ms: 60, p95Ms: 70, maxMs: 70 },
      lastError: 'down again',
      lastFailureAt: clock,
    });
  });
});

describe('answer cache', () => {
  it('keeps an answer for its lifetime, evicts the oldest when full, and keeps nothing at ttl 0', () => {
    const cache = new AnswerCache<string>(60, 2, () => clock);
    cache.set('a', 'A');
    cache.set('b', 'B');
    cache.set('a', 'A2');
    cache.set('c', 'C');
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual(['A2', undefined, 'C']);
    clock += 60_000;
    expect(cache.get('a')).toBeUndefined();
    const off = new AnswerCache<string>(0, 2, () => clock);
    off.set('a', 'A');
    expect(off.enabled).toBe(false);
    expect(off.get('a')).toBeUndefined();
  });
});

describe('the live cadastre’s circuit breaker', () => {
  const MELBOURNE = { lng: 144.9631, lat: -37.8136 };
  let server: ArcGisTestServer;

  beforeAll(async () => {
    server = await startArcGisServer({
      Vicmap_Parcel: {
        features: [
          {
            geometry: square(MELBOURNE.lng, MELBOURNE.lat, 0.0004),
            properties: { PARCEL_PFI: '990000001', PARCEL_SPI: '1\\TP990001', PARCEL_PLAN_NUMBER: 'TP990001' },
          },
        ],
      },
    });
  });
  afterEach(() => server.failWith(null));
  afterAll(async () => {
    await server?.close();
  });

  const fallbacks = (env: Record<string, string> = {}) =>
    CadastreFallbacks.fromConfig(
      loadConfig({ LANDGRAPH_CADASTRE_LIVE: `VIC=${server.layerUrl('Vicmap_Parcel')}`, ...env }),
      { now: () => clock, sleep: async () => undefined },
    );
  const atMelbourne = (sources: CadastreFallbacks) => sources.atPoint('live', 'VIC', MELBOURNE.lng, MELBOURNE.lat);

  it('reads its settings, with a breaker on and retries off by default', () => {
    expect(loadConfig({})).toMatchObject({
      cadastreLiveRetries: 0,
      cadastreCircuitThreshold: 5,
      cadastreCircuitCooldownMs: 30_000,
    });
    expect(
      loadConfig({
        LANDGRAPH_CADASTRE_LIVE_RETRIES: '2',
        LANDGRAPH_CADASTRE_CIRCUIT_THRESHOLD: '3',
        LANDGRAPH_CADASTRE_CIRCUIT_COOLDOWN_MS: '5000',
      }),
    ).toMatchObject({ cadastreLiveRetries: 2, cadastreCircuitThreshold: 3, cadastreCircuitCooldownMs: 5000 });
    expect(() => loadConfig({ LANDGRAPH_CADASTRE_CIRCUIT_THRESHOLD: '0' })).toThrow(
      /LANDGRAPH_CADASTRE_CIRCUIT_THRESHOLD/,
    );
  });

  it('pauses a failing state service after the threshold: the layer is an error naming the pause, and nothing is asked', async () => {
    const sources = fallbacks({ LANDGRAPH_CADASTRE_CIRCUIT_THRESHOLD: '2' });
    server.failWith({ kind: 'http', status: 500 });
    for (let i = 0; i < 2; i += 1) {
      expect(await atMelbourne(sources)).toMatchObject({
        status: 'error',
        message: expect.stringMatching(/answered HTTP 500/),
      });
    }
    const before = server.requests.length;
    const paused = await atMelbourne(sources);
    expect(server.requests.length).toBe(before);
    expect(paused).toEqual({
      status: 'error',
      source: 'live:vic/cadastre',
      message: `The live VIC cadastre is paused after 2 failed calls in a row; it is asked again after ${new Date(clock + 30_000).toISOString()}. Retry shortly; other layers are unaffected.`,
    });
    // Windows and PFI lookups ask the same service, so they are refused too.
    expect(
      await sources.inBBox('live', 'VIC', { west: 144.96, south: -37.82, east: 144.97, north: -37.81 }, 10),
    ).toMatchObject({ status: 'error', message: expect.stringMatching(/is paused after 2 failed calls/) });
    expect((await sources.byPfis('live', 'VIC', ['990000001'])).get('990000001')).toMatchObject({
      status: 'error',
      message: expect.stringMatching(/is paused after 2 failed calls/),
    });
    expect(server.requests.length).toBe(before);

    // After the cool-down one trial goes; the service is back, so the circuit closes.
    server.failWith(null);
    clock += 30_000;
    expect(await atMelbourne(sources)).toMatchObject({ status: 'ok', parcel: { parcel_pfi: '990000001' } });
    expect(server.requests.length).toBe(before + 1);
  });

  it('retries a retryable failure when retries are configured', async () => {
    const sources = fallbacks({ LANDGRAPH_CADASTRE_LIVE_RETRIES: '1' });
    server.failWith({ kind: 'http', status: 503 }, 1);
    const before = server.requests.length;
    expect(await atMelbourne(sources)).toMatchObject({ status: 'ok', parcel: { parcel_pfi: '990000001' } });
    expect(server.requests.length - before).toBe(2);
  });
});
