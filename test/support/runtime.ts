import { inject } from 'vitest';
import type { Config } from '../../core/config.ts';
import { loadConfig } from '../../core/config.ts';
import { setLogLevel } from '../../core/logger.ts';
import type { Runtime } from '../../app/runtime.ts';
import { ALL_SCOPES } from '../../core/scopes.ts';
import type { CreateKeyInput } from '../../platform/keys.ts';
import { startRuntime } from '../../app/runtime.ts';
import { createApp } from '../../rest-facade/app.ts';

export type TestRuntime = {
  runtime: Runtime;
  app: ReturnType<typeof createApp>;
  config: Config;
  /** A test key holding every scope, with a rate limit high enough for the whole suite. */
  key: string;
};

/** A fresh key for a test; every test that needs particular scopes or limits makes its own. */
export async function createTestKey(runtime: Runtime, overrides: Partial<CreateKeyInput> = {}): Promise<string> {
  const { secret } = await runtime.keys.create({
    name: `test-${Date.now()}`,
    kind: 'test',
    scopes: [...ALL_SCOPES],
    rateLimitPerMinute: 100_000,
    ...overrides,
  });
  return secret;
}

let shared: Promise<TestRuntime> | undefined;

/** The configuration of this tier's test database (see test/setup/global-setup.ts). */
export function testConfig(overrides: Record<string, string> = {}): Config {
  const { databaseUrl, dataDir } = inject('testDatabase');
  return loadConfig({
    ...process.env,
    DATABASE_URL: databaseUrl ?? '',
    LANDGRAPH_DATA_DIR: dataDir,
    LANDGRAPH_LOG_LEVEL: 'warn',
    ...overrides,
  });
}

/**
 * One embedded runtime (gateway with in-process subgraphs, REST facade) over the tier's
 * test database, shared by every file of the tier: the worker keeps its modules between files.
 */
export function testRuntime(): Promise<TestRuntime> {
  setLogLevel('warn');
  shared ??= (async () => {
    const config = testConfig();
    const runtime = await startRuntime(config, { prepare: false });
    return { runtime, app: createApp(runtime), config, key: await createTestKey(runtime) };
  })();
  return shared;
}
