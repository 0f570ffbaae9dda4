import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../core/db.ts';
import { sleep } from './support/worker-process.ts';

/** A wire-protocol client that sends each message when told, as a slow network delivers them. */
async function rawClient(url: string) {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect({ host: hostname, port: Number(port) });
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let received = Buffer.alloc(0);
  socket.on('data', (data: Buffer) => {
    received = Buffer.concat([received, data]);
  });
  const message = (type: string, body: Buffer) => {
    const head = Buffer.alloc(5);
    head.write(type, 0, 'latin1');
    head.writeInt32BE(body.length + 4, 1);
    return Buffer.concat([head, body]);
  };
  const cstring = (text: string) => Buffer.from(`${text}\0`, 'utf8');
  const int16 = (n: number) => Buffer.from([n >> 8, n & 0xff]);
  const int32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeInt32BE(n);
    return b;
  };
  /** Waits for ReadyForQuery and returns the message types seen since the last wait, with any error text. */
  const untilReady = async () => {
    for (let waited = 0; waited < 5000; waited += 10) {
      const types: string[] = [];
      let offset = 0;
      let error = '';
      while (offset + 5 <= received.length) {
        const type = String.fromCharCode(received[offset] ?? 0);
        const length = received.readInt32BE(offset + 1);
        if (type === 'E') error = received.subarray(offset + 5, offset + 1 + length).toString('utf8');
        types.push(type);
        offset += 1 + length;
        if (type === 'Z') {
          received = received.subarray(offset);
          return { types, error };
        }
      }
      await sleep(10);
    }
    throw new Error('no ReadyForQuery from the socket');
  };
  const startup = Buffer.concat([
    int32(196608),
    cstring('user'),
    cstring('postgres'),
    cstring('database'),
    cstring('postgres'),
    Buffer.from([0]),
  ]);
  socket.write(Buffer.concat([int32(startup.length + 4), startup]));
  await untilReady();
  return {
    parse: (sql: string) => socket.write(message('P', Buffer.concat([cstring(''), cstring(sql), int16(0)]))),
    bindExecuteSync: (params: string[]) => {
      const values = params.map((p) => Buffer.concat([int32(Buffer.byteLength(p)), Buffer.from(p)]));
      socket.write(
        Buffer.concat([
          message('B', Buffer.concat([cstring(''), cstring(''), int16(0), int16(params.length), ...values, int16(0)])),
          message('E', Buffer.concat([cstring(''), int32(0)])),
          message('S', Buffer.alloc(0)),
        ]),
      );
      return untilReady();
    },
    end: () => socket.end(),
  };
}

// The embedded database's wire-protocol socket, which every other process of a distributed run
// (subgraphs, the worker, the CLI) shares with the process that owns the database: one backend
// for all of them. Runs on a PGlite of its own in either test pass.
describe('the embedded database socket', () => {
  let dataDir: string;
  let db: Database;
  let pool: pg.Pool;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'landgraph-socket-'));
    db = await openDatabase({ dataDir, databaseUrl: undefined });
    expect(db.kind).toBe('pglite');
    pool = new pg.Pool({ connectionString: db.url, max: 6 });
    await db.exec('CREATE TABLE socket_probe (id int)');
  }, 60_000);

  afterAll(async () => {
    await pool?.end();
    await db?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("never runs one client's Bind against another's statement: every parameterised query gets its own answer", async () => {
    // Statements of different arity on six connections at once, with the owning process's own
    // queries in between: pglite-socket alone answered some Binds with 08P01.
    const calls = Array.from({ length: 240 }, async (_, i) => {
      if (i % 4 === 0) {
        const rows = await db.query<{ n: number }>('SELECT $1::int * 10 AS n', [i]);
        return rows[0]?.n === i * 10;
      }
      if (i % 2 === 0) {
        const { rows } = await pool.query<{ n: number }>('SELECT $1::int + $2::int AS n', [i, 1]);
        return rows[0]?.n === i + 1;
      }
      const { rows } = await pool.query<{ s: string }>("SELECT $1::text || '-' || $2::text || '-' || $3::text AS s", [
        'a',
        String(i),
        'c',
      ]);
      return rows[0]?.s === `a-${i}-c`;
    });
    expect(await Promise.all(calls)).toEqual(Array.from({ length: 240 }, () => true));
  });

  it("never lets the owning process's statement replace a client's between its Parse and its Bind", async () => {
    const client = await rawClient(db.url);
    try {
      client.parse('SELECT $1::int + $2::int AS n');
      await sleep(50);
      // Run between them, this query's own Parse replaced the client's unnamed statement.
      const owner = db.query<{ s: string }>('SELECT $1::text AS s', ['owner']);
      await sleep(50);
      const answer = await client.bindExecuteSync(['40', '2']);
      expect(answer.error).toBe('');
      expect(answer.types).toEqual(['1', '2', 'D', 'C', 'Z']);
      expect((await owner)[0]?.s).toBe('owner');
    } finally {
      client.end();
    }
  });

  it("keeps the owning process's queries out of a client's open transaction until it ends", async () => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('INSERT INTO socket_probe VALUES ($1)', [1]);
      let seen: number | undefined;
      const ownerCount = db.query<{ n: number }>('SELECT count(*)::int AS n FROM socket_probe').then((rows) => {
        seen = rows[0]?.n;
      });
      await sleep(150);
      // The owner's query waits: run now, it would see the uncommitted row as its own.
      expect(seen).toBeUndefined();
      await client.query('ROLLBACK');
      await ownerCount;
      expect(seen).toBe(0);
    } finally {
      client.release();
    }
  });

  it("keeps a client's exchange out of the owning process's transaction", async () => {
    const inside = db.transaction(async (query) => {
      await query('INSERT INTO socket_probe VALUES (2)');
      await sleep(150);
      await query('DELETE FROM socket_probe WHERE id = 2');
    });
    await sleep(20);
    const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM socket_probe WHERE id = $1', [2]);
    await inside;
    expect(rows[0]?.n).toBe(0);
  });

  it('rolls back what a client left open when it disconnects, and serves the others after it', async () => {
    const leaver = new pg.Client({ connectionString: db.url });
    await leaver.connect();
    await leaver.query('BEGIN');
    await leaver.query('INSERT INTO socket_probe VALUES ($1)', [3]);
    const waiting = pool.query<{ n: number }>('SELECT count(*)::int AS n FROM socket_probe WHERE id = $1', [3]);
    await sleep(50);
    await leaver.end();
    const { rows } = await waiting;
    expect(rows[0]?.n).toBe(0);
    const [owner] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM socket_probe');
    expect(owner?.n).toBe(0);
  });
});
