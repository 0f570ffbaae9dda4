/**
 * What each block is for and how it is zoned. Zoning follows the shape of a real town: shops
 * along the main street near the centre, mixed use around them, denser housing close in,
 * detached housing further out, low-density lots on a rural fringe, parks scattered through.
 */
import { at } from './arrays.ts';
import type { Grid } from './grid.ts';
import type { BlockKind, BlockUse } from './lots.ts';
import { type PlanningCode, type ZoneRole, zoneCode } from './planning-codes.ts';
import type { Rng } from './random.ts';
import type { SuburbSpec } from './suburbs.ts';

export interface BlockPlan extends BlockKind {
  readonly zone: PlanningCode | null;
  /** A block inside planning coverage that no zone covers (planning "no_data"). */
  readonly deferred: boolean;
}

const PARK_SHARE = 0.04;

export function planBlocks(rng: Rng, spec: SuburbSpec, grid: Grid): BlockPlan[][] {
  const rows = grid.rows.length;
  const cols = grid.cols.length;
  const m = grid.mainStreet;
  const cc = grid.centreCol;
  const k = Math.max(1, Math.round(cols * 0.12));
  const onMain = (r: number) => r === m - 1 || r === m;
  const isCentre = (r: number, j: number) => onMain(r) && Math.abs(j - cc) <= k;
  const isMixed = (r: number, j: number) =>
    ((r === m - 2 || r === m + 1) && Math.abs(j - cc) <= k) || (onMain(r) && Math.abs(j - cc) === k + 1);
  const deferredAt = spec.deferredBlock
    ? { r: m + 2 < rows ? m + 2 : Math.max(0, m - 3), j: Math.min(cols - 1, cc + k + 2) }
    : null;
  const isDeferred = (r: number, j: number) => deferredAt !== null && deferredAt.r === r && deferredAt.j === j;
  const fallbackPark = { r: Math.max(0, m - 3), j: Math.max(0, cc - k - 1) };

  const roles: ZoneRole[][] = [];
  let parks = 0;
  for (let r = 0; r < rows; r++) {
    const row: ZoneRole[] = [];
    for (let j = 0; j < cols; j++) {
      let role: ZoneRole;
      if (isCentre(r, j)) role = 'centre';
      else if (isMixed(r, j)) role = 'mixed';
      else if (!isDeferred(r, j) && rng.chance(PARK_SHARE)) role = rng.chance(0.35) ? 'sport' : 'park';
      else role = residentialRole(rng, spec, grid, r, j);
      if (role === 'park' || role === 'sport') parks += 1;
      row.push(role);
    }
    roles.push(row);
  }
  // every suburb has at least one park, so every zone family appears at the default size
  if (parks === 0 && !isCentre(fallbackPark.r, fallbackPark.j)) at(roles, fallbackPark.r)[fallbackPark.j] = 'park';

  return roles.map((row, r) =>
    row.map((role, j): BlockPlan => {
      const use: BlockUse =
        role === 'centre' ? 'commercial' : role === 'park' || role === 'sport' ? 'park' : 'residential';
      const deferred = isDeferred(r, j);
      return {
        use,
        zone: deferred ? null : zoneCode(spec.planning, role),
        shopfront: use === 'commercial' ? (r === m - 1 ? 'top' : 'bottom') : null,
        largeLots: role === 'fringe',
        deferred,
      };
    }),
  );
}

function residentialRole(rng: Rng, spec: SuburbSpec, grid: Grid, r: number, j: number): ZoneRole {
  const { bounds } = grid;
  const col = at(grid.cols, j);
  const row = at(grid.rows, r);
  const u = (col.u0 + col.u1) / 2;
  const v = (row.v0 + row.v1) / 2;
  const d = Math.max(Math.abs(u) / bounds.uMax, Math.abs(v) / bounds.vMax) + rng.range(-0.1, 0.1);
  const outerRing = r === 0 || j === 0 || r === grid.rows.length - 1 || j === grid.cols.length - 1;
  if (spec.fringe && outerRing) return 'fringe';
  if (d < 0.3) return 'inner';
  if (d < 0.62) return 'middle';
  return 'outer';
}
