/**
 * Indexing that fails loudly. The generator's indices are all computed from the grid it built,
 * so an index outside an array is a bug to surface at once, not an undefined to carry along.
 */
export function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new RangeError(`Index ${index} is outside 0..${items.length - 1}`);
  return item;
}

export const last = <T>(items: readonly T[]): T => at(items, items.length - 1);
