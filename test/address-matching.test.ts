/**
 * The by-address matcher against a corpus of messy variants of real sandbox addresses, and
 * near misses that must not match. Getting a wrong street back is the worst failure the
 * product can have, so wrong matches must be zero; accuracy is reported in the output.
 */
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { streetTypeAbbreviation } from '../subgraphs/address/matching/vocabulary.ts';
import { testRuntime } from './support/runtime.ts';
import type { TestRuntime } from './support/runtime.ts';

type SampleAddress = {
  gnaf_pid: string;
  state: string;
  postcode: string;
  locality_name: string;
  street_name: string;
  street_type_code: string;
  street_suffix_code: string | null;
  flat_number: number | null;
  number_first: number | null;
  number_last: number | null;
  lot_number: string | null;
  street_locality_pid: string;
  locality_pid: string;
  /** No other street of the locality has this name (with another type or suffix). */
  name_unique: boolean;
};

type Case = { q: string; expected: string | null; kind: string };

const NAME_UNIQUE = `NOT EXISTS (SELECT 1 FROM address.street_locality o WHERE o.dataset = s.dataset
  AND o.locality_pid = s.locality_pid AND o.street_name = s.street_name
  AND o.street_locality_pid <> s.street_locality_pid) AS name_unique`;

/** A sample address with its street and locality, as the corpus builds its variants from. */
const SAMPLE_FROM = `SELECT a.gnaf_pid, a.state, a.postcode, l.locality_name, s.street_name, s.street_type_code,
    s.street_suffix_code, a.flat_number, a.number_first, a.number_last, a.lot_number,
    a.street_locality_pid, a.locality_pid, ${NAME_UNIQUE}
  FROM address.address_detail a
  JOIN address.locality l ON l.dataset = a.dataset AND l.locality_pid = a.locality_pid
  JOIN address.street_locality s ON s.dataset = a.dataset AND s.street_locality_pid = a.street_locality_pid`;

/** Only an address no other address is written like can be expected back from its text. */
const UNIQUE_FORM = `NOT EXISTS (SELECT 1 FROM address.address_detail t WHERE t.dataset = a.dataset
  AND t.formatted_address = a.formatted_address AND t.gnaf_pid <> a.gnaf_pid)`;

const STATE_NAMES: Record<string, string> = { VIC: 'Victoria', NSW: 'New South Wales', QLD: 'Queensland' };
const SUFFIX_WORDS: Record<string, string> = { N: 'North', S: 'South', E: 'East', W: 'West' };

const title = (text: string) => text.toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase());

/** A deterministic pseudo-random sequence, so the corpus is the same on every run. */
function sequence(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** One letter of a long street name swapped with its neighbour: the commonest typing slip. */
function typo(name: string): string | null {
  const word = name.split(' ')[0]!;
  if (word.length < 7) return null;
  const at = Math.floor(word.length / 2);
  const swapped = word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
  return swapped === word ? null : name.replace(word, swapped);
}

function numberOf(a: SampleAddress): string {
  if (a.number_first === null) return `Lot ${a.lot_number}`;
  return a.number_last === null ? String(a.number_first) : `${a.number_first}-${a.number_last}`;
}

function streetOf(a: SampleAddress, spelled: boolean, caseStyle: (s: string) => string = title): string {
  const type = spelled ? a.street_type_code : (streetTypeAbbreviation(a.street_type_code) ?? a.street_type_code);
  const suffix = a.street_suffix_code ? ` ${spelled ? SUFFIX_WORDS[a.street_suffix_code] : a.street_suffix_code}` : '';
  return caseStyle(`${a.street_name} ${type}${suffix}`);
}

/** The messy ways people write one address; each must come back as exactly this address. */
function variants(a: SampleAddress, pick: () => number): Case[] {
  const n = numberOf(a);
  const unit = a.flat_number === null ? '' : `${a.flat_number}/`;
  const unitWords = a.flat_number === null ? '' : `Unit ${a.flat_number}, `;
  const loc = title(a.locality_name);
  const st = a.state;
  const pc = a.postcode;
  const cases: Case[] = [
    { kind: 'canonical', q: `${unit}${n} ${streetOf(a, false)}, ${loc} ${st} ${pc}`, expected: a.gnaf_pid },
    {
      kind: 'lowercase-spelled-type',
      q: `${unit}${n} ${streetOf(a, true, (s) => s.toLowerCase())} ${a.locality_name.toLowerCase()} ${st.toLowerCase()} ${pc}`,
      expected: a.gnaf_pid,
    },
    { kind: 'no-postcode', q: `${unitWords}${n} ${streetOf(a, true)}, ${loc} ${st}`, expected: a.gnaf_pid },
    {
      kind: 'state-spelled-country',
      q: `${unit}${n} ${streetOf(a, false)}, ${loc}, ${STATE_NAMES[st]} ${pc}, Australia`,
      expected: a.gnaf_pid,
    },
    {
      kind: 'commas-whitespace',
      q: `  ${unit}${n} ,  ${streetOf(a, false, (s) => s.toUpperCase())} ,, ${a.locality_name} ,${st},  ${pc} `,
      expected: a.gnaf_pid,
    },
    { kind: 'locality-only', q: `${unitWords}${n} ${streetOf(a, pick() < 0.5)} ${loc}`, expected: a.gnaf_pid },
  ];
  if (a.name_unique)
    cases.push({
      kind: 'no-street-type',
      q: `${unit}${n} ${title(a.street_name)}, ${loc} ${st} ${pc}`,
      expected: a.gnaf_pid,
    });
  const localityTypo = typo(a.locality_name);
  if (localityTypo)
    cases.push({
      kind: 'locality-typo',
      q: `${unit}${n} ${streetOf(a, false)}, ${title(localityTypo)} ${st}`,
      expected: a.gnaf_pid,
    });
  const misspelt = typo(a.street_name);
  if (misspelt) {
    const type = streetTypeAbbreviation(a.street_type_code) ?? a.street_type_code;
    const suffix = a.street_suffix_code ? ` ${a.street_suffix_code}` : '';
    cases.push({
      kind: 'typo',
      q: `${unit}${n} ${title(`${misspelt} ${type}${suffix}`)}, ${loc} ${st} ${pc}`,
      expected: a.gnaf_pid,
    });
  }
  return cases;
}

describe('by-address matching corpus', () => {
  let t: TestRuntime;
  let samples: SampleAddress[];
  let corpus: Case[];

  beforeAll(async () => {
    t = await testRuntime();
    const db = t.runtime.db;
    // every kind of address: plain, units, ranges, lot-only, suffixed streets
    samples = await db.query<SampleAddress>(
      `${SAMPLE_FROM}
       WHERE a.dataset = 'sandbox' AND a.geocode_type IN ('PC', 'FCS')
         AND (a.flat_number IS NULL OR a.flat_number <= 3) AND ${UNIQUE_FORM}
       ORDER BY md5(a.gnaf_pid) LIMIT 70`,
    );
    const special = await db.query<SampleAddress>(
      `(${SAMPLE_FROM}
       WHERE a.dataset = 'sandbox' AND a.geocode_type IN ('PC', 'FCS') AND a.number_last IS NOT NULL AND ${UNIQUE_FORM}
       ORDER BY md5(a.gnaf_pid) LIMIT 6)
       UNION ALL
       (${SAMPLE_FROM}
       WHERE a.dataset = 'sandbox' AND a.geocode_type IN ('PC', 'FCS') AND a.number_first IS NULL AND ${UNIQUE_FORM}
       ORDER BY md5(a.gnaf_pid) LIMIT 6)
       UNION ALL
       (${SAMPLE_FROM}
       WHERE a.dataset = 'sandbox' AND a.geocode_type IN ('PC', 'FCS') AND s.street_suffix_code IS NOT NULL AND ${UNIQUE_FORM}
       ORDER BY md5(a.gnaf_pid) LIMIT 6)`,
    );
    const pick = sequence(20261122);
    corpus = [...samples, ...special].flatMap((a) => variants(a, pick));

    // Near misses. A real number on another street of the same locality that has no such number.
    const wrongStreet = await db.query<{ q: string }>(
      `SELECT DISTINCT ON (a.gnaf_pid) a.number_first || ' ' || s2.street_name || ' ' || s2.street_type_code || ', '
              || l.locality_name || ' ' || a.state || ' ' || a.postcode AS q
       FROM address.address_detail a
       JOIN address.locality l ON l.dataset = a.dataset AND l.locality_pid = a.locality_pid
       JOIN address.street_locality s2 ON s2.dataset = a.dataset AND s2.locality_pid = a.locality_pid
         AND s2.street_locality_pid <> a.street_locality_pid AND s2.street_suffix_code IS NULL
       WHERE a.dataset = 'sandbox' AND a.number_first IS NOT NULL AND a.flat_number IS NULL
         AND NOT EXISTS (SELECT 1 FROM address.address_detail b WHERE b.dataset = a.dataset
           AND b.street_locality_pid = s2.street_locality_pid AND b.number_first <= a.number_first
           AND coalesce(b.number_last, b.number_first) >= a.number_first)
         AND NOT EXISTS (SELECT 1 FROM address.street_locality s3 WHERE s3.dataset = a.dataset
           AND s3.locality_pid = a.locality_pid AND s3.street_locality_pid <> s2.street_locality_pid
           AND s3.street_name = s2.street_name)
       ORDER BY a.gnaf_pid, md5(s2.street_locality_pid) LIMIT 40`,
    );
    // A street that exists in another suburb only.
    const otherSuburb = await db.query<{ q: string }>(
      `SELECT DISTINCT ON (a.gnaf_pid) a.number_first || ' ' || s.street_name || ' ' || s.street_type_code || ', '
              || l2.locality_name || ' ' || l2.state || ' ' || l2.postcode AS q
       FROM address.address_detail a
       JOIN address.street_locality s ON s.dataset = a.dataset AND s.street_locality_pid = a.street_locality_pid
       JOIN address.locality l2 ON l2.dataset = a.dataset AND l2.locality_pid <> a.locality_pid
       WHERE a.dataset = 'sandbox' AND a.number_first IS NOT NULL AND a.flat_number IS NULL AND a.number_last IS NULL
         AND NOT EXISTS (SELECT 1 FROM address.street_locality s2 WHERE s2.dataset = a.dataset
           AND s2.locality_pid = l2.locality_pid AND s2.street_name = s.street_name)
       ORDER BY a.gnaf_pid, md5(l2.locality_pid) LIMIT 40`,
    );
    // The right name with another street type, where only one type exists.
    const wrongType = await db.query<{ q: string }>(
      `SELECT a.number_first || ' ' || s.street_name || ' '
              || CASE s.street_type_code WHEN 'COURT' THEN 'PLACE' ELSE 'COURT' END || ', '
              || l.locality_name || ' ' || a.state || ' ' || a.postcode AS q
       FROM address.address_detail a
       JOIN address.street_locality s ON s.dataset = a.dataset AND s.street_locality_pid = a.street_locality_pid
       JOIN address.locality l ON l.dataset = a.dataset AND l.locality_pid = a.locality_pid
       WHERE a.dataset = 'sandbox' AND a.number_first IS NOT NULL AND a.flat_number IS NULL
         AND NOT EXISTS (SELECT 1 FROM address.street_locality s2 WHERE s2.dataset = a.dataset
           AND s2.locality_pid = a.locality_pid AND s2.street_name = s.street_name
           AND s2.street_locality_pid <> s.street_locality_pid)
       ORDER BY md5(a.gnaf_pid) LIMIT 30`,
    );
    // Two addresses written alike (lot 4 of two plans on one road): neither may be guessed.
    const twins = await db.query<{ q: string }>(
      `SELECT min(a.formatted_address) AS q FROM address.address_detail a
       WHERE a.dataset = 'sandbox' AND a.geocode_type IN ('PC', 'FCS')
       GROUP BY a.formatted_address HAVING count(DISTINCT a.parcel_pfi) > 1
       ORDER BY md5(min(a.formatted_address)) LIMIT 10`,
    );
    corpus.push(
      ...twins.map(({ q }) => ({ q, expected: null, kind: 'negative-written-alike' })),
      ...wrongStreet.map(({ q }) => ({ q, expected: null, kind: 'negative-wrong-street' })),
      ...otherSuburb.map(({ q }) => ({ q, expected: null, kind: 'negative-other-suburb' })),
      ...wrongType.map(({ q }) => ({ q, expected: null, kind: 'negative-wrong-type' })),
    );
  });

  it('holds at least 500 messy variants and near-miss negatives', () => {
    expect(corpus.filter((c) => c.expected !== null).length).toBeGreaterThanOrEqual(500);
    expect(corpus.filter((c) => c.expected === null).length).toBeGreaterThanOrEqual(80);
  });

  it('never returns a wrong address, and finds nearly every right one', async () => {
    const outcomes = { right: 0, wrong: [] as string[], missed: [] as string[], rejected: 0 };
    const byKind = new Map<string, { total: number; right: number }>();
    for (const c of corpus) {
      const res = await request(t.app)
        .get('/v1/property/resolve')
        .set('Authorization', `Bearer ${t.key}`)
        .query({ q: c.q });
      const got: string | null = res.status === 200 ? res.body.data.gnaf_pid : null;
      expect([200, 404], `${c.q}: ${JSON.stringify(res.body)}`).toContain(res.status);
      const tally = byKind.get(c.kind) ?? { total: 0, right: 0 };
      tally.total += 1;
      if (got === c.expected) {
        tally.right += 1;
        if (c.expected === null) outcomes.rejected += 1;
        else outcomes.right += 1;
      } else if (got !== null) outcomes.wrong.push(`${c.kind}: '${c.q}' gave ${res.body.data.address}`);
      else outcomes.missed.push(`${c.kind}: '${c.q}'`);
      byKind.set(c.kind, tally);
    }
    const positives = corpus.filter((c) => c.expected !== null).length;
    const accuracy = outcomes.right / positives;
    const report = [
      `by-address corpus: ${corpus.length} queries, ${positives} positive, ${corpus.length - positives} negative`,
      `  accuracy ${(accuracy * 100).toFixed(1)}% (${outcomes.right}/${positives}), wrong matches ${outcomes.wrong.length}, negatives rejected ${outcomes.rejected}`,
      ...[...byKind].map(([kind, t]) => `  ${kind.padEnd(24)} ${t.right}/${t.total}`),
      ...outcomes.missed.slice(0, 15).map((m) => `  missed ${m}`),
    ];
    console.log(report.join('\n'));
    expect(outcomes.wrong).toEqual([]);
    expect(accuracy).toBeGreaterThanOrEqual(0.97);
  }, 300_000);
  it("finds an address by its street's G-NAF alias, reporting the alias and a confidence below 1", async () => {
    const [a] = samples.filter((x) => x.flat_number === null && x.number_first !== null && x.number_last === null);
    const db = t.runtime.db;
    await db.query(
      `INSERT INTO address.street_locality_alias (dataset, street_locality_alias_pid, street_locality_pid, street_name,
         street_type_code, alias_type_code) VALUES ('sandbox', 'TEST_ALIAS_1', $1, 'OLD COACH', $2, 'ALT')`,
      [a!.street_locality_pid, a!.street_type_code],
    );
    try {
      const type = streetTypeAbbreviation(a!.street_type_code) ?? a!.street_type_code;
      const res = await request(t.app)
        .get('/api/address/validate')
        .set('Authorization', `Bearer ${t.key}`)
        .query({ q: `${a!.number_first} Old Coach ${type}, ${title(a!.locality_name)} ${a!.state} ${a!.postcode}` })
        .expect(200);
      expect(res.body.valid).toBe(true);
      expect(res.body.data.gnaf_pid).toBe(a!.gnaf_pid);
      expect(res.body.data.exact).toBe(false);
      expect(res.body.data.confidence).toBeLessThan(1);
      expect((res.body.data.corrections as string[]).join()).toMatch(/OLD COACH is an alias of /);
    } finally {
      await db.query(`DELETE FROM address.street_locality_alias WHERE street_locality_alias_pid = 'TEST_ALIAS_1'`);
    }
  });
});
