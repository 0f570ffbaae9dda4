import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstDifference } from '../bench/graph-compare.ts';
import type { GraphCompareResult, GraphRowName } from '../bench/graph-compare-report.ts';
import { GRAPH_ROWS, graphTable, graphVerdict, layerDifferences } from '../bench/graph-compare-report.ts';
import type { LayerCheck } from '../bench/layers-phase.ts';
import type { Measurement } from '../bench/load.ts';
import { peerSubgraphHeaders } from '../bench/peer-signing.ts';
import { freePort } from '../bench/processes.ts';
import { generateInternalSecret } from '../core/internal-auth.ts';
import { listenSubgraph } from '../core/subgraph-server.ts';
import { SUBGRAPHS } from '../subgraphs/index.ts';
import type { TestRuntime } from './support/runtime.ts';
import { testRuntime } from './support/runtime.ts';

/**
 * The bench's peer gateway (@graphql-hive/gateway) reaches our subgraph services only through
 * the signature its onFetch plugin adds: checked here against a real subgraph service, so a
 * change to the internal auth shows here rather than as a run full of 401s.
 */
describe('bench peer: its signed subgraph requests', () => {
  let t: TestRuntime;
  let service: Awaited<ReturnType<typeof listenSubgraph>>;
  const secret = generateInternalSecret();
  const body = JSON.stringify({ query: 'query Peer { _service { sdl } }' });

  beforeAll(async () => {
    t = await testRuntime();
    const subgraph = SUBGRAPHS.cadastre({ db: t.runtime.db, catalog: t.runtime.catalog, config: t.runtime.config });
    service = await listenSubgraph(subgraph, await freePort(), { host: '127.0.0.1', secret });
  });

  afterAll(async () => {
    await service?.stop();
  });

  const post = (headers: Record<string, string>, sent = body) =>
    fetch(service.url, { method: 'POST', headers, body: sent });
  const init = { method: 'POST', body, headers: { 'content-type': 'application/json' } };

  it('is accepted by a subgraph service holding the same secret', async () => {
    const response = await post(peerSubgraphHeaders(secret, service.url, init, 'peer-1'));
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { data?: { _service?: { sdl?: string } } };
    expect(answer.data?._service?.sdl).toContain('type Parcel');
  });

  it('asks for the sandbox with every scope and keeps its own headers', () => {
    const headers = peerSubgraphHeaders(secret, service.url, init, 'peer-7');
    expect(headers).toMatchObject({
      'content-type': 'application/json',
      'x-landgraph-dataset': 'sandbox',
      'x-landgraph-scopes': '*',
      'x-request-id': 'peer-7',
    });
  });

  it('is refused with another secret, or when the body is not the one signed', async () => {
    const wrongKey = await post(peerSubgraphHeaders(generateInternalSecret(), service.url, init, 'peer-2'));
    expect(wrongKey.status).toBe(401);
    const headers = peerSubgraphHeaders(secret, service.url, init, 'peer-3');
    const tampered = await post(headers, body.replace('Peer', 'Other'));
    expect(tampered.status).toBe(401);
  });

  it('refuses to sign a body it cannot sign as sent', () => {
    expect(() => peerSubgraphHeaders(secret, service.url, { method: 'POST', body: {} }, 'peer-4')).toThrow(TypeError);
  });
});

const measurement = (rps: number, p99: number): Measurement => ({
  requests: rps * 10,
  durationS: 10,
  rps,
  p50: p99 / 3,
  p95: p99 / 1.5,
  p99,
  non2xx: 0,
  errors: 0,
  cpuMsPerRequest: 5,
  helperMsPerRequest: 2,
  postgresMsPerRequest: 3,
  loadGeneratorMsPerRequest: 1,
  machineBusyCores: 1.9,
  backgroundCores: 0.1,
});

describe('bench peer: the comparison report', () => {
  const rps: Record<GraphRowName, [number, number]> = {
    'embedded-rest': [110, 100],
    'embedded-graphql': [120, 96],
    'distributed-rest': [60, 55],
    'distributed-graphql': [62, 58],
    'peer-graphql': [40, 20],
  };
  const results: GraphCompareResult[] = GRAPH_ROWS.flatMap((row) =>
    ([1, 16] as const).map((connections, i) => ({
      row,
      connections,
      m: measurement(rps[row][i] ?? 0, connections === 1 ? 15 : row === 'embedded-rest' ? 45 : 160),
      rpsPerRound: [rps[row][i] ?? 0],
    })),
  );

  it('sets each row against the peer at the same connection count', () => {
    const table = graphTable(results);
    expect(table.split('\n')).toHaveLength(2 + GRAPH_ROWS.length * 2);
    expect(table).toContain(
      '| embedded: POST /graphql | 16 | 96 | 53.33 | 106.67 | 160.00 | 5.000 / in process / 3.000 |',
    );
    expect(table).toMatch(/embedded: POST \/graphql \| 16 .*\| 4\.80x \|$/m);
    expect(table).toMatch(
      /peer \(@graphql-hive\/gateway 2\.15\.1\): POST \/graphql \| 1 .*\| 5\.000 \/ 2\.000 \/ 3\.000 .*\|  \|$/m,
    );
  });

  it('says which targets are met: the throughput ratio per connection count, the p99 at 16', () => {
    const verdict = graphVerdict(results);
    expect(verdict).toContain(
      "embedded: POST /graphql at 1 connection: 120 req/s against the peer's 40, 3.00x: target (>= 3x) met.",
    );
    expect(verdict).toContain(
      "embedded: GET /v1/property/graph at 1 connection: 110 req/s against the peer's 40, 2.75x: target (>= 3x) NOT met.",
    );
    expect(verdict).toContain(
      "distributed, our gateway: POST /graphql at 16 connections: 58 req/s against the peer's 20, 2.90x (like for like",
    );
    expect(verdict).toContain(
      'embedded: GET /v1/property/graph: p99 45.00 ms at 16 connections: target (< 50 ms) met.',
    );
    expect(verdict).toContain('embedded: POST /graphql: p99 160.00 ms at 16 connections: target (< 50 ms) NOT met.');
  });

  it('names the first layer where two graph answers differ', () => {
    const answer = (soil: string) => ({ data: { property: { cadastre: { status: 'ok' }, soil: { status: soil } } } });
    expect(firstDifference(answer('ok'), answer('ok'))).toBeUndefined();
    expect(firstDifference(answer('ok'), answer('no_data'))).toBe('soil');
    expect(firstDifference(answer('ok'), { errors: [{ message: 'down' }] })).toBe('cadastre');
  });

  it('lists the layer statuses a server tallied differently from the embedded graph', () => {
    const check = (layers: Array<[string, number]>): LayerCheck => ({
      route: 'graphql',
      total: 10,
      statuses: new Map([[200, 10]]),
      layersNotOk: new Map(layers),
      examples: [],
    });
    const embedded = check([
      ['terrain not_covered', 6],
      ['address no_data', 1],
    ]);
    const peer = check([
      ['terrain not_covered', 6],
      ['provisions error', 8],
      ['envelope error', 8],
    ]);
    expect(layerDifferences(peer, embedded)).toEqual([
      'provisions error in 8 (embedded 0)',
      'envelope error in 8 (embedded 0)',
    ]);
    expect(layerDifferences(embedded, embedded)).toEqual([]);
  });
});
