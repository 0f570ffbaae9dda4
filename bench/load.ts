/**
 * One measurement: autocannon against one server and one route, a warm-up first, every request
 * on the next path of a fixed list, so requests spread over many parcels and both servers see
 * the same sequence. Latency percentiles come from each response's own timing (fractional
 * milliseconds) rather than autocannon's whole-millisecond histogram.
 */
import autocannon from 'autocannon';
import { cpuSince, cpuSnapshot, processTicks, TICKS_PER_S, waitForQuiet } from './cpu.ts';

export type LoadOptions = { connections: number; durationS: number; warmupS: number; quietWaitS: number };
/**
 * The server under test: its URL, its process (for CPU time) and the database its PostgreSQL backends serve;
 * `helperPids` are the other processes serving it (a distributed gateway's subgraph services).
 */
export type Target = {
  url: string;
  pid: number;
  database: string;
  headers: Record<string, string>;
  helperPids?: readonly number[];
};
/** A GET of a path, or a POST of a JSON body (GraphQL) to a path. */
export type BenchRequest = string | { path: string; body: string };

export type Measurement = {
  requests: number;
  durationS: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** CPU time of the server process per request (user + system). */
  cpuMsPerRequest: number;
  /** CPU time of the target's helper processes (its subgraph services) per request; 0 when it has none. */
  helperMsPerRequest: number;
  /** CPU time of the PostgreSQL backends of the benchmark database per request. */
  postgresMsPerRequest: number;
  /** CPU time of the load generator (this process) per request. */
  loadGeneratorMsPerRequest: number;
  /** Cores the whole machine kept busy meanwhile (server, PostgreSQL, load generator, anything else). */
  machineBusyCores: number;
  /** Cores other work kept busy just before the measurement, with the benchmark idle. */
  backgroundCores: number;
};

const running = new Set<autocannon.Instance>();

/** Stops any load in flight (on SIGINT, before the servers are stopped) and gives its last requests time to finish. */
export async function stopLoad(): Promise<void> {
  for (const instance of running) instance.stop();
  await new Promise((resolve) => setTimeout(resolve, 500));
}

function fire(
  url: string,
  headers: Record<string, string>,
  paths: readonly BenchRequest[],
  connections: number,
  durationS: number,
) {
  // a request's own headers replace the instance's, so a POST repeats the key beside its content type
  const post = { ...headers, 'content-type': 'application/json' };
  const setup = (request: autocannon.Request): autocannon.Request => {
    const chosen = paths[next++ % paths.length] ?? '/';
    return typeof chosen === 'string'
      ? { ...request, path: chosen }
      : { ...request, path: chosen.path, method: 'POST', body: chosen.body, headers: post };
  };
  let next = 0;
  const latencies: number[] = [];
  let instance: autocannon.Instance | undefined;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url,
        headers,
        connections,
        duration: durationS,
        requests: [{ method: 'GET', setupRequest: setup }],
      },
      (error: unknown, result) =>
        error
          ? reject(error instanceof Error ? error : new Error('autocannon failed', { cause: error }))
          : resolve(result),
    );
  });
  if (instance) {
    const fired = instance;
    running.add(fired);
    void done.finally(() => running.delete(fired)).catch(() => undefined);
  }
  instance?.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  return { done, latencies };
}

const ticksOf = (pids: readonly number[]) => pids.reduce((sum, pid) => sum + processTicks(pid), 0);

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

/** Load without measuring: brings a freshly started server's JIT, caches and pool to a steady state. */
export async function warmUp(target: Target, paths: readonly BenchRequest[], connections: number, seconds: number) {
  if (seconds > 0) await fire(target.url, target.headers, paths, connections, seconds).done;
}

/** Waits for a quiet machine, warms the target up, then measures it. */
export async function measure(
  target: Target,
  paths: readonly BenchRequest[],
  options: LoadOptions,
): Promise<Measurement> {
  const background = await waitForQuiet(options.quietWaitS);
  await warmUp(target, paths, options.connections, options.warmupS);
  const helpers = target.helperPids ?? [];
  const helpersBefore = ticksOf(helpers);
  const before = cpuSnapshot(target.pid, target.database);
  const ownBefore = process.cpuUsage();
  const { done, latencies } = fire(target.url, target.headers, paths, options.connections, options.durationS);
  const result = await done;
  const own = process.cpuUsage(ownBefore);
  const cpu = cpuSince(before, target.pid, target.database);
  const helperMs = ((ticksOf(helpers) - helpersBefore) / TICKS_PER_S) * 1000;
  const sorted = Float64Array.from(latencies).sort();
  const requests = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'];
  return {
    requests,
    durationS: result.duration,
    rps: requests / result.duration,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    non2xx: result.non2xx,
    errors: result.errors,
    cpuMsPerRequest: cpu.processMs / requests,
    helperMsPerRequest: helperMs / requests,
    postgresMsPerRequest: cpu.postgresMs / requests,
    loadGeneratorMsPerRequest: (own.user + own.system) / 1000 / requests,
    machineBusyCores: cpu.machineBusyCores,
    backgroundCores: background,
  };
}
