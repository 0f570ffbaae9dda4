import type { EnrichLlmSettings } from '../../core/config.ts';
import { logger } from '../../core/logger.ts';
import { SourceError } from '../../core/sources/errors.ts';
import { ResilientService } from '../../core/sources/resilient.ts';
import type { Upload } from './csv.ts';
import type { Mapping } from './mapping.ts';
import { MAPPING_FIELDS, sampleValues, validateMapping } from './mapping.ts';

/** The provider of an OpenAI-compatible chat-completions API (LANDGRAPH_ENRICH_LLM_*). */
export type LlmSettings = EnrichLlmSettings;

type ChatResponse = { choices?: { message?: { content?: unknown } }[] };

const SYSTEM_PROMPT = [
  'You map the columns of an uploaded CSV of Australian property addresses.',
  `Answer with one JSON object whose keys are some of: ${MAPPING_FIELDS.join(', ')}.`,
  'Each value is the exact header of the column holding that part. Use "address" for a column holding the',
  'whole address in one line; otherwise map its parts (number, street, locality, state, postcode), or lat and',
  'lng for coordinates. Leave out fields no column holds. Answer with the JSON object only.',
].join(' ');

/**
 * Asks a language model which columns hold the address. It only proposes: the answer is checked
 * against the file's real columns (validateMapping) and anything else (a failure, a timeout, an
 * answer that is not such an object, columns the file lacks) returns null, so the caller keeps
 * the heuristic proposal. Calls go through the shared resilience (timeout per attempt, retries on
 * the service's failures, a circuit that pauses a failing provider).
 */
export class MappingModel {
  private readonly service: ResilientService;
  private readonly endpoint: string;

  constructor(
    private readonly settings: LlmSettings,
    private readonly fetchFn: typeof fetch = globalThis.fetch,
  ) {
    this.endpoint = `${settings.url.replace(/\/+$/, '')}/chat/completions`;
    this.service = new ResilientService('mapping model', {
      retries: settings.retries,
      circuitThreshold: 5,
      circuitCooldownMs: 60_000,
      baseDelayMs: 200,
      maxDelayMs: 1_000,
    });
  }

  get label(): string {
    return `${this.settings.model} at ${new URL(this.endpoint).host}`;
  }

  /** The model's mapping, validated against the upload; null (with the reason logged) when there is none to use. */
  async propose(upload: Upload): Promise<{ mapping: Mapping | null; reason: string | null }> {
    let content: string;
    try {
      content = await this.service.call(() => this.ask(upload));
    } catch (error) {
      const reason = (error as Error).message;
      logger.warn('mapping model failed; the heuristic proposal stands', { reason });
      return { mapping: null, reason };
    }
    try {
      const parsed: unknown = JSON.parse(content.replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, ''));
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw new Error('the answer is not a JSON object');
      }
      return { mapping: validateMapping(upload, parsed as Record<string, unknown>, 'The model'), reason: null };
    } catch (error) {
      const reason = `the model's answer was not usable: ${(error as Error).message}`;
      logger.warn('mapping model answered nonsense; the heuristic proposal stands', { reason });
      return { mapping: null, reason };
    }
  }

  private prompt(upload: Upload): string {
    const columns = upload.columns.map((name, index) => ({ header: name, samples: sampleValues(upload, index, 5) }));
    return JSON.stringify({ columns });
  }

  /** One attempt: POST {base}/chat/completions with the Bearer key; the content of the first choice. */
  private async ask(upload: Upload): Promise<string> {
    let response: Response;
    try {
      response = await this.fetchFn(this.endpoint, {
        method: 'POST',
        headers: { Authorization: `Bearer ${this.settings.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          model: this.settings.model,
          temperature: 0,
          response_format: { type: 'json_object' },
          messages: [
            { role: 'system', content: SYSTEM_PROMPT },
            { role: 'user', content: this.prompt(upload) },
          ],
        }),
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      });
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new SourceError('timeout', `The ${this.label} did not answer within ${this.settings.timeoutMs} ms.`);
      }
      throw new SourceError('unreachable', `The ${this.label} could not be reached.`, { cause: error });
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw new SourceError('timeout', `The ${this.label} did not finish its answer in time.`, { cause: error });
    }
    if (!response.ok) {
      throw new SourceError('http', `The ${this.label} answered HTTP ${response.status}.`, { status: response.status });
    }
    let body: ChatResponse;
    try {
      body = JSON.parse(text) as ChatResponse;
    } catch {
      throw new SourceError('malformed', `The ${this.label} answered something that is not JSON.`);
    }
    const content = body.choices?.[0]?.message?.content;
    if (typeof content !== 'string') {
      throw new SourceError('malformed', `The ${this.label} answered without choices[0].message.content.`);
    }
    return content;
  }
}
