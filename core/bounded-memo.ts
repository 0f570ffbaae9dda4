/**
 * Values worked out once per key and kept for the life of the process (SQL statement names,
 * prepared and compiled GraphQL operations, row converters). The bound guards against a stream
 * of distinct keys, such as callers sending ever new operations: when full, the least recently
 * used entry goes, so the few hot keys stay compiled while the stream churns only the cold end.
 * (Emptying the whole memo instead let any stream of new keys make every hot key cold again.)
 *
 * A hit only stamps its entry with the use count: the lookups sit on every call's path (each
 * result column's converter, each statement's name), where moving the entry to the end of a Map
 * (a delete and a set) cost more than the lookup. The scan for the stalest entry is paid on a
 * miss of a full memo only, next to the cost of making the value.
 */
export class BoundedMemo<K, V> {
  private readonly entries = new Map<K, { value: V; used: number }>();
  private uses = 0;

  constructor(private readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`BoundedMemo size must be a positive integer`);
  }

  get size(): number {
    return this.entries.size;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  get(key: K, make: (key: K) => V): V {
    const held = this.entries.get(key);
    if (held) {
      held.used = ++this.uses;
      return held.value;
    }
    const value = make(key);
    if (this.entries.size >= this.max) this.evictStalest();
    this.entries.set(key, { value, used: ++this.uses });
    return value;
  }

  clear(): void {
    this.entries.clear();
  }

  private evictStalest(): void {
    let stalest: K | undefined;
    let oldest = Infinity;
    for (const [key, entry] of this.entries) {
      if (entry.used < oldest) {
        oldest = entry.used;
        stalest = key;
      }
    }
    if (oldest !== Infinity) this.entries.delete(stalest as K);
  }
}
