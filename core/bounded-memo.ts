/**
 * Values worked out once per key and kept for the life of the process. The keys are few and
 * fixed (SQL statements, GraphQL operations), so a full memo simply starts again instead of
 * tracking use: the bound only guards against an unbounded stream of distinct keys.
 */
export class BoundedMemo<K, V> {
  private readonly values = new Map<K, V>();

  constructor(private readonly max: number) {}

  get(key: K, make: (key: K) => V): V {
    const held = this.values.get(key);
    if (held !== undefined) return held;
    const value = make(key);
    if (this.values.size >= this.max) this.values.clear();
    this.values.set(key, value);
    return value;
  }

  clear(): void {
    this.values.clear();
  }
}
