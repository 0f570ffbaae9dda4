import { CircuitBreaker } from './circuit-breaker.ts';
import type { CircuitState } from './circuit-breaker.ts';
import { AdapterCounters } from './counters.ts';
import type { CountersSnapshot } from './counters.ts';
import { SourceError } from './errors.ts';

export type ResilienceOptions = {
  /** Further attempts after a retryable failure. */
  retries: number;
  /** Consecutive failed calls that open the circuit, and how long it stays open. */
  circuitThreshold: number;
  circuitCooldownMs: number;
  /** First backoff ceiling; each further attempt doubles it, up to maxDelayMs. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A probe (health refresh) within this long of the last one answers the last one's result. */
  probeIntervalMs?: number;
  now?: () => number;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
};

export type ProbeResult = { ok: boolean; at: number; message: string };

export type ResilienceSnapshot = CountersSnapshot & {
  circuitState: CircuitState;
  consecutiveFailures: number;
  /** When an open circuit lets its trial call go. */
  retryAt: number | null;
  lastProbe: ProbeResult | null;
};

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Every call to one live service goes through here: refused at once while its circuit is open,
 * retried with exponential backoff and full jitter when the failure is the service's (timeouts,
 * 5xx, dropped connections) and never when it is ours or the body's (4xx, malformed), and
 * counted. Each attempt's timeout is the protocol client's own budget.
 */
export class ResilientService {
  readonly counters: AdapterCounters;
  private readonly breaker: CircuitBreaker;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private lastProbe: ProbeResult | null = null;
  private probing: Promise<ProbeResult> | null = null;

  constructor(
    /** Names the service in messages: "live VIC planning service", "live VIC cadastre". */
    readonly label: string,
    private readonly options: ResilienceOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.sleep = options.sleep ?? wait;
    this.counters = new AdapterCounters(undefined, this.now);
    this.breaker = new CircuitBreaker({
      threshold: options.circuitThreshold,
      cooldownMs: options.circuitCooldownMs,
      now: this.now,
    });
  }

  /** The backoff before attempt `attempt + 1`: uniformly random up to the doubled ceiling. */
  backoffMs(attempt: number): number {
    const base = this.options.baseDelayMs ?? 200;
    const ceiling = Math.min(this.options.maxDelayMs ?? 2_000, base * 2 ** (attempt - 1));
    return Math.round(this.random() * ceiling);
  }

  async call<T>(run: () => Promise<T>): Promise<T> {
    this.counters.requests += 1;
    const permit = this.breaker.acquire();
    if (permit === 'refused') {
      const error = this.circuitOpen();
      this.counters.refused(error.message);
      throw error;
    }
    // The trial call of a half-open circuit is the one probe it allows: no retries.
    const attempts = permit === 'trial' ? 1 : this.options.retries + 1;
    const started = performance.now();
    for (let attempt = 1; ; attempt += 1) {
      try {
        const value = await run();
        this.breaker.succeeded();
        this.counters.succeeded(performance.now() - started);
        return value;
      } catch (error) {
        const known = error instanceof SourceError;
        if (known && error.failure === 'timeout') this.counters.timeouts += 1;
        if (known && error.retryable && attempt < attempts) {
          this.counters.retries += 1;
          await this.sleep(this.backoffMs(attempt));
          continue;
        }
        this.breaker.failed();
        this.counters.failed(messageOf(error), performance.now() - started);
        throw error;
      }
    }
  }

  /**
   * Asks the service now, whatever its circuit says (a health refresh), once: the answer closes
   * or opens the circuit as a call's would. Probes closer together than the probe interval share
   * the last answer, so an open health route cannot be used to hammer the upstream service.
   */
  probe(run: () => Promise<unknown>): Promise<ProbeResult> {
    if (this.probing) return this.probing;
    const last = this.lastProbe;
    if (last && this.now() - last.at < (this.options.probeIntervalMs ?? 10_000)) return Promise.resolve(last);
    this.probing = (async (): Promise<ProbeResult> => {
      try {
        await run();
        this.breaker.succeeded();
        return { ok: true, at: this.now(), message: `The ${this.label} answered a probe.` };
      } catch (error) {
        this.breaker.failed();
        return { ok: false, at: this.now(), message: messageOf(error) };
      }
    })().then((result) => {
      this.lastProbe = result;
      this.probing = null;
      return result;
    });
    return this.probing;
  }

  snapshot(): ResilienceSnapshot {
    return {
      ...this.counters.snapshot(),
      circuitState: this.breaker.state,
      consecutiveFailures: this.breaker.consecutiveFailures,
      retryAt: this.breaker.state === 'open' ? this.breaker.retryAt : null,
      lastProbe: this.lastProbe,
    };
  }

  private circuitOpen(): SourceError {
    const at = this.breaker.retryAt;
    const when =
      this.breaker.state === 'half-open' || at === null
        ? 'once the trial call under way answers'
        : `after ${new Date(at).toISOString()}`;
    return new SourceError(
      'circuit-open',
      `The ${this.label} is paused after ${this.breaker.consecutiveFailures} failed calls in a row; it is asked again ${when}.`,
    );
  }
}
