/**
 * Subdivision of one block into lots, in grid coordinates. A block is two back-to-back rows:
 * the bottom row fronts the through street below it, the top row the one above. Corner lots
 * are a little wider (they give up frontage to the side street's setback); shops along the main
 * street take wider lots; a park is one lot filling the block.
 */
import { at } from './arrays.ts';
import type { BlockCol, BlockRow } from './grid.ts';
import type { Rng } from './random.ts';

export type BlockUse = 'residential' | 'commercial' | 'park';
export type LotKind = BlockUse;
export type LotRow = 'bottom' | 'top' | 'whole';

export interface Lot {
  readonly u0: number;
  readonly u1: number;
  readonly v0: number;
  readonly v1: number;
  readonly kind: LotKind;
  readonly row: LotRow;
  readonly corner: 'left' | 'right' | null;
  /** Vertices of the other row's lot lines on this lot's back fence, so both rows share them. */
  readonly backNodes: readonly number[];
}

// lo/hi keep frontages inside 10–25 m even after a lot line snaps by up to SNAP
const RESIDENTIAL = { min: 12, max: 21, mean: 16, lo: 11.5, hi: 23.5, cornerBonus: 3 };
const COMMERCIAL = { min: 22, max: 40, mean: 30, lo: 18, hi: 48, cornerBonus: 0 };
// low-density lots on a town's rural edge: quarter-acre and larger
const LARGE = { min: 30, max: 55, mean: 42, lo: 26, hi: 70, cornerBonus: 0 };
/** Lot lines of the two rows closer than this are merged, so no sliver lot or spike appears. */
const SNAP = 1.5;

/** Lot lines along a row from u0 to u1, both ends included. */
function splitRow(rng: Rng, u0: number, u1: number, p: typeof RESIDENTIAL): number[] {
  const width = u1 - u0;
  const n = Math.max(1, Math.round(width / p.mean));
  for (let attempt = 0; attempt < 12; attempt++) {
    const weights = Array.from({ length: n }, (_, i) => {
      const corner = n >= 3 && (i === 0 || i === n - 1);
      return rng.range(p.min, p.max) + (corner ? p.cornerBonus : 0);
    });
    const scale = width / weights.reduce((a, b) => a + b, 0);
    const frontages = weights.map((w) => w * scale);
    if (n > 1 && frontages.some((f) => f < p.lo || f > p.hi)) continue;
    // running sum of frontages; the last line is the block edge itself, free of rounding drift
    let u = u0;
    return [u0, ...frontages.slice(0, -1).map((f) => (u += f)), u1];
  }
  return Array.from({ length: n + 1 }, (_, i) => (i === n ? u1 : u0 + (width * i) / n));
}

function rowLots(
  lines: readonly number[],
  v0: number,
  v1: number,
  row: LotRow,
  kind: LotKind,
  otherLines: readonly number[],
): Lot[] {
  const lastIndex = lines.length - 2;
  return lines.slice(0, -1).map((u0, i) => {
    const u1 = at(lines, i + 1);
    return {
      u0,
      u1,
      v0,
      v1,
      kind,
      row,
      corner: i === 0 ? 'left' : i === lastIndex ? 'right' : null,
      backNodes: otherLines.filter((u) => u > u0 && u < u1),
    };
  });
}

export interface BlockKind {
  readonly use: BlockUse;
  /** The lot row facing the main street, on commercial blocks. */
  readonly shopfront: 'bottom' | 'top' | null;
  readonly largeLots: boolean;
}

/** Lots of one block, bottom row then top row, each left to right. */
export function layoutBlock(rng: Rng, col: BlockCol, row: BlockRow, { use, shopfront, largeLots }: BlockKind): Lot[] {
  if (use === 'park') {
    return [
      { u0: col.u0, u1: col.u1, v0: row.v0, v1: row.v1, kind: 'park', row: 'whole', corner: null, backNodes: [] },
    ];
  }
  const bottomShops = use === 'commercial' && shopfront === 'bottom';
  const topShops = use === 'commercial' && shopfront === 'top';
  const homes = largeLots ? LARGE : RESIDENTIAL;
  const top = splitRow(rng, col.u0, col.u1, topShops ? COMMERCIAL : homes);
  const bottom = splitRow(rng, col.u0, col.u1, bottomShops ? COMMERCIAL : homes).map((u, i, all) => {
    if (i === 0 || i === all.length - 1) return u;
    const near = top.find((t) => Math.abs(t - u) < SNAP);
    return near ?? u;
  });
  // snapping can make two adjacent lines equal; drop the duplicate rather than emit a zero-width lot
  const bottomLines = bottom.filter((u, i) => i === 0 || u > at(bottom, i - 1));
  return [
    ...rowLots(bottomLines, row.v0, row.mid, 'bottom', bottomShops ? 'commercial' : 'residential', top),
    ...rowLots(top, row.mid, row.v1, 'top', topShops ? 'commercial' : 'residential', bottomLines),
  ];
}
