/**
 * The servers under test run as child processes on loopback. Every child is tracked here and
 * stopped when the benchmark ends, fails or is interrupted: SIGTERM first, SIGKILL if it lingers.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export type Child = { name: string; process: ChildProcess; url: string; output: string[] };

const children = new Set<Child>();
const OUTPUT_LINES = 40;
const STOP_GRACE_MS = 5_000;

/** A port that was free a moment ago on 127.0.0.1 (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

/** Starts `node <args>` in `cwd` with `env` added; its output is kept (last lines) and echoed when `echo`. */
export function startChild(
  name: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; url: string; echo?: boolean },
): Child {
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  delete env.REDIS_URL; // both servers run without Redis: the facade uses its in-process cache
  const child: Child = {
    name,
    url: options.url,
    output: [],
    process: spawn(process.execPath, args, { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] }),
  };
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      child.output.push(line);
      if (child.output.length > OUTPUT_LINES) child.output.shift();
      if (options.echo) process.stderr.write(`[${name}] ${line}\n`);
    }
  };
  child.process.stdout?.on('data', keep);
  child.process.stderr?.on('data', keep);
  child.process.once('exit', () => children.delete(child));
  children.add(child);
  return child;
}

/** Resolves once `url` answers 200; fails if the child exits first or `timeoutMs` passes. */
export async function waitUntilAnswering(child: Child, path: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null || child.process.signalCode !== null) {
      throw new Error(`${child.name} exited before answering:\n${child.output.join('\n')}`);
    }
    try {
      const response = await fetch(`${child.url}${path}`, { signal: AbortSignal.timeout(5_000) });
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`${child.name} did not answer ${path} within ${timeoutMs / 1000} s:\n${child.output.join('\n')}`);
}

/** Stops one child: SIGTERM, then SIGKILL after a grace period. */
export async function stopChild(child: Child): Promise<void> {
  const proc = child.process;
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

export async function stopAllChildren(): Promise<void> {
  await Promise.all([...children].map(stopChild));
}

/**
 * Stops every child on SIGINT/SIGTERM (after `beforeStop`, then exits 130/143), and as a last resort kills any
 * still running when this process exits for whatever reason.
 */
export function stopChildrenOnExit(beforeStop: () => Promise<void> = async () => undefined): void {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.once(signal, () => {
      process.stderr.write(`\n${signal}: stopping the servers under test\n`);
      void beforeStop()
        .then(stopAllChildren)
        .finally(() => process.exit(code));
    });
  }
  process.once('exit', () => {
    for (const child of children) child.process.kill('SIGKILL');
  });
}
