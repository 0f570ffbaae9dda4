/**
 * Seeded randomness for the sandbox generator. Never Math.random: the same seed must give the
 * same bytes on every machine, so every draw comes from an sfc32 stream keyed by a hash of the
 * seed and a label (a suburb, a block, a state's id counters). Keying streams by label rather
 * than sharing one stream keeps a change in one part of the generator from reshuffling the rest.
 */
import { at, last } from './arrays.ts';

/** FNV-1a over the parts, then murmur3's finaliser: a well-mixed 32-bit seed from any labels. */
export function hashSeed(...parts: ReadonlyArray<string | number>): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    const text = String(part);
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    // a separator, so ('ab', 'c') and ('a', 'bc') hash apart
    h ^= 0x1f;
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    // sfc32's first outputs echo the seed; discard them
    for (let i = 0; i < 16; i++) this.uint32();
  }

  static for(...parts: ReadonlyArray<string | number>): Rng {
    return new Rng(hashSeed(...parts));
  }

  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  range(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  weighted<T>(entries: ReadonlyArray<readonly [T, number]>): T {
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let target = this.next() * total;
    for (const [value, weight] of entries) {
      target -= weight;
      if (target < 0) return value;
    }
    // only floating-point rounding reaches here: the last entry takes it
    return last(entries)[0];
  }

  /** Fisher-Yates on a copy. */
  shuffled<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const swap = at(out, i);
      out[i] = at(out, j);
      out[j] = swap;
    }
    return out;
  }
}
