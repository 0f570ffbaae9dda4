import { createHash } from 'node:crypto';
import http from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryTokenBucket } from '../core/rate-limit.ts';
import { INVALID_KEY_POLICY } from '../platform/keys.ts';
import { createApp } from '../rest-facade/app.ts';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testRuntime } from './support/runtime.ts';

let t: TestRuntime;

beforeAll(async () => {
  t = await testRuntime();
});

/** The directives of a Content-Security-Policy header, by name. */
function directives(policy: string | undefined): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of (policy ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) out.set(name, sources);
  }
  return out;
}

/** Whether a source list lets a browser load `url` (scheme+host sources and full-URL sources). */
function allows(sources: readonly string[] | undefined, url: string): boolean {
  const target = new URL(url);
  return (sources ?? []).some((source) => {
    if (!/^https?:\/\//.test(source)) return false;
    const allowed = new URL(source);
    if (allowed.origin !== target.origin) return false;
    // A source with a path matches that path exactly, or everything under it when it ends in '/'.
    if (allowed.pathname === '/' && !source.endsWith('/')) return true;
    return source.endsWith('/') ? target.pathname.startsWith(allowed.pathname) : target.pathname === allowed.pathname;
  });
}

const inlineScripts = (html: string): string[] =>
  [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('security headers', () => {
  it('marks JSON answers nosniff, unframeable and unable to load anything', async () => {
    for (const path of ['/api/health', '/openapi.json', '/api/cadastre/lookup']) {
      const res = await request(t.app).get(path);
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
      expect(res.headers['x-frame-options'], path).toBe('DENY');
      const csp = directives(res.headers['content-security-policy']);
      expect(csp.get('default-src'), path).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors'), path).toEqual(["'none'"]);
    }
  });

  it('gives /docs a policy that allows exactly the Redoc bundle and its own inline script', async () => {
    const res = await request(t.app).get('/docs').expect(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    const csp = directives(res.headers['content-security-policy']);
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    const scriptSources = csp.get('script-src')!;
    // Every external script the page names is allowed, and nothing else from anywhere.
    const external = [...res.text.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]!);
    expect(external.length).toBeGreaterThan(0);
    for (const src of external) expect(allows(scriptSources, src), src).toBe(true);
    expect(allows(scriptSources, 'https://cdn.jsdelivr.net/npm/evil@1.0.0/x.js')).toBe(false);
    // Every inline script runs by its hash; no 'unsafe-inline' or 'unsafe-eval' for scripts.
    const inline = inlineScripts(res.text);
    expect(inline.length).toBe(1);
    for (const body of inline) expect(scriptSources).toContain(sha256(body));
    expect(scriptSources.filter((s) => s.startsWith("'unsafe"))).toEqual([]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
  });

  it('gives the Apollo Sandbox page a header policy carrying the nonce the page uses', async () => {
    const res = await request(t.app).get('/graphql').set('Accept', 'text/html').expect(200);
    expect(res.text).toMatch(/embeddable-sandbox/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    const csp = directives(res.headers['content-security-policy']);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('default-src')).toEqual(["'none'"]);
    const nonces = new Set([...res.text.matchAll(/nonce="?([0-9a-f]+)"?/g)].map((m) => m[1]));
    expect(nonces.size).toBe(1);
    const [nonce] = [...nonces];
    expect(csp.get('script-src')).toContain(`'nonce-${nonce}'`);
    expect(csp.get('style-src')).toContain(`'nonce-${nonce}'`);
    // Everything the page loads is allowed by the directive that governs it, narrowly by host.
    for (const m of res.text.matchAll(/<script[^>]*\bsrc="([^"]+)"/g))
      expect(allows(csp.get('script-src'), m[1]!), m[1]).toBe(true);
    const linkDirective: Record<string, string> = {
      stylesheet: 'style-src',
      icon: 'img-src',
      'apple-touch-icon': 'img-src',
      manifest: 'manifest-src',
    };
    const links = [...res.text.matchAll(/<link\b([^>]*)>/g)].map((m) => ({
      rel: /\brel="([^"]+)"/.exec(m[1]!)?.[1] ?? '',
      href: /\bhref="([^"]+)"/.exec(m[1]!)?.[1] ?? '',
    }));
    expect(links.filter((link) => link.rel === 'stylesheet').length).toBeGreaterThan(0);
    for (const link of links) {
      const directive = linkDirective[link.rel];
      if (directive) expect(allows(csp.get(directive), link.href), link.href).toBe(true);
    }
    expect(allows(csp.get('frame-src'), 'https://sandbox.embed.apollographql.com/sandbox/explorer')).toBe(true);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')!.filter((s) => s.startsWith("'unsafe"))).toEqual([]);
    // A second render draws a new nonce, and the header follows it.
    const again = await request(t.app).get('/graphql').set('Accept', 'text/html').expect(200);
    const second = /nonce="([0-9a-f]+)"/.exec(again.text)![1];
    expect(second).not.toBe(nonce);
    expect(again.headers['content-security-policy']).toContain(`'nonce-${second}'`);
  });
});

describe('CORS by each key’s embed allow-list', () => {
  const EMBED = 'https://maps.example.com';
  let embedding: { id: string; secret: string };
  let plain: string;

  beforeAll(async () => {
    const made = await t.runtime.keys.create({
      name: 'cors-embed',
      kind: 'test',
      scopes: ['cadastre.read', 'property-graph.read'],
      rateLimitPerMinute: 10_000,
      embedAllowList: [`${EMBED}/`, 'http://localhost:5173'],
    });
    embedding = { id: made.key.id, secret: made.secret };
    expect(made.key.embedAllowList).toEqual([EMBED, 'http://localhost:5173']);
    plain = await createTestKey(t.runtime, { name: 'cors-plain', scopes: ['cadastre.read'] });
  });

  const lookup = (secret: string, origin: string) =>
    request(t.app)
      .get('/api/cadastre/lookup')
      .query({ lat: '-36.7', lng: '144.3' })
      .set('Authorization', `Bearer ${secret}`)
      .set('Origin', origin);

  it('lets an origin on the key’s list read the answer, its request id and limits included', async () => {
    const res = await lookup(embedding.secret, EMBED);
    expect(res.status).toBeLessThan(500);
    expect(res.headers['access-control-allow-origin']).toBe(EMBED);
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(res.headers['access-control-expose-headers']).toMatch(/X-Request-Id/);
    expect(res.headers['access-control-expose-headers']).toMatch(/X-RateLimit-Remaining/);
    expect(res.headers.vary).toMatch(/Origin/);
    const graph = await request(t.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${embedding.secret}`)
      .set('Origin', EMBED)
      .send({ query: '{ __typename }' })
      .expect(200);
    expect(graph.headers['access-control-allow-origin']).toBe(EMBED);
  });

  it('gives no CORS headers to an origin the key does not list, nor to a key with no list', async () => {
    for (const res of [
      await lookup(embedding.secret, 'https://evil.example'),
      await lookup(embedding.secret, 'https://maps.example.com.evil.example'),
      await lookup(embedding.secret, 'http://maps.example.com'),
      await lookup(plain, EMBED),
    ]) {
      expect(res.status).toBeLessThan(500);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['access-control-expose-headers']).toBeUndefined();
    }
  });

  it('answers a keyless preflight for an origin some active key lists, and no other', async () => {
    const preflight = (origin: string) =>
      request(t.app)
        .options('/api/cadastre/lookup')
        .set('Origin', origin)
        .set('Access-Control-Request-Method', 'GET')
        .set('Access-Control-Request-Headers', 'authorization');
    const ok = await preflight(EMBED).expect(204);
    expect(ok.headers['access-control-allow-origin']).toBe(EMBED);
    expect(ok.headers['access-control-allow-methods']).toMatch(/GET/);
    expect(ok.headers['access-control-allow-headers']).toMatch(/Authorization/i);
    expect(Number(ok.headers['access-control-max-age'])).toBeGreaterThan(0);
    const graphql = await request(t.app)
      .options('/graphql')
      .set('Origin', EMBED)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization, content-type')
      .expect(204);
    expect(graphql.headers['access-control-allow-origin']).toBe(EMBED);

    const refused = await preflight('https://evil.example');
    expect(refused.status).toBe(405);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    expect(refused.body).toMatchObject({ success: false, error: expect.any(String) });

    // A revoked key's origins stop being answered at once.
    await t.runtime.keys.revoke(embedding.id);
    const gone = await preflight(EMBED);
    expect(gone.status).toBe(405);
    expect(gone.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses an allow-list entry that is not an origin, with the reason', async () => {
    for (const entry of ['maps.example.com', 'https://maps.example.com/app', 'ftp://maps.example.com', '*']) {
      await expect(
        t.runtime.keys.create({ name: 'bad-embed', kind: 'test', scopes: ['cadastre.read'], embedAllowList: [entry] }),
      ).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/is not an origin/) });
    }
  });
});

describe('repeated invalid keys from one client', () => {
  /** The app over the shared runtime with a limiter of its own, so this test's client starts clean. */
  const isolatedApp = () => createApp({ ...t.runtime, limiter: new MemoryTokenBucket() });

  /** A GET from a chosen loopback address, so two clients can be told apart. */
  function getFrom(
    url: string,
    localAddress: string,
    headers: Record<string, string>,
  ): Promise<{ status: number; headers: IncomingHttpHeaders; body: Record<string, unknown> }> {
    return new Promise((resolve, reject) => {
      http
        .get(url, { localAddress, headers }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode!,
              headers: res.headers,
              body: JSON.parse(text) as Record<string, unknown>,
            }),
          );
        })
        .on('error', reject);
    });
  }

  it('are counted per forwarded client behind a configured proxy', async () => {
    const app = createApp({
      ...t.runtime,
      config: { ...t.runtime.config, trustProxyHops: 1 },
      limiter: new MemoryTokenBucket(),
    });
    const bad = 'Bearer landgraph_test_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB';
    const from = (client: string, authorization: string) =>
      request(app)
        .get('/api/cadastre/lookup')
        .query({ lat: '-36.7', lng: '144.3' })
        .set('X-Forwarded-For', client)
        .set('Authorization', authorization);
    for (let i = 0; i < INVALID_KEY_POLICY.capacity; i++) await from('198.51.100.1', bad).expect(401);
    await from('198.51.100.1', bad).expect(429);
    // Another client behind the same proxy is not held back by the first.
    await from('198.51.100.2', bad).expect(401);
    expect([200, 404]).toContain((await from('198.51.100.2', `Bearer ${t.key}`)).status);
  });

  it('are slowed down with 429 and Retry-After, before any key is looked up, for that client only', async () => {
    const server = isolatedApp().listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const { port } = server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/api/cadastre/lookup?lat=-36.7&lng=144.3`;
    const bad = { Authorization: 'Bearer landgraph_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' };
    const good = { Authorization: `Bearer ${t.key}` };
    try {
      // Calls without a key, or with one no secret could look like, are not guesses and are never counted.
      for (let i = 0; i < INVALID_KEY_POLICY.capacity + 5; i++) {
        expect((await getFrom(url, '127.0.0.1', {})).body.error).toBe('Missing API key');
        expect((await getFrom(url, '127.0.0.1', { Authorization: 'Token abc' })).body.error).toBe('Invalid API key');
        expect((await getFrom(url, '127.0.0.1', { Authorization: 'Bearer landgraph_live_' })).status).toBe(401);
      }
      for (let i = 0; i < INVALID_KEY_POLICY.capacity; i++) {
        const res = await getFrom(url, '127.0.0.1', bad);
        expect(res.status).toBe(401);
        expect(res.body.error).toBe('Invalid API key');
      }
      const slowed = await getFrom(url, '127.0.0.1', bad);
      expect(slowed.status).toBe(429);
      expect(slowed.body).toEqual({
        success: false,
        error: 'Too many invalid API keys from this client.',
        hint: expect.stringMatching(/^Retry after \d+ s/),
      });
      expect(Number(slowed.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // While slowed down the client is refused before its key is read: a good key fares no better.
      const blockedGood = await getFrom(url, '127.0.0.1', good);
      expect(blockedGood.status).toBe(429);
      expect(blockedGood.headers['retry-after']).toBeDefined();
      // With no proxy configured, X-Forwarded-For is the client's own word and changes nothing.
      const spoofed = await getFrom(url, '127.0.0.1', { ...bad, 'X-Forwarded-For': '203.0.113.7' });
      expect(spoofed.status).toBe(429);
      // GraphQL goes through the same door.
      const graphql = await getFrom(`http://127.0.0.1:${port}/graphql?query=%7B__typename%7D`, '127.0.0.1', bad);
      expect(graphql.status).toBe(429);
      // Another client is untouched.
      const other = await getFrom(url, '127.0.0.2', good);
      // Served (the point may hold no parcel): neither refused nor failed.
      expect([200, 404]).toContain(other.status);
      expect((await getFrom(url, '127.0.0.2', bad)).status).toBe(401);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
