/** closed: calls go; open: calls are refused; half-open: the cool-down is over and one trial call may go. */
export type CircuitState = 'closed' | 'open' | 'half-open';

export type BreakerOptions = {
  /** Consecutive failed calls that open the circuit. */
  threshold: number;
  /** How long the circuit stays open before one trial call may go. */
  cooldownMs: number;
  now?: () => number;
};

/** What a caller may do now: call normally, make the one trial call of a half-open circuit, or not call. */
export type Permit = 'call' | 'trial' | 'refused';

/**
 * A circuit breaker for one upstream service: after `threshold` consecutive failures it stops
 * sending calls for `cooldownMs`, so a service that is down costs callers nothing but a refusal
 * instead of a timeout each. Then a single trial call decides: success closes the circuit,
 * failure opens it for another cool-down. Calls made while it was closed keep counting as usual.
 */
export class CircuitBreaker {
  private failures = 0;
  private openedAt: number | null = null;
  private trialInFlight = false;
  private readonly now: () => number;

  constructor(private readonly options: BreakerOptions) {
    this.now = options.now ?? Date.now;
  }

  get state(): CircuitState {
    if (this.openedAt === null) return 'closed';
    return this.now() - this.openedAt < this.options.cooldownMs ? 'open' : 'half-open';
  }

  get consecutiveFailures(): number {
    return this.failures;
  }

  /** When an open circuit lets its trial call go; null when it is not open. */
  get retryAt(): number | null {
    return this.openedAt === null ? null : this.openedAt + this.options.cooldownMs;
  }

  acquire(): Permit {
    switch (this.state) {
      case 'closed':
        return 'call';
      case 'open':
        return 'refused';
      case 'half-open':
        if (this.trialInFlight) return 'refused';
        this.trialInFlight = true;
        return 'trial';
    }
  }

  succeeded(): void {
    this.failures = 0;
    this.openedAt = null;
    this.trialInFlight = false;
  }

  failed(): void {
    this.failures += 1;
    // A failed trial opens the circuit again at once; a closed circuit opens at the threshold.
    if (this.trialInFlight || this.openedAt !== null || this.failures >= this.options.threshold) {
      this.openedAt = this.now();
    }
    this.trialInFlight = false;
  }
}
