import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { NEWCOMER_SCOPES, startBanner } from '../cli/main.ts';
import type { SandboxSample } from '../prisma/sandbox/load.ts';
import { sandboxSamples } from '../prisma/sandbox/load.ts';
import { ALL_SAMPLE_CASES } from '../prisma/sandbox/samples.ts';
import { routeScope } from '../rest-facade/route.ts';
import type { RouteDefinition } from '../rest-facade/route.ts';
import { ROUTES } from '../rest-facade/routes/index.ts';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testRuntime } from './support/runtime.ts';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/**
 * The commands of a shell block, each as its words: quotes group and are dropped, a backslash
 * before a newline continues the command, `#` starts a comment. Enough shell for the README.
 */
export function shellCommands(block: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word: string | null = null;
  let quote: "'" | '"' | null = null;
  const endWord = () => {
    if (word !== null) words.push(word);
    word = null;
  };
  const endCommand = () => {
    endWord();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  for (let i = 0; i < block.length; i++) {
    const c = block[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else word = (word ?? '') + c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= '';
    } else if (c === '\\' && block[i + 1] === '\n') {
      i++;
    } else if (c === '\n') {
      endCommand();
    } else if (/\s/.test(c)) {
      endWord();
    } else if (c === '#' && word === null) {
      while (i < block.length && block[i] !== '\n') i++;
      endCommand();
    } else {
      word = (word ?? '') + c;
    }
  }
  endCommand();
  return commands;
}

/** The README's shell blocks, in order. */
const shellBlocks = (markdown: string): string[] => [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);

type Example = {
  text: string;
  method: 'get' | 'post';
  url: URL;
  keyed: boolean;
  headers: Array<[string, string]>;
  body: string | undefined;
};

/** A curl command as the request it makes: -H, -G with --data-urlencode, -d (a POST). */
function parseCurl(words: string[]): Example {
  let url: URL | undefined;
  let body: string | undefined;
  let asQuery = false;
  const data: string[] = [];
  const headers: Array<[string, string]> = [];
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (word === '-H') {
      const header = words[++i]!;
      const colon = header.indexOf(':');
      headers.push([header.slice(0, colon).trim(), header.slice(colon + 1).trim()]);
    } else if (word === '-G') asQuery = true;
    else if (word === '--data-urlencode') data.push(words[++i]!);
    else if (word === '-d') body = words[++i]!;
    else if (/^https?:\/\//.test(word)) url = new URL(word);
    else throw new Error(`README curl uses an option this test does not read: ${word}`);
  }
  if (!url) throw new Error(`README curl without a URL: ${words.join(' ')}`);
  for (const pair of data) {
    const eq = pair.indexOf('=');
    if (!asQuery) throw new Error('--data-urlencode without -G');
    url.searchParams.append(pair.slice(0, eq), pair.slice(eq + 1));
  }
  const keyed = headers.some(([name, value]) => name.toLowerCase() === 'authorization' && value.includes('$KEY'));
  return {
    text: words.join(' '),
    method: body === undefined ? 'get' : 'post',
    url,
    keyed,
    headers: headers.filter(([name]) => name.toLowerCase() !== 'authorization'),
    body,
  };
}

/**
 * The README's placeholders, filled from the first sandbox sample with every layer present; the
 * SPEAR and land-supply ones (`<spear_pfi>`, `<estate_id>`, `<estate_pfi>`) from the samples the
 * README names for them.
 */
function placeholders(sample: SandboxSample, samples: SandboxSample[]): Record<string, string> {
  const named = (note: string) => {
    const found = samples.find((s) => s.note === note);
    if (!found) throw new Error(`no sandbox sample "${note}"`);
    return found;
  };
  const spear = named('SPEAR applications on the lot (VIC)');
  const estate = named('land supply: the address nearest an estate selling lots (VIC)');
  const d = 0.001;
  return {
    lat: String(sample.lat),
    lng: String(sample.lng),
    gnaf_pid: sample.gnaf_pid,
    pfi: sample.parcel_pfi!,
    address: sample.address,
    west: (sample.lng - d).toFixed(6),
    south: (sample.lat - d).toFixed(6),
    east: (sample.lng + d).toFixed(6),
    north: (sample.lat + d).toFixed(6),
    spear_pfi: spear.parcel_pfi!,
    estate_id: estate.estate_id!,
    estate_pfi: estate.parcel_pfi!,
  };
}

const fill = (text: string, values: Record<string, string>): string =>
  text.replace(/<([a-z_]+)>/g, (whole, name: string) => values[name] ?? whole);

function routeOf(method: string, path: string): RouteDefinition | undefined {
  return ROUTES.find((route) => {
    if (route.method !== method) return false;
    const pattern = new RegExp(`^${route.path.replace(/:[a-z_]+/gi, '[^/]+')}$`);
    return pattern.test(path);
  });
}

describe('the README, as a newcomer runs it', () => {
  let t: TestRuntime;
  let samples: SandboxSample[];
  let values: Record<string, string>;
  const curls = shellBlocks(README)
    .flatMap(shellCommands)
    .filter((words) => words[0] === 'curl')
    .map(parseCurl);

  beforeAll(async () => {
    t = await testRuntime();
    samples = await sandboxSamples(t.runtime.db, ALL_SAMPLE_CASES);
    const vic = samples.find((s) => s.state === 'VIC' && s.parcel_pfi && s.note.startsWith('all layers'))!;
    values = placeholders(vic, samples);
  });

  it('finds the examples it is meant to check', () => {
    expect(curls.length).toBeGreaterThanOrEqual(20);
    // every placeholder of every example is one this test fills (a sample the README names exists)
    const unfilled = curls.flatMap((c) =>
      [
        ...fill(decodeURIComponent(c.url.pathname + c.url.search) + (c.body ?? ''), values).matchAll(/<([a-z_]+)>/g),
      ].map((m) => `${m[0]} in ${c.text}`),
    );
    expect(unfilled).toEqual([]);
    expect(curls.filter((c) => c.method === 'post').length).toBeGreaterThanOrEqual(2);
  });

  it('names an example address that `landgraph sandbox samples` prints', () => {
    const named = /written the G-NAF way, e\.g\. `([^`]+)`/.exec(README)?.[1];
    expect(named, 'the README names an example address').toBeDefined();
    expect(samples.map((s) => s.address)).toContain(named);
    // The autocomplete example types the start of that address.
    const typed = /autocomplete' --data-urlencode 'q=([^']+)'/.exec(README)?.[1];
    expect(named!.toLowerCase().startsWith(typed!.toLowerCase()), `${typed} starts ${named}`).toBe(true);
  });

  it('suggests, in the README and at start, a key with every scope its examples use', async () => {
    const needed = new Set<string>();
    for (const example of curls.filter((c) => c.keyed)) {
      const path = fill(example.url.pathname, values);
      if (path === '/graphql') {
        needed.add('property-graph.read');
        continue;
      }
      const route = routeOf(example.method, path);
      expect(route, `a route answers ${example.method.toUpperCase()} ${path}`).toBeDefined();
      const scope = routeScope(route!);
      if (scope) needed.add(scope);
    }
    expect([...needed].filter((scope) => !(NEWCOMER_SCOPES as readonly string[]).includes(scope))).toEqual([]);
    const create = shellBlocks(README)
      .flatMap(shellCommands)
      .find((words) => words.includes('keys') && words.includes('create'))!;
    expect(create[create.indexOf('--scopes') + 1]!.split(',').sort()).toEqual([...NEWCOMER_SCOPES].sort());

    const dataDir = mkdtempSync(join(tmpdir(), 'landgraph-banner-'));
    try {
      const banner = await startBanner(
        { runtime: t.runtime, url: 'http://127.0.0.1:4000' },
        { ...t.config, databaseUrl: undefined, dataDir },
      );
      const suggested = /keys create .*--scopes (\S+)/.exec(banner)?.[1];
      expect(suggested?.split(',').sort()).toEqual([...NEWCOMER_SCOPES].sort());
      // The demo key's own example answers too.
      const demo = shellCommands(banner).find((words) => words[0] === 'curl')!;
      const header = demo[demo.indexOf('-H') + 1]!;
      const url = new URL(demo.at(-1)!);
      const point = `${url.searchParams.get('lat')},${url.searchParams.get('lng')}`;
      expect(samples.map((s) => `${s.lat},${s.lng}`)).toContain(point);
      const res = await request(t.app)
        .get(url.pathname + url.search)
        .set('Authorization', header.slice(header.indexOf(':') + 1).trim());
      expect(res.status, demo.join(' ')).toBe(200);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('answers every curl example 200, with a key holding the banner’s scopes', async () => {
    const key = await createTestKey(t.runtime, { name: 'readme', scopes: [...NEWCOMER_SCOPES] });
    const failures: string[] = [];
    for (const example of curls) {
      const target = fill((example.url.pathname + example.url.search).replace(/%3C([a-z_]+)%3E/g, '<$1>'), values);
      let req = example.method === 'get' ? request(t.app).get(target) : request(t.app).post(target);
      if (example.keyed) req = req.set('Authorization', `Bearer ${key}`);
      for (const [name, value] of example.headers) req = req.set(name, value);
      const res = example.body === undefined ? await req : await req.send(fill(example.body, values));
      if (res.status !== 200) failures.push(`${res.status} ${example.text}\n  ${JSON.stringify(res.body)}`);
      else if (target.startsWith('/graphql')) {
        const body = res.body as { data?: unknown; errors?: unknown };
        if (!body.data || body.errors) failures.push(`GraphQL errors: ${example.text}\n  ${JSON.stringify(body)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
