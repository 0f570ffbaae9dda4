/**
 * Reads the facade's V8 CPU profile (`npm run bench -- --profile`) and says where its time went:
 * time by the package that was running (Node's own and native frames charged to the nearest
 * package below them) and the heaviest functions by self and by inclusive time. Only samples inside the measured windows count, so start-up (compilation,
 * supergraph composition) and shutdown stay out; both clocks are the system's monotonic clock.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

type CallFrame = { functionName: string; url: string; lineNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type CpuProfile = { nodes: ProfileNode[]; startTime: number; samples: number[]; timeDeltas: number[] };

/** A span of the monotonic clock in microseconds, as process.hrtime.bigint() / 1000 gives. */
export type Window = { fromUs: number; toUs: number };

export const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

const TOP = 25;

/** The npm package or project folder of a frame; undefined for Node's own and native frames. */
function area(frame: CallFrame): string | undefined {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(frame.url);
  if (pkg?.[1]) return pkg[1];
  const local = /^file:\/\/.*\/work\/[^/]+\/([^/]+)\//.exec(frame.url);
  return local?.[1] ? `project ${local[1]}/` : undefined;
}

function label(frame: CallFrame): string {
  const file = frame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/\/work\/[^/]+\//, '');
  return `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
}

function newestProfile(dir: string): string | undefined {
  const files = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.cpuprofile'))
    .map((entry) => join(dir, entry.name));
  return files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

function table(title: string, totals: Map<string, number>, all: number): string {
  const rows = [...totals.entries()].sort((a, b) => b[1] - a[1]).slice(0, TOP);
  const body = rows.map(([name, us]) => `  ${((us / all) * 100).toFixed(1).padStart(5)}%  ${name}`).join('\n');
  return `${title}\n${body}`;
}

const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);

export function summariseProfiles(dir: string, windows: readonly Window[]): string {
  const file = newestProfile(dir);
  if (!file) return `No CPU profile found in ${dir}.`;
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);

  const selfByArea = new Map<string, number>();
  const selfByFunction = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let at = profile.startTime;
  let counted = 0;
  let idle = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i + 1] ?? 0; // a sample's duration is the gap to the next one
    at += profile.timeDeltas[i] ?? 0;
    if (!windows.some((w) => at >= w.fromUs && at <= w.toUs)) return;
    const node = byId.get(id);
    if (!node) return;
    if (node.callFrame.functionName === '(idle)') {
      idle += us;
      return;
    }
    counted += us;
    // Node's and native work (socket writes, JSON, hashing) is charged to the code that asked for it
    let owner: string | undefined;
    for (let cur: number | undefined = id; cur !== undefined && !owner; cur = parent.get(cur)) {
      const frame = byId.get(cur)?.callFrame;
      owner = frame && area(frame);
    }
    add(
      selfByArea,
      node.callFrame.functionName === '(garbage collector)'
        ? '(garbage collector)'
        : (owner ?? '(node, no package on the stack)'),
      us,
    );
    add(selfByFunction, label(node.callFrame), us);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const frame = byId.get(cur)?.callFrame;
      if (!frame || frame.functionName === '(root)') continue;
      const key = label(frame);
      if (!seen.has(key)) add(inclusive, key, us);
      seen.add(key);
    }
  });
  if (counted === 0) return `The profile ${file} has no samples inside the measured windows.`;
  const busy = `busy ${(counted / 1e6).toFixed(1)} s, idle ${(idle / 1e6).toFixed(1)} s of the measured windows`;
  return [
    `CPU profile of the facade: ${file} (${busy}; shares below are of busy time)`,
    table('Time by the package nearest the top of the stack:', selfByArea, counted),
    table('Self time by function:', selfByFunction, counted),
    table('Inclusive time by function:', inclusive, counted),
  ].join('\n\n');
}
