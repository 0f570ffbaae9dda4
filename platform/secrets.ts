import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export type KeyKind = 'live' | 'test';

/** Key prefixes of DESIGN.md §4: the kind is visible in the secret itself. */
export const KEY_PREFIXES: Record<KeyKind, string> = { live: 'landgraph_live_', test: 'landgraph_test_' };

const SECRET_SHAPE = /^landgraph_(live|test)_[A-Za-z0-9]{32}$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 32 characters of base62 from a CSPRNG: about 190 bits, no ambiguity in URLs or headers. */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 × 62: bytes above it are dropped so every character is equally likely
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export function newSecret(kind: KeyKind): string {
  return `${KEY_PREFIXES[kind]}${randomBase62(32)}`;
}

export function newId(prefix: string): string {
  return `${prefix}_${randomBase62(16)}`;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function looksLikeSecret(value: string): boolean {
  return SECRET_SHAPE.test(value);
}

/** Compares two hex digests in constant time, so response timing says nothing about a near miss. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** What may be shown of a secret after creation: its kind prefix and four characters. */
export function secretPrefix(secret: string): string {
  return secret.slice(0, KEY_PREFIXES.live.length + 4);
}
