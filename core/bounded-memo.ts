/**
 * Values worked out once per key and kept for the life of the process (SQL statement names,
 * prepared and compiled GraphQL operations, row converters). The bound guards against a stream
 * of distinct keys, such as callers sending ever new operations: when full, the least recently
 * used entry goes, so the few hot keys stay compiled while the stream churns only the cold end.
 * (Emptying the whole memo instead let any stream of new keys make every hot key cold again.)
 */
export class BoundedMemo<K, V> {
  // A Map iterates in insertion order; re-inserting on every hit keeps the coldest key first.
  private readonly values = new Map<K, V>();

  constructor(private readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`BoundedMemo size must be a positive integer`);
  }

  get size(): number {
    return this.values.size;
  }

  has(key: K): boolean {
    return this.values.has(key);
  }

  get(key: K, make: (key: K) => V): V {
    if (this.values.has(key)) {
      const held = this.values.get(key) as V;
      this.values.delete(key);
      this.values.set(key, held);
      return held;
    }
    const value = make(key);
    if (this.values.size >= this.max) {
      const coldest = this.values.keys().next();
      if (!coldest.done) this.values.delete(coldest.value);
    }
    this.values.set(key, value);
    return value;
  }

  clear(): void {
    this.values.clear();
  }
}
