import { resolve } from 'node:path';
import { z } from 'zod';

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

const EnvSchema = z.object({
  PORT: port.default(4000),
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: optionalUrl(['postgres', 'postgresql']),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  REDIS_URL: optionalUrl(['redis', 'rediss']),
  LANDGRAPH_DATA_DIR: z.string().default('.landgraph'),
  LANDGRAPH_MODE: z.enum(['embedded', 'distributed']).default('embedded'),
  LANDGRAPH_SUBGRAPH_BASE_PORT: port.default(4101),
  LANDGRAPH_SANDBOX_SEED: z.coerce.number().int().default(20261122),
  LANDGRAPH_LOG_LEVEL: z.enum(['silent', 'error', 'warn', 'info', 'debug']).default('info'),
});

export type Config = {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  databasePoolMax: number;
  redisUrl: string | undefined;
  dataDir: string;
  mode: 'embedded' | 'distributed';
  subgraphBasePort: number;
  sandboxSeed: number;
  logLevel: 'silent' | 'error' | 'warn' | 'info' | 'debug';
};

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
    databaseUrl: e.DATABASE_URL,
    databasePoolMax: e.DATABASE_POOL_MAX,
    redisUrl: e.REDIS_URL,
    dataDir: resolve(e.LANDGRAPH_DATA_DIR),
    mode: e.LANDGRAPH_MODE,
    subgraphBasePort: e.LANDGRAPH_SUBGRAPH_BASE_PORT,
    sandboxSeed: e.LANDGRAPH_SANDBOX_SEED,
    logLevel: e.LANDGRAPH_LOG_LEVEL,
  };
}
