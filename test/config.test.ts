import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../core/config.ts';

describe('configuration', () => {
  it('gives every setting its default when the environment is empty', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 4000,
      databaseUrl: undefined,
      redisUrl: undefined,
      mode: 'embedded',
      subgraphBasePort: 4101,
      databasePoolMax: 10,
    });
    expect(config.dataDir.endsWith('.landgraph')).toBe(true);
    // live hazard services: none unless named; their resilience settings (test/hazards-live.test.ts)
    expect(config).toMatchObject({
      hazardsLive: [],
      hazardsLiveUrls: {},
      hazardsLiveTimeoutMs: 4000,
      hazardsLiveRetries: 1,
      hazardsCircuitThreshold: 5,
      hazardsCircuitCooldownMs: 30_000,
      hazardsCacheTtlS: 300,
    });
  });

  it('treats an empty DATABASE_URL as unset, so the embedded default applies', () => {
    expect(loadConfig({ DATABASE_URL: '' }).databaseUrl).toBeUndefined();
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ DATABASE_URL: 'mysql://localhost/x' }, /DATABASE_URL: must be a URL starting with postgres/],
    [{ REDIS_URL: 'localhost:6379' }, /REDIS_URL/],
    [{ LANDGRAPH_MODE: 'clustered' }, /LANDGRAPH_MODE/],
    [{ LANDGRAPH_HAZARDS_LIVE: 'VIC,Atlantis' }, /LANDGRAPH_HAZARDS_LIVE: unknown state 'Atlantis'/],
    [{ LANDGRAPH_HAZARDS_LIVE_URLS: 'NSW.bushfire=mapprod3' }, /LANDGRAPH_HAZARDS_LIVE_URLS: NSW.bushfire: 'mapprod3'/],
    [{ LANDGRAPH_HAZARDS_LIVE_RETRIES: '9' }, /LANDGRAPH_HAZARDS_LIVE_RETRIES/],
  ])('fails fast on a malformed value %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
