/**
 * The facade asks for an API key: the benchmark uses a test key (sandbox data) with the
 * cadastre scope and a rate limit no benchmark reaches, made once per database through the
 * project's own `landgraph keys create` and kept in .landgraph-bench/ for the next run. Both
 * servers get the same headers, so both read the same request bytes; the bare server ignores them.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const BENCH_RATE_LIMIT_PER_MINUTE = 100_000_000;
const CREATE_TIMEOUT_MS = 60_000;

export type Headers = Record<string, string>;

async function status(url: string, headers: Headers): Promise<number> {
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
  await response.arrayBuffer();
  return response.status;
}

async function createKey(root: string, databaseUrl: string): Promise<string> {
  const args = ['bin/landgraph.js', 'keys', 'create', '--name', 'landgraph-bench', '--kind', 'test'];
  args.push('--scopes', 'cadastre.read', '--rate-limit', String(BENCH_RATE_LIMIT_PER_MINUTE));
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

/** The headers a lookup on `probeUrl` needs: none when the facade answers without a key. */
export async function benchHeaders(root: string, probeUrl: string, databaseUrl: string): Promise<Headers> {
  if ((await status(probeUrl, {})) !== 401) return {};
  const database = new URL(databaseUrl).pathname.slice(1);
  const file = join(root, '.landgraph-bench', `api-key-${database}.txt`);
  const bearer = (secret: string): Headers => ({ authorization: `Bearer ${secret}` });
  if (existsSync(file)) {
    const kept = bearer(readFileSync(file, 'utf8').trim());
    if ((await status(probeUrl, kept)) === 200) return kept;
  }
  const secret = await createKey(root, databaseUrl);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  const headers = bearer(secret);
  const answered = await status(probeUrl, headers);
  if (answered !== 200) throw new Error(`The facade answered ${answered} with the new benchmark key.`);
  return headers;
}
