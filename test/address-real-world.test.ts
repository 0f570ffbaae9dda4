/**
 * Addresses as people write them and as G-NAF holds them: addresses G-NAF places only on their
 * street or locality, a business name with a number of its own before the house number, and a
 * locality written on its own. Each runs through the REST routes over the sandbox.
 */
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { testRuntime } from './support/runtime.ts';
import type { TestRuntime } from './support/runtime.ts';

type Unplaced = { gnaf_pid: string; formatted_address: string; geocode_type: string; state: string };
type Placed = {
  gnaf_pid: string;
  number_first: number;
  street_name: string;
  street_type_code: string;
  locality_name: string;
  state: string;
  postcode: string;
};

let t: TestRuntime;
const get = (path: string) => request(t.app).get(path).set('Authorization', `Bearer ${t.key}`);

/** One address of each coarse grade, written like no other address. */
const UNPLACED = `SELECT DISTINCT ON (a.geocode_type) a.gnaf_pid, a.formatted_address, a.geocode_type, a.state
  FROM address.address_detail a
  WHERE a.dataset = 'sandbox' AND a.geocode_type IN ('STL', 'LOC', 'GG') AND a.flat_number IS NULL
    AND NOT EXISTS (SELECT 1 FROM address.address_detail t WHERE t.dataset = a.dataset
      AND t.formatted_address = a.formatted_address AND t.gnaf_pid <> a.gnaf_pid)
  ORDER BY a.geocode_type, a.gnaf_pid`;

/** A plain house on its parcel, on a street whose name no other street of the locality has. */
const PLACED = `SELECT a.gnaf_pid, a.number_first, s.street_name, s.street_type_code, l.locality_name, a.state, a.postcode
  FROM address.address_detail a
  JOIN address.street_locality s ON s.dataset = a.dataset AND s.street_locality_pid = a.street_locality_pid
  JOIN address.locality l ON l.dataset = a.dataset AND l.locality_pid = a.locality_pid
  WHERE a.dataset = 'sandbox' AND a.geocode_type = 'PC' AND a.flat_number IS NULL AND a.number_last IS NULL
    AND a.number_first IS NOT NULL AND s.street_suffix_code IS NULL AND a.parcel_pfi IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM address.address_detail t WHERE t.dataset = a.dataset
      AND t.formatted_address = a.formatted_address AND t.gnaf_pid <> a.gnaf_pid)
  ORDER BY a.state, a.gnaf_pid`;

beforeAll(async () => {
  t = await testRuntime();
});

describe('addresses G-NAF places only on their street or locality (STL, LOC, GG)', () => {
  let unplaced: Unplaced[];

  beforeAll(async () => {
    unplaced = await t.runtime.db.query<Unplaced>(UNPLACED);
  });

  it('the sandbox holds one of each grade', () => {
    expect(unplaced.map((a) => a.geocode_type)).toEqual(['GG', 'LOC', 'STL']);
  });

  it('resolve answers them with their gnaf_pid, no parcel_pfi, the grade and a hint', async () => {
    for (const a of unplaced) {
      const res = await get('/v1/property/resolve').query({ q: a.formatted_address.toLowerCase() });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toMatchObject({
        gnaf_pid: a.gnaf_pid,
        state: a.state,
        parcel_pfi: null,
        geocodeType: a.geocode_type,
      });
      expect(res.body.hint).toMatch(new RegExp(`geocode ${a.geocode_type}\\), not on its parcel`));
      expect(res.body.attribution).toEqual(expect.any(String));
    }
  });

  it('validate calls them valid, with the grade and the same hint', async () => {
    for (const a of unplaced) {
      const res = await get('/api/address/validate').query({ q: a.formatted_address });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ valid: true, error: null });
      expect(res.body.data).toMatchObject({ gnaf_pid: a.gnaf_pid, geocodeType: a.geocode_type });
      expect(res.body.hint).toMatch(/not on its parcel/);
    }
  });

  it('by-address still drops them: it answers a parcel, which these grades do not give (spec 4.2.3)', async () => {
    for (const a of unplaced) {
      const res = await get('/api/cadastre/by-address').query({ q: a.formatted_address });
      expect(res.status, JSON.stringify(res.body)).toBe(404);
      expect(res.body).toMatchObject({ success: false, data: null });
      expect(res.body.error).toMatch(/only located to its street or locality/);
    }
  });

  it('a parcel-grade address keeps its parcel and carries no hint', async () => {
    const [placed] = await t.runtime.db.query<Placed & { formatted_address: string; parcel_pfi: string }>(
      `${PLACED.replace('SELECT a.gnaf_pid,', 'SELECT a.gnaf_pid, a.formatted_address, a.parcel_pfi,')} LIMIT 1`,
    );
    const res = await get('/v1/property/resolve').query({ q: placed!.formatted_address }).expect(200);
    expect(res.body.data).toMatchObject({ gnaf_pid: placed!.gnaf_pid, parcel_pfi: placed!.parcel_pfi });
    expect(res.body.hint).toBeNull();
  });
});

describe('resolve takes the address as q or as address', () => {
  let address: string;
  let gnafPid: string;

  beforeAll(async () => {
    const [row] = await t.runtime.db.query<{ gnaf_pid: string; formatted_address: string }>(
      `${PLACED.replace('SELECT a.gnaf_pid,', 'SELECT a.gnaf_pid, a.formatted_address,')} LIMIT 1`,
    );
    address = row!.formatted_address;
    gnafPid = row!.gnaf_pid;
  });

  it('answers address= as it answers q=, as /v1/envelope-by-address names it', async () => {
    const byQ = await get('/v1/property/resolve').query({ q: address }).expect(200);
    const byAddress = await get('/v1/property/resolve').query({ address }).expect(200);
    expect(byAddress.body.data.gnaf_pid).toBe(gnafPid);
    expect(byAddress.body.data).toEqual(byQ.body.data);
  });

  it('refuses two different addresses, and no address at all, with the error shape', async () => {
    const both = await get('/v1/property/resolve').query({ q: address, address: '1 Other St' }).expect(400);
    expect(both.body).toMatchObject({ success: false, error: expect.stringMatching(/as q or as address, not both/) });
    const none = await get('/v1/property/resolve').query({ state: 'VIC' }).expect(400);
    expect(none.body.error).toMatch(/q is required.*address= works too/);
    await get('/v1/property/resolve').query({ q: address, address }).expect(200);
  });
});

describe('a business name with a number of its own before the house number', () => {
  it('resolves to the address after it, whatever number the name carries', async () => {
    const placed = await t.runtime.db.query<Placed>(`${PLACED} LIMIT 3`);
    expect(placed.length).toBe(3);
    for (const a of placed) {
      const address = `${a.number_first} ${a.street_name} ${a.street_type_code}, ${a.locality_name} ${a.state} ${a.postcode}`;
      for (const name of ['BIG 4 PARK BEACH HOL PARK', 'Gym 7 Fitness Centre', 'Stage 2 Shopping Village']) {
        const res = await get('/v1/property/resolve').query({ q: `${name}, ${address}` });
        expect(res.status, `${name}, ${address}: ${JSON.stringify(res.body)}`).toBe(200);
        expect(res.body.data.gnaf_pid).toBe(a.gnaf_pid);
      }
    }
  });
});

describe('a locality written on its own', () => {
  it('is read as the locality, not as a street, and says what is missing', async () => {
    for (const [q, locality] of [
      ['Kangaroo Flat', 'KANGAROO FLAT'],
      ['Castle Hill NSW 2154', 'CASTLE HILL'],
      ['north lakes, qld', 'NORTH LAKES'],
    ] as const) {
      const res = await get('/api/address/validate').query({ q }).expect(200);
      expect(res.body.valid).toBe(false);
      expect(res.body.parsed).toMatchObject({ locality, street_name: null, street_type: null });
      expect(res.body.error).toMatch(new RegExp(`names the locality ${locality}`));
      expect(res.body.hint).toMatch(/house number and street/);
      const resolved = await get('/v1/property/resolve').query({ q }).expect(404);
      expect(resolved.body.error).toMatch(new RegExp(`names the locality ${locality}`));
    }
  });
});
