/** The newest `capacity` values, oldest overwritten first. */
class Ring<T> {
  private readonly values: T[] = [];
  private next = 0;

  constructor(private readonly capacity: number) {}

  push(value: T): void {
    if (this.values.length < this.capacity) this.values.push(value);
    else this.values[this.next] = value;
    this.next = (this.next + 1) % this.capacity;
  }

  all(): readonly T[] {
    return this.values;
  }
}

export type LatencySummary = {
  meanMs: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
  maxMs: number | null;
};

export type CountersSnapshot = {
  requests: number;
  successes: number;
  errors: number;
  retries: number;
  timeouts: number;
  /** Share of answered calls that succeeded since the start; null before the first. */
  successRate: number | null;
  /** The same over the most recent calls: what health judges by. */
  recentSuccessRate: number | null;
  recentCalls: number;
  latency: LatencySummary;
  lastError: string | null;
  lastSuccessAt: number | null;
  lastFailureAt: number | null;
};

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/**
 * The counters of one live service since the process started. Latency and the recent success
 * rate are kept over bounded windows, so a long-running process holds a fixed amount and its
 * figures describe now rather than its whole life.
 */
export class AdapterCounters {
  requests = 0;
  successes = 0;
  errors = 0;
  retries = 0;
  timeouts = 0;
  lastError: string | null = null;
  lastSuccessAt: number | null = null;
  lastFailureAt: number | null = null;
  private readonly latencies: Ring<number>;
  private readonly outcomes: Ring<boolean>;

  constructor(
    windows: { latency: number; outcomes: number } = { latency: 500, outcomes: 100 },
    private readonly now: () => number = Date.now,
  ) {
    this.latencies = new Ring(windows.latency);
    this.outcomes = new Ring(windows.outcomes);
  }

  succeeded(latencyMs: number): void {
    this.successes += 1;
    this.lastSuccessAt = this.now();
    this.latencies.push(latencyMs);
    this.outcomes.push(true);
  }

  /** A call that reached the service and failed; its time counts towards latency. */
  failed(message: string, latencyMs: number): void {
    this.refused(message);
    this.latencies.push(latencyMs);
    this.outcomes.push(false);
  }

  /** A call refused without asking the service (open circuit): an error for the caller, no evidence about the service. */
  refused(message: string): void {
    this.errors += 1;
    this.lastError = message;
    this.lastFailureAt = this.now();
  }

  snapshot(): CountersSnapshot {
    const answered = this.successes + this.errors;
    const outcomes = this.outcomes.all();
    const sorted = [...this.latencies.all()].sort((a, b) => a - b);
    const at = (p: number) => {
      const value = percentile(sorted, p);
      return value === null ? null : round(value, 1);
    };
    return {
      requests: this.requests,
      successes: this.successes,
      errors: this.errors,
      retries: this.retries,
      timeouts: this.timeouts,
      successRate: answered === 0 ? null : round(this.successes / answered, 4),
      recentSuccessRate: outcomes.length === 0 ? null : round(outcomes.filter(Boolean).length / outcomes.length, 4),
      recentCalls: outcomes.length,
      latency: {
        meanMs: sorted.length === 0 ? null : round(sorted.reduce((sum, v) => sum + v, 0) / sorted.length, 1),
        p50Ms: at(50),
        p95Ms: at(95),
        maxMs: at(100),
      },
      lastError: this.lastError,
      lastSuccessAt: this.lastSuccessAt,
      lastFailureAt: this.lastFailureAt,
    };
  }
}
