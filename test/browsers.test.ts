import { createHash } from 'node:crypto';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestRuntime } from './support/runtime.ts';
import { testRuntime } from './support/runtime.ts';

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
