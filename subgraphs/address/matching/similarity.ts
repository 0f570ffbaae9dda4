/**
 * pg_trgm's similarity() in process, so a score computed here agrees with one computed by
 * PostgreSQL on the same strings and the matcher can rank rows from either.
 */

/**
 * The trigrams pg_trgm extracts: lower case, words split at anything that is not a letter or a
 * digit, each word padded with two spaces in front and one behind, duplicates removed.
 */
export function trigrams(text: string): Set<string> {
  const result = new Set<string>();
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (!word) continue;
    // Array.from splits by code point, as PostgreSQL counts characters rather than UTF-16 units.
    const padded = Array.from(`  ${word} `);
    for (let i = 0; i + 3 <= padded.length; i++) result.add(padded.slice(i, i + 3).join(''));
  }
  return result;
}

/**
 * Shared trigrams over all distinct trigrams, rounded to a float4 as pg_trgm returns it
 * (similarity('word', 'two words') is 0.36363637). Two strings without trigrams score 0, as in
 * PostgreSQL.
 */
export function trigramSimilarity(a: string, b: string): number {
  const left = trigrams(a);
  const right = trigrams(b);
  let shared = 0;
  for (const trigram of left) if (right.has(trigram)) shared += 1;
  const union = left.size + right.size - shared;
  return union === 0 ? 0 : Math.fround(shared / union);
}

/** Upper case, punctuation to spaces, single spaces: the form compared across input and G-NAF. */
export function normaliseForComparison(text: string): string {
  return text
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
