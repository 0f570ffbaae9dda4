/**
 * The address phase of `npm run bench`: GET /api/cadastre/by-address and GET
 * /api/address/autocomplete through the facade alone (no bare baseline: the targets are
 * latencies). Every request of the query sets is checked first, so a route answering fast but
 * wrong (a 404, another parcel, no suggestions) fails the run instead of winning it; then each
 * route is measured at each connection count: one connection for latency, more for throughput.
 */
import type { ByAddressQuery, Form, PrefixQuery } from './address-queries.ts';
import { FORMS } from './address-queries.ts';
import type { Headers } from './api-key.ts';
import { brief, eachLimited, getJson, record } from './checked-fetch.ts';
import type { LoadOptions, Measurement, Target } from './load.ts';
import { measure, warmUp } from './load.ts';
import type { Window } from './profile.ts';
import { monotonicUs } from './profile.ts';

export type AddressRouteName = 'by-address' | 'autocomplete';

/** p50 targets at one connection, in milliseconds. */
export const P50_TARGET_MS: Record<AddressRouteName, number> = { 'by-address': 5, autocomplete: 3 };

const CHECK_CONCURRENCY = 8;
/** Below these shares the routes are broken, not slow: the run stops before measuring. */
const MIN_GNAF_OK = 0.99;
const MIN_ALL_FORMS_OK = 0.9;
const MIN_PREFIX_ANSWERED = 0.99;
const MIN_FULL_LINE_FOUND = 0.95;
const EXAMPLES = 3;

const parcelPfiOf = (body: unknown): unknown => record(record(record(body).data).properties).parcel_pfi;

const suggestionsOf = (body: unknown): Array<Record<string, unknown>> => {
  const list = record(body).suggestions;
  return Array.isArray(list) ? list.map(record) : [];
};

export type FormCheck = {
  form: Form;
  total: number;
  /** 200 with the parcel the address lies on. */
  ok: number;
  wrongParcel: number;
  notFound: number;
  other: number;
  examples: string[];
};

export type AddressChecks = {
  /** Every measured by-address query, by form. */
  forms: FormCheck[];
  /** The G-NAF line of a sample of the addresses, whatever form their measured queries are in. */
  gnaf: FormCheck;
  prefixes: { total: number; answered: number; withSource: number; failed: number; examples: string[] };
  fullLines: { total: number; found: number; examples: string[] };
};

async function checkQueries(url: string, headers: Headers, queries: readonly ByAddressQuery[]): Promise<FormCheck[]> {
  const checks = new Map<Form, FormCheck>(
    FORMS.map((form) => [form, { form, total: 0, ok: 0, wrongParcel: 0, notFound: 0, other: 0, examples: [] }]),
  );
  const answers = await eachLimited(queries, CHECK_CONCURRENCY, (q) => getJson(`${url}${q.path}`, headers));
  for (const [i, q] of queries.entries()) {
    const check = checks.get(q.form);
    const answer = answers[i];
    if (!check || !answer) continue;
    check.total += 1;
    const pfi = parcelPfiOf(answer.body);
    let problem: string | undefined;
    if (answer.status === 200 && pfi === q.parcelPfi) check.ok += 1;
    else if (answer.status === 200) {
      check.wrongParcel += 1;
      problem = `parcel ${String(pfi)}, expected ${q.parcelPfi}`;
    } else if (answer.status === 404) {
      check.notFound += 1;
      problem = `404 ${brief(record(answer.body).error ?? answer.body)}`;
    } else {
      check.other += 1;
      problem = `${answer.status} ${brief(answer.body)}`;
    }
    if (problem && check.examples.length < EXAMPLES) check.examples.push(`'${q.q}' (${q.gnafPid}): ${problem}`);
  }
  return [...checks.values()].filter((c) => c.total > 0);
}

async function checkPrefixes(url: string, headers: Headers, prefixes: readonly PrefixQuery[]) {
  const result = { total: prefixes.length, answered: 0, withSource: 0, failed: 0, examples: [] as string[] };
  const answers = await eachLimited(prefixes, CHECK_CONCURRENCY, (p) => getJson(`${url}${p.path}`, headers));
  for (const [i, p] of prefixes.entries()) {
    const answer = answers[i];
    if (!answer) continue;
    const suggestions = suggestionsOf(answer.body);
    if (answer.status !== 200) result.failed += 1;
    else if (suggestions.length > 0) result.answered += 1;
    if (suggestions.some((s) => s.gnaf_pid === p.gnafPid)) result.withSource += 1;
    if ((answer.status !== 200 || suggestions.length === 0) && result.examples.length < EXAMPLES)
      result.examples.push(`'${p.q}': ${answer.status} ${brief(answer.body)}`);
  }
  return result;
}

/** The whole typed line must bring its own address among the suggestions. */
async function checkFullLines(url: string, headers: Headers, prefixes: readonly PrefixQuery[]) {
  const result = { total: prefixes.length, found: 0, examples: [] as string[] };
  const answers = await eachLimited(prefixes, CHECK_CONCURRENCY, (p) => getJson(`${url}${p.fullPath}`, headers));
  for (const [i, p] of prefixes.entries()) {
    const answer = answers[i];
    if (!answer) continue;
    if (answer.status === 200 && suggestionsOf(answer.body).some((s) => s.gnaf_pid === p.gnafPid)) result.found += 1;
    else if (result.examples.length < EXAMPLES)
      result.examples.push(`'${p.full}' (${p.gnafPid}): ${answer.status} ${brief(answer.body)}`);
  }
  return result;
}

const share = (part: number, total: number) => (total === 0 ? 0 : part / total);
const pct = (part: number, total: number) => `${(share(part, total) * 100).toFixed(1)}%`;

/** A line per check, for stdout and the docs. */
export function describeChecks(checks: AddressChecks): string[] {
  const form = (c: FormCheck, label: string) =>
    `${label}: ${c.ok.toLocaleString('en-AU')} of ${c.total.toLocaleString('en-AU')} (${pct(c.ok, c.total)}) answered 200 with the expected parcel` +
    (c.ok < c.total ? ` (${c.wrongParcel} another parcel, ${c.notFound} 404, ${c.other} other)` : '');
  const { prefixes, fullLines } = checks;
  return [
    form(checks.gnaf, 'by-address, the G-NAF line of a sample of the addresses'),
    ...checks.forms.map((c) => form(c, `by-address, measured queries written as ${c.form}`)),
    `autocomplete, measured prefixes: ${prefixes.answered.toLocaleString('en-AU')} of ${prefixes.total.toLocaleString('en-AU')} (${pct(prefixes.answered, prefixes.total)}) answered 200 with suggestions (${prefixes.failed} not 200); the address typed was among the suggestions for ${pct(prefixes.withSource, prefixes.total)}`,
    `autocomplete, the whole typed line of a sample of the addresses: its address among the suggestions for ${fullLines.found.toLocaleString('en-AU')} of ${fullLines.total.toLocaleString('en-AU')} (${pct(fullLines.found, fullLines.total)})`,
  ];
}

/**
 * Checks every request the measurement will send (and the G-NAF line and whole typed line of
 * every address) and throws when a route is broken rather than slow.
 */
export async function checkAddressRoutes(
  url: string,
  headers: Headers,
  sets: {
    queries: readonly ByAddressQuery[];
    prefixes: readonly PrefixQuery[];
    /** G-NAF lines of a sample of the addresses. */
    gnafSample: readonly ByAddressQuery[];
    /** Whole typed lines of a sample of the addresses. */
    fullLineSample: readonly PrefixQuery[];
  },
): Promise<AddressChecks> {
  const forms = await checkQueries(url, headers, sets.queries);
  const [gnafCheck] = await checkQueries(url, headers, sets.gnafSample);
  const prefixCheck = await checkPrefixes(url, headers, sets.prefixes);
  const fullLines = await checkFullLines(url, headers, sets.fullLineSample);
  if (!gnafCheck) throw new Error('No by-address query was checked.');
  const checks: AddressChecks = { forms, gnaf: gnafCheck, prefixes: prefixCheck, fullLines };
  const problems: string[] = [];
  if (share(gnafCheck.ok, gnafCheck.total) < MIN_GNAF_OK)
    problems.push(`by-address on G-NAF lines below ${MIN_GNAF_OK * 100}%: ${gnafCheck.examples.join('; ')}`);
  const all = forms.reduce((sum, c) => ({ ok: sum.ok + c.ok, total: sum.total + c.total }), { ok: 0, total: 0 });
  if (share(all.ok, all.total) < MIN_ALL_FORMS_OK)
    problems.push(
      `by-address on the measured queries below ${MIN_ALL_FORMS_OK * 100}%: ${forms.flatMap((c) => c.examples).join('; ')}`,
    );
  if (share(prefixCheck.answered, prefixCheck.total) < MIN_PREFIX_ANSWERED)
    problems.push(
      `autocomplete answered suggestions below ${MIN_PREFIX_ANSWERED * 100}%: ${prefixCheck.examples.join('; ')}`,
    );
  if (share(fullLines.found, fullLines.total) < MIN_FULL_LINE_FOUND)
    problems.push(
      `autocomplete found the whole typed line's address below ${MIN_FULL_LINE_FOUND * 100}%: ${fullLines.examples.join('; ')}`,
    );
  if (problems.length > 0)
    throw new Error(
      `The address routes are broken, not measured:\n${[...describeChecks(checks), ...problems].join('\n')}`,
    );
  return checks;
}

export type AddressRoute = { route: AddressRouteName; paths: readonly string[] };
/** The kept round of one route at one connection count, and the p50 of every round. */
export type AddressResult = { route: AddressRouteName; connections: number; m: Measurement; p50s: number[] };

export type AddressMeasureOptions = {
  load: LoadOptions;
  connections: readonly number[];
  rounds: number;
  initialWarmupS: number;
};

/**
 * A first warm-up of both routes together, then `rounds` rounds of every route at every
 * connection count; the round with the most requests per second is kept (at one connection,
 * the lowest mean latency), since on a shared machine a round's only error is other work.
 */
export async function measureAddressRoutes(
  target: Target,
  routes: readonly AddressRoute[],
  options: AddressMeasureOptions,
  report: (route: AddressRouteName, connections: number, m: Measurement) => void,
  windows: Window[] = [],
): Promise<AddressResult[]> {
  const longest = Math.max(...routes.map((r) => r.paths.length));
  const mixed = Array.from({ length: longest }, (_, i) => routes.map((r) => r.paths[i % r.paths.length] ?? '')).flat();
  const most = Math.max(...options.connections);
  process.stdout.write(`warming the facade up on the address routes: ${options.initialWarmupS} s\n`);
  await warmUp(target, mixed, most, options.initialWarmupS);
  const best = new Map<string, AddressResult>();
  for (let round = 0; round < options.rounds; round += 1) {
    for (const r of routes) {
      for (const connections of options.connections) {
        process.stdout.write(
          `${r.route} at ${connections} connection(s), round ${round + 1}/${options.rounds}: ${options.load.warmupS} s warm-up + ${options.load.durationS} s\n`,
        );
        const fromUs = monotonicUs() + options.load.warmupS * 1e6;
        const m = await measure(target, r.paths, { ...options.load, connections });
        windows.push({ fromUs, toUs: monotonicUs() });
        report(r.route, connections, m);
        const key = `${r.route}@${connections}`;
        const kept = best.get(key);
        const p50s = [...(kept?.p50s ?? []), m.p50];
        best.set(key, !kept || m.rps > kept.m.rps ? { route: r.route, connections, m, p50s } : { ...kept, p50s });
      }
    }
  }
  return routes.flatMap((r) =>
    options.connections.map((connections) => {
      const kept = best.get(`${r.route}@${connections}`);
      if (!kept) throw new Error(`no measurement of ${r.route} at ${connections} connections`);
      return kept;
    }),
  );
}
