/**
 * The baseline of the lookup benchmark: node:http and a pg Pool, no framework and no GraphQL.
 * It runs the cadastre subgraph's own SQL (taken from sql.ts, so the two cannot drift; Prisma is
 * used there only as the template tag, no client is built) and answers the facade's envelope.
 * Run by bench/run.ts as a child process: DATABASE_URL, PORT and DATABASE_POOL_MAX from the env.
 */
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import pg from 'pg';
import type { GeoJSONGeometry } from '../core/geojson.ts';
import { PARCELS_AT_POINTS, PARCELS_BY_PFI } from '../subgraphs/cadastre/sql.ts';
import type { ParcelRow } from '../subgraphs/cadastre/sql.ts';

const DATASET = 'sandbox';
const PROVENANCE_TTL_MS = 30_000; // as core/provenance.ts: credits are read once per TTL, not per request

type Provenance = { attribution: string; license: string; source: string };
type Sql = { text: string; values: unknown[] };

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('bare-server: DATABASE_URL is required');
const pool = new pg.Pool({ connectionString: databaseUrl, max: Number(process.env.DATABASE_POOL_MAX ?? 10) });

let provenance: { rows: Map<string, Provenance>; loadedAt: number } | undefined;

async function provenanceOf(state: string): Promise<Provenance | undefined> {
  if (!provenance || Date.now() - provenance.loadedAt > PROVENANCE_TTL_MS) {
    const result = await pool.query<{ state: string; attribution: string; license: string; snapshot_id: string }>(
      `SELECT state, attribution, license, snapshot_id FROM public.dataset_source WHERE dataset = $1 AND layer = 'cadastre'`,
      [DATASET],
    );
    const rows = new Map<string, Provenance>();
    for (const r of result.rows) {
      const source = `mirror:${r.state.toLowerCase()}/cadastre@${r.snapshot_id}`;
      rows.set(r.state, { attribution: r.attribution, license: r.license, source });
    }
    provenance = { rows, loadedAt: Date.now() };
  }
  return provenance.rows.get(state);
}

async function firstRow(sql: Sql): Promise<ParcelRow | undefined> {
  const result = await pool.query<ParcelRow>(sql.text, sql.values);
  return result.rows[0];
}

/** As the facade writes credit headers: Latin-1 only. */
function headerSafe(value: string): string {
  return value.replace(/[\u2013\u2014]/g, '-').replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
}

function send(res: ServerResponse, status: number, body: unknown, credit?: Provenance): void {
  const json = JSON.stringify(body);
  const headers: Record<string, string | number> = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(json),
  };
  if (credit) {
    headers['X-Service-Attribution'] = headerSafe(credit.attribution);
    headers['X-Service-License'] = headerSafe(credit.license);
  }
  res.writeHead(status, headers);
  res.end(json);
}

function sendError(res: ServerResponse, status: number, error: string, hint: string | null): void {
  send(res, status, { success: false, source: null, data: null, error, hint });
}

function feature(parcel: ParcelRow): { type: 'Feature'; geometry: GeoJSONGeometry; properties: object } {
  return {
    type: 'Feature',
    geometry: parcel.geometry,
    properties: {
      parcel_pfi: parcel.parcel_pfi,
      parcel_spi: parcel.parcel_spi,
      parcel_lot_number: parcel.parcel_lot_number,
      parcel_plan_number: parcel.parcel_plan_number,
      ezi_address: parcel.ezi_address,
      state: parcel.state,
      area_m2: Math.round(parcel.area_m2 * 100) / 100,
    },
  };
}

async function lookup(params: URLSearchParams, res: ServerResponse): Promise<void> {
  const state = (params.get('state') ?? 'VIC').toUpperCase();
  const pfi = params.get('pfi');
  const lat = Number(params.get('lat'));
  const lng = Number(params.get('lng'));
  let sql: Sql;
  if (pfi) sql = PARCELS_BY_PFI(DATASET, [state], [pfi]);
  else if (params.has('lat') && params.has('lng') && Math.abs(lat) <= 90 && Math.abs(lng) <= 180) {
    sql = PARCELS_AT_POINTS(DATASET, [state], [lng], [lat]);
  } else return sendError(res, 400, 'Pass lat and lng (WGS84 decimal degrees), or pfi with state.', null);
  const credit = await provenanceOf(state);
  if (!credit) return sendError(res, 404, `The cadastre does not cover ${state} yet.`, null);
  const parcel = await firstRow(sql);
  if (!parcel) return sendError(res, 404, `No parcel found in ${state}.`, null);
  const body = {
    success: true,
    source: credit.source,
    data: feature(parcel),
    error: null,
    hint: null,
    attribution: credit.attribution,
    license: credit.license,
  };
  send(res, 200, body, credit);
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const handled =
    url.pathname === '/api/cadastre/lookup'
      ? lookup(url.searchParams, res)
      : url.pathname === '/api/health'
        ? pool.query('SELECT 1').then(() => send(res, 200, { status: 'healthy' }))
        : Promise.resolve(sendError(res, 404, `No route ${req.method ?? 'GET'} ${url.pathname}.`, null));
  handled.catch((error: unknown) => {
    process.stderr.write(`bare-server: ${(error as Error).message}\n`);
    if (!res.headersSent) sendError(res, 500, 'The request could not be completed.', null);
  });
});

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`bare server listening on ${typeof address === 'object' && address ? address.port : '?'}\n`);
});

function stop(): void {
  server.close();
  server.closeAllConnections();
  void pool.end().finally(() => process.exit(0));
}
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
