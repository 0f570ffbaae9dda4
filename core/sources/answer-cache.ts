/**
 * Answers of a live service kept in process for a while, at most `maxEntries` of them: the oldest
 * go first once it is full. The layers behind live services (planning controls, hazard overlays)
 * change with gazettals, weeks apart, so minutes of reuse are safe and spare the state's service
 * the same question from every property on a street.
 */
export class AnswerCache<T> {
  private readonly entries = new Map<string, { value: T; expiresAt: number }>();

  constructor(
    readonly ttlSeconds: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return this.ttlSeconds > 0;
  }

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: T): void {
    if (!this.enabled) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlSeconds * 1000 });
    // A Map iterates in insertion order: the first key is the oldest.
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }
}
