import { describe, expect, it } from 'vitest';
import {
  MAX_CLOCK_SKEW_MS,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  generateInternalSecret,
  signRequest,
  verifyRequest,
} from '../core/internal-auth.ts';
import type { SignedRequest } from '../core/internal-auth.ts';
import { loadConfig } from '../core/config.ts';
import { distributedSubgraphUrls, startRuntime } from '../app/runtime.ts';

const SECRET = generateInternalSecret();
const NOW = 1_790_000_000_000;

function request(headers: Record<string, string>, overrides: Partial<SignedRequest> = {}): SignedRequest {
  return {
    method: 'POST',
    path: '/graphql',
    body: '{"query":"{ __typename }"}',
    header: (name) => headers[name],
    ...overrides,
  };
}

/** A request as the gateway would send it: scope headers, then the signature over them. */
function signed(scopeHeaders: Record<string, string>, overrides: Partial<SignedRequest> = {}) {
  const headers = { ...scopeHeaders };
  Object.assign(headers, signRequest(SECRET, request(headers, overrides), NOW));
  return headers;
}

const SCOPES = { 'x-landgraph-dataset': 'sandbox', 'x-landgraph-scopes': 'cadastre.read', 'x-request-id': 'r-1' };

describe('internal request signing', () => {
  it('accepts a request signed with the shared secret', () => {
    expect(verifyRequest(SECRET, request(signed(SCOPES)), NOW)).toEqual({ ok: true });
  });

  it('refuses an unsigned request, even one claiming every scope', () => {
    const verdict = verifyRequest(SECRET, request({ ...SCOPES, 'x-landgraph-scopes': '*' }), NOW);
    expect(verdict).toEqual({ ok: false, reason: 'The request is not signed.' });
  });

  it('refuses a request whose scopes were widened after signing', () => {
    const headers = { ...signed(SCOPES), 'x-landgraph-scopes': '*' };
    expect(verifyRequest(SECRET, request(headers), NOW)).toEqual({
      ok: false,
      reason: 'The request signature does not match.',
    });
  });

  it('refuses a request whose dataset or request id was changed after signing', () => {
    for (const [name, value] of [
      ['x-landgraph-dataset', 'live'],
      ['x-request-id', 'r-2'],
    ] as const) {
      const headers = { ...signed(SCOPES), [name]: value };
      expect(verifyRequest(SECRET, request(headers), NOW).ok).toBe(false);
    }
  });

  it('refuses a tampered body, path or method', () => {
    const headers = signed(SCOPES);
    expect(verifyRequest(SECRET, request(headers, { body: '{"query":"{ x }"}' }), NOW).ok).toBe(false);
    expect(verifyRequest(SECRET, request(headers, { path: '/graphql?x=1' }), NOW).ok).toBe(false);
    expect(verifyRequest(SECRET, request(headers, { method: 'GET' }), NOW).ok).toBe(false);
  });

  it('refuses a signature made with another secret', () => {
    const headers = { ...SCOPES, ...signRequest(generateInternalSecret(), request(SCOPES), NOW) };
    expect(verifyRequest(SECRET, request(headers), NOW).ok).toBe(false);
  });

  it('refuses a stale or future timestamp beyond the skew window, and accepts one inside it', () => {
    const headers = signed(SCOPES);
    expect(verifyRequest(SECRET, request(headers), NOW + MAX_CLOCK_SKEW_MS)).toEqual({ ok: true });
    expect(verifyRequest(SECRET, request(headers), NOW + MAX_CLOCK_SKEW_MS + 1)).toEqual({
      ok: false,
      reason: 'The request signature has expired.',
    });
    expect(verifyRequest(SECRET, request(headers), NOW - MAX_CLOCK_SKEW_MS - 1).ok).toBe(false);
  });

  it('refuses malformed signature and timestamp headers without throwing', () => {
    const headers = signed(SCOPES);
    const malformed: Array<Record<string, string>> = [
      { [SIGNATURE_HEADER]: 'zz' },
      { [SIGNATURE_HEADER]: 'abcd' },
      { [TIMESTAMP_HEADER]: 'yesterday' },
      { [TIMESTAMP_HEADER]: '' },
    ];
    for (const bad of malformed) {
      expect(verifyRequest(SECRET, request({ ...headers, ...bad }), NOW).ok).toBe(false);
    }
  });

  it('signs the body by its bytes, so a Buffer and the same string agree', () => {
    const body = '{"query":"{ __typename }","variables":{"q":"Ōtautahi"}}';
    const headers = signed(SCOPES, { body });
    expect(verifyRequest(SECRET, request(headers, { body: Buffer.from(body) }), NOW)).toEqual({ ok: true });
  });
});

describe('internal trust settings', () => {
  it('binds subgraphs to loopback whatever the public HOST is, unless told otherwise', () => {
    expect(loadConfig({ HOST: '0.0.0.0' }).subgraphHost).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0', LANDGRAPH_SUBGRAPH_HOST: '10.0.0.5' }).subgraphHost).toBe('10.0.0.5');
  });

  it('reaches a wildcard-bound subgraph over loopback', () => {
    const urls = distributedSubgraphUrls(loadConfig({ LANDGRAPH_SUBGRAPH_HOST: '0.0.0.0' }));
    expect(urls.address).toBe('http://127.0.0.1:4101/graphql');
  });

  it('refuses a short internal secret at start, and leaves it unset when empty', () => {
    expect(() => loadConfig({ LANDGRAPH_INTERNAL_SECRET: 'hunter2' })).toThrow(
      /LANDGRAPH_INTERNAL_SECRET: must be at least 32 characters/,
    );
    expect(loadConfig({ LANDGRAPH_INTERNAL_SECRET: '' }).internalSecret).toBeUndefined();
    expect(loadConfig({}).subgraphTimeoutMs).toBe(10_000);
  });

  it('will not start a distributed gateway without a secret to sign with', async () => {
    await expect(startRuntime(loadConfig({ LANDGRAPH_MODE: 'distributed' }), { prepare: false })).rejects.toThrow(
      /needs LANDGRAPH_INTERNAL_SECRET/,
    );
  });
});
