/**
 * The facade asks for an API key: the benchmark uses a test key (sandbox data) holding every
 * scope (the layers phase measures the whole property graph, which shows a key only its own) and
 * a rate limit no benchmark reaches, made once per database through the
 * project's own `landgraph keys create` and kept in .landgraph-bench/ for the next run. Both
 * servers get the same headers, so both read the same request bytes; the bare server ignores them.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { ALL_SCOPES } from '../core/scopes.ts';

const BENCH_RATE_LIMIT_PER_MINUTE = 100_000_000;
const CREATE_TIMEOUT_MS = 60_000;
// every scope: the layers phase asks for the whole property graph, which a key sees only as far as its scopes
const BENCH_SCOPES = ALL_SCOPES;

export type Headers = Record<string, string>;

async function status(url: string, headers: Headers): Promise<number> {
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
  await response.arrayBuffer();
  return response.status;
}

async function createKey(root: string, databaseUrl: string): Promise<string> {
  const args = ['bin/landgraph.js', 'keys', 'create', '--name', 'landgraph-bench', '--kind', 'test'];
  args.push('--scopes', BENCH_SCOPES.join(','), '--rate-limit', String(BENCH_RATE_LIMIT_PER_MINUTE));
  const { stdout } = await promisify(execFile)(process.execPath, args, {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, LANDGRAPH_LOG_LEVEL: 'warn' },
    timeout: CREATE_TIMEOUT_MS,
  });
  const created: unknown = JSON.parse(stdout);
  const secret = typeof created === 'object' && created && 'secret' in created ? created.secret : undefined;
  if (typeof secret !== 'string') throw new Error(`keys create printed no secret:\n${stdout}`);
  return secret;
}

/**
 * The headers the routes of `probeUrls` need (each must answer 200 with them): none when the
 * facade answers without a key. A kept key that no longer answers every probe (another
 * database, or made before a route's scope was added here) is replaced.
 */
export async function benchHeaders(
  root: string,
  probeUrls: string | readonly string[],
  databaseUrl: string,
): Promise<Headers> {
  const urls = typeof probeUrls === 'string' ? [probeUrls] : probeUrls;
  const statuses = async (headers: Headers) => Promise.all(urls.map((url) => status(url, headers)));
  if ((await statuses({})).every((s) => s !== 401)) return {};
  const database = new URL(databaseUrl).pathname.slice(1);
  const file = join(root, '.landgraph-bench', `api-key-${database}.txt`);
  const bearer = (secret: string): Headers => ({ authorization: `Bearer ${secret}` });
  if (existsSync(file)) {
    const kept = bearer(readFileSync(file, 'utf8').trim());
    if ((await statuses(kept)).every((s) => s === 200)) return kept;
  }
  const secret = await createKey(root, databaseUrl);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  const headers = bearer(secret);
  const answered = await statuses(headers);
  const failed = answered.findIndex((s) => s !== 200);
  if (failed >= 0)
    throw new Error(`The facade answered ${answered[failed]} on ${urls[failed]} with the new benchmark key.`);
  return headers;
}
