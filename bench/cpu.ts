/**
 * CPU accounting from /proc (Linux): the CPU time one server process spent, and how busy the
 * whole machine was, between two snapshots. On a 2-core machine shared by PostgreSQL, both
 * servers and the load generator, CPU per request says more than requests per second alone.
 */
import { readdirSync, readFileSync } from 'node:fs';

export const TICKS_PER_S = 100; // USER_HZ: 100 on every Linux the project runs on

export type CpuSnapshot = {
  processTicks: number;
  postgresTicks: Map<number, number>;
  busyTicks: number;
  totalTicks: number;
  at: number;
};
export type CpuUse = { processMs: number; postgresMs: number; machineBusyCores: number };

export function processTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // fields after the command name, which may itself hold spaces and parentheses
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime
  } catch {
    return Number.NaN; // not Linux, or the process is gone
  }
}

/**
 * CPU so far of each PostgreSQL backend serving `database` (titled `postgres: ... <user> <database> ...`),
 * by process id: backends come and go with the pools, so deltas are taken per backend.
 */
function postgresTicks(database: string): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (title.startsWith('postgres: ') && title.includes(` ${database} `)) {
        ticks.set(Number(entry), processTicks(Number(entry)));
      }
    } catch {
      // the process ended while we looked
    }
  }
  return ticks;
}

/** CPU the backends spent between two readings; one that exited meanwhile was idle (pools close idle connections). */
function postgresDelta(before: Map<number, number>, after: Map<number, number>): number {
  let ticks = 0;
  for (const [pid, now] of after) ticks += now - (before.get(pid) ?? 0);
  return ticks;
}

function machineTicks(): { busy: number; total: number } {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const ticks = line.trim().split(/\s+/).slice(1).map(Number);
    const total = ticks.reduce((sum, n) => sum + n, 0);
    const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0); // idle + iowait
    return { busy: total - idle, total };
  } catch {
    return { busy: Number.NaN, total: Number.NaN };
  }
}

export function cpuSnapshot(pid: number, database: string): CpuSnapshot {
  const machine = machineTicks();
  return {
    processTicks: processTicks(pid),
    postgresTicks: postgresTicks(database),
    busyTicks: machine.busy,
    totalTicks: machine.total,
    at: performance.now(),
  };
}

export function cpuSince(before: CpuSnapshot, pid: number, database: string): CpuUse {
  const after = cpuSnapshot(pid, database);
  const wallS = (after.at - before.at) / 1000;
  return {
    processMs: ((after.processTicks - before.processTicks) / TICKS_PER_S) * 1000,
    postgresMs: (postgresDelta(before.postgresTicks, after.postgresTicks) / TICKS_PER_S) * 1000,
    machineBusyCores: (after.busyTicks - before.busyTicks) / TICKS_PER_S / wallS,
  };
}

/**
 * The processes `pid` started (Linux: every thread's `children` list), e.g. the subgraph services
 * of `landgraph serve --distributed`; empty where /proc does not say.
 */
export function childPids(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/** Cores kept busy over `sampleMs` by whatever runs on the machine: sampled while the benchmark itself is idle. */
export async function backgroundCores(sampleMs = 1_000): Promise<number> {
  const before = machineTicks();
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, sampleMs));
  const after = machineTicks();
  return (after.busy - before.busy) / TICKS_PER_S / ((performance.now() - started) / 1000);
}

/**
 * Waits, up to `maxWaitS`, until other work on the machine (other engineers' test runs, a
 * seeding database) keeps less than `threshold` cores busy; returns the last reading, so a
 * measurement taken on a busy machine is at least labelled as such.
 */
export async function waitForQuiet(maxWaitS: number, threshold = 0.3): Promise<number> {
  const deadline = performance.now() + maxWaitS * 1000;
  let busy = await backgroundCores();
  while (busy >= threshold && performance.now() < deadline) {
    busy = await backgroundCores(2_000);
  }
  return busy;
}
