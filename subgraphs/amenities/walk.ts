/**
 * Dijkstra over the walking network's edges (walked both ways), bounded by a walking budget,
 * and the reached stretch of every edge: what the catchment polygon and the amenities' walking
 * distances are drawn from. Pure: the edges come from one statement (sql.ts EDGES_WITHIN).
 */
import FlatQueue from 'flatqueue';

export type WalkEdge = { id: string; source: string; target: string; length_m: number };

/** An edge the walk reached: the fractions of it walked from each end, and the distance to each end. */
export type ReachedEdge = {
  id: string;
  /** Metres from the origin to the edge's source / target; Infinity where that end is not reached. */
  toSource: number;
  toTarget: number;
  /** The stretches walked, as fractions along the edge from its source: [0, a] and [1 - b, 1] (merged when they meet). */
  parts: Array<[number, number]>;
};

export type Walk = {
  /** Metres from the origin to every node reached within the budget. */
  distances: Map<string, number>;
  reached: ReachedEdge[];
};

/**
 * Shortest walking distances from `origin` (already `startM` metres into the walk: the step
 * from the point to the node) over `edges`, to every node within `budgetM`.
 */
export function walkFrom(origin: string, startM: number, edges: readonly WalkEdge[], budgetM: number): Walk {
  const index = new Map<string, number>();
  const names: string[] = [];
  const id = (name: string) => {
    let i = index.get(name);
    if (i === undefined) {
      i = names.length;
      index.set(name, i);
      names.push(name);
    }
    return i;
  };
  const adjacency: Array<Array<[number, number]>> = [];
  const ends = edges.map((e) => {
    const s = id(e.source);
    const t = id(e.target);
    (adjacency[s] ??= []).push([t, e.length_m]);
    (adjacency[t] ??= []).push([s, e.length_m]);
    return [s, t] as const;
  });
  const best = new Float64Array(names.length).fill(Infinity);
  const done = new Uint8Array(names.length);
  const distances = new Map<string, number>();
  const start = index.get(origin);
  if (start !== undefined && startM <= budgetM) {
    const queue = new FlatQueue<number>();
    best[start] = startM;
    queue.push(start, startM);
    while (queue.length > 0) {
      const node = queue.pop()!;
      if (done[node]) continue;
      done[node] = 1;
      const d = best[node]!;
      for (const [next, length] of adjacency[node] ?? []) {
        const candidate = d + length;
        if (candidate < best[next]! && candidate <= budgetM) {
          best[next] = candidate;
          queue.push(next, candidate);
        }
      }
    }
    for (const [i, name] of names.entries()) if (done[i]) distances.set(name, best[i]!);
  } else if (start === undefined && startM <= budgetM) {
    distances.set(origin, startM);
  }
  const reached: ReachedEdge[] = [];
  edges.forEach((e, k) => {
    const [s, t] = ends[k]!;
    const ds = done[s] ? best[s]! : Infinity;
    const dt = done[t] ? best[t]! : Infinity;
    if (ds === Infinity && dt === Infinity) return;
    const length = e.length_m;
    const fromSource = ds === Infinity ? 0 : length === 0 ? 1 : Math.min(1, (budgetM - ds) / length);
    const fromTarget = dt === Infinity ? 0 : length === 0 ? 1 : Math.min(1, (budgetM - dt) / length);
    const parts: Array<[number, number]> =
      fromSource + fromTarget >= 1
        ? [[0, 1]]
        : ([
            [0, fromSource],
            [1 - fromTarget, 1],
          ].filter(([a, b]) => b! > a!) as Array<[number, number]>);
    reached.push({ id: e.id, toSource: ds, toTarget: dt, parts });
  });
  return { distances, reached };
}
