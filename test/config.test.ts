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
  ])('fails fast on a malformed value %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
