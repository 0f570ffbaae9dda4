import type { ChildProcess } from 'node:child_process';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

/** A real, throwaway redis-server on a free loopback port, for outage tests. */
export const HAS_REDIS_SERVER = !spawnSync('redis-server', ['--version']).error;
export const NO_REDIS_SERVER = 'redis-server is not on PATH';
export const NO_REDIS = 'no Redis reachable at REDIS_URL or 127.0.0.1:6379';

// Skipping is for a developer's machine without the servers; CI has them, so there a missing
// one is a failure rather than a quietly skipped suite.
if (!HAS_REDIS_SERVER && process.env.CI) throw new Error(`${NO_REDIS_SERVER}, and CI must run the Redis outage tests`);

/** The Redis the suite may use: REDIS_URL, else the machine's usual one. */
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Whether a Redis answers at `url`. When REDIS_URL was set explicitly (as CI sets it), an
 * unreachable Redis fails the run instead of letting its tests skip.
 */
export async function redisReachable(url: string): Promise<boolean> {
  const reachable = await probe(url);
  if (!reachable && process.env.REDIS_URL)
    throw new Error(`REDIS_URL is set to ${url} but Redis does not answer there`);
  return reachable;
}

async function probe(url: string): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A free loopback port below the kernel's ephemeral range. The outage tests kill a redis-server
 * and start it again on the same port; a port from the ephemeral range (what listening on port 0
 * hands out) can meanwhile become the local end of any outgoing connection on the machine, and
 * the restart then fails to bind ("redis-server exited with 1", seen in CI).
 */
export async function freePort(): Promise<number> {
  const ephemeralLow = ephemeralRangeStart();
  const low = Math.max(1024, ephemeralLow - 12_000);
  for (let tries = 0; tries < 100; tries += 1) {
    const port = low + Math.floor(Math.random() * (ephemeralLow - low));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free TCP port between ${low} and ${ephemeralLow}`);
}

function ephemeralRangeStart(): number {
  try {
    const [first] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    const start = Number(first);
    if (Number.isInteger(start) && start > 2048) return start;
  } catch {
    // not Linux: the IANA dynamic range starts at 49152
  }
  return 49_152;
}

async function canListen(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A client that gives up at once, for looking at what the limiter stored. */
export async function inspect<T>(port: number, look: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return await look(redis);
  } finally {
    redis.disconnect();
  }
}

export async function waitFor(
  what: string,
  condition: () => Promise<boolean> | boolean,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

export class RedisServer {
  private child: ChildProcess | undefined;

  constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', this.dir],
      { stdio: 'ignore' },
    );
    this.child = child;
    await waitFor(`redis-server on port ${this.port}`, async () => {
      if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
      return inspect(this.port, async (redis) => (await redis.ping()) === 'PONG').catch(() => false);
    });
  }

  /** SIGSTOP: the socket stays open but nothing answers, as with a wedged or swapping Redis. */
  freeze(): void {
    this.child?.kill('SIGSTOP');
  }

  thaw(): void {
    this.child?.kill('SIGCONT');
  }

  /** SIGKILL, as a crashed or OOM-killed Redis would go: no goodbye on open connections. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}
