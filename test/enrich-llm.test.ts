import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../core/config.ts';
import { readUpload } from '../platform/enrich/csv.ts';
import { submitEnrich } from '../platform/enrich/jobs.ts';
import { MappingModel } from '../platform/enrich/llm.ts';
import { testConfig, testRuntime } from './support/runtime.ts';

/**
 * A local server speaking the OpenAI chat-completions protocol (POST /v1/chat/completions, Bearer
 * key, JSON in and out): each test sets how it answers.
 */
type Behaviour = (body: Record<string, unknown>, res: ServerResponse) => void;
let behave: Behaviour;
const seen: { auth: string | undefined; path: string | undefined; body: Record<string, unknown> }[] = [];
let base: string;
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  let text = '';
  req.on('data', (chunk: Buffer) => (text += chunk.toString()));
  req.on('end', () => {
    const body = JSON.parse(text) as Record<string, unknown>;
    seen.push({ auth: req.headers.authorization, path: req.url, body });
    behave(body, res);
  });
});

const answer =
  (content: string): Behaviour =>
  (_body, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content } }],
      }),
    );
  };

const upload = readUpload(
  ['Customer,Site Location,Suburb,Postcode', 'Kim,12 Smith St,Huntly,3551', 'Lee,3 Ray Rd,Epsom,3551'].join('\n'),
);

const model = (timeoutMs = 2_000) =>
  new MappingModel({ url: `${base}/v1`, key: 'sk-test-123', model: 'mapper-1', timeoutMs, retries: 1 });

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the mapping model (OpenAI-compatible chat completions)', () => {
  it('is configured by URL, key and model together, or not at all', () => {
    expect(loadConfig({}).enrichLlm).toBeUndefined();
    expect(
      loadConfig({
        LANDGRAPH_ENRICH_LLM_URL: 'https://llm.example.com/v1',
        LANDGRAPH_ENRICH_LLM_KEY: 'sk-1',
        LANDGRAPH_ENRICH_LLM_MODEL: 'm',
      }).enrichLlm,
    ).toEqual({ url: 'https://llm.example.com/v1', key: 'sk-1', model: 'm', timeoutMs: 8_000, retries: 1 });
    expect(() => loadConfig({ LANDGRAPH_ENRICH_LLM_URL: 'https://llm.example.com/v1' })).toThrow(ConfigError);
    expect(() => loadConfig({ LANDGRAPH_ENRICH_LLM_URL: 'https://llm.example.com/v1' })).toThrow(
      /needs LANDGRAPH_ENRICH_LLM_KEY, LANDGRAPH_ENRICH_LLM_MODEL as well/,
    );
  });

  it('posts the columns with the Bearer key and takes a good answer, checked against the real columns', async () => {
    seen.length = 0;
    behave = answer('{"street": "site location", "locality": "Suburb", "postcode": "Postcode"}');
    const proposal = await model().propose(upload);
    expect(proposal).toEqual({
      mapping: { street: 'Site Location', locality: 'Suburb', postcode: 'Postcode' },
      reason: null,
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.path).toBe('/v1/chat/completions');
    expect(seen[0]!.auth).toBe('Bearer sk-test-123');
    expect(seen[0]!.body.model).toBe('mapper-1');
    const messages = seen[0]!.body.messages as { role: string; content: string }[];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(messages[1]!.content).toContain('Site Location');
  });

  it('refuses an answer naming columns the file lacks, or that is not JSON', async () => {
    behave = answer('{"address": "Full Address"}');
    expect(await model().propose(upload)).toMatchObject({
      mapping: null,
      reason: expect.stringMatching(/does not have/),
    });
    behave = answer('The address is in the second column.');
    expect(await model().propose(upload)).toMatchObject({ mapping: null, reason: expect.stringMatching(/not usable/) });
    behave = (_b, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"choices": []}');
    };
    expect(await model().propose(upload)).toMatchObject({
      mapping: null,
      reason: expect.stringMatching(/without choices/),
    });
  });

  it('retries a 500 once, then gives up with the reason', async () => {
    seen.length = 0;
    behave = (_b, res) => {
      res.writeHead(500);
      res.end('overloaded');
    };
    expect(await model().propose(upload)).toMatchObject({ mapping: null, reason: expect.stringMatching(/HTTP 500/) });
    expect(seen).toHaveLength(2);
  });

  it('gives up on a provider that does not answer in time', async () => {
    behave = () => undefined; // never answers
    expect(await model(300).propose(upload)).toMatchObject({
      mapping: null,
      reason: expect.stringMatching(/did not answer within 300 ms/),
    });
  });

  it('submit keeps the heuristic proposal when the model fails, and the model’s when it holds up; neither is applied', async () => {
    const t = await testRuntime();
    const config = testConfig({
      LANDGRAPH_ENRICH_LLM_URL: `${base}/v1`,
      LANDGRAPH_ENRICH_LLM_KEY: 'sk-test-123',
      LANDGRAPH_ENRICH_LLM_MODEL: 'mapper-1',
      LANDGRAPH_ENRICH_LLM_TIMEOUT_MS: '1000',
    });
    const who = { accountId: `acct-llm-${randomUUID().slice(0, 8)}`, keyId: 'key_llm', scopes: ['enrich.submit'] };
    const csv = ['Customer,Site Location,Suburb,Postcode', 'Kim,12 Smith St,Huntly,3551'].join('\n');
    behave = answer('{"street": "Site Location", "locality": "Suburb", "postcode": "Postcode"}');
    const good = await submitEnrich(t.runtime.db, config, who, { csv, bundles: [] });
    expect(good.proposal).toMatchObject({
      source: 'llm',
      mapping: { street: 'Site Location', locality: 'Suburb', postcode: 'Postcode' },
    });
    expect(good.job.state).toBe('awaiting_approval');
    expect(good.job.input.mapping).toBeUndefined();

    behave = answer('{"address": 42}');
    const nonsense = await submitEnrich(t.runtime.db, config, who, { csv, bundles: [] });
    expect(nonsense.proposal.source).toBe('heuristic');
    expect(nonsense.proposal.notes.at(-1)).toMatch(/the model's proposal was not used/);
    expect(nonsense.job.state).toBe('awaiting_approval');
  });
});
