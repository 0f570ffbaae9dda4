/**
 * Road centrelines in the shape of Vicmap Transport's road network: one segment per street per
 * block, intersection to intersection, along the middle of the road reserve the grid leaves
 * between blocks, so a centreline never touches a parcel and a parcel's front boundary is the
 * one facing the nearest centreline. Each segment carries the name its addresses use.
 */
import { streetLabel } from './addresses.ts';
import { at } from './arrays.ts';
import type { Frame } from './geometry.ts';
import type { Grid } from './grid.ts';
import type { RoadClass, RoadRow } from './rows.ts';
import type { Street, StreetNetwork } from './streets.ts';
import type { SuburbSpec } from './suburbs.ts';

const ARTERIAL_TYPES: ReadonlySet<string> = new Set(['HIGHWAY', 'FREEWAY', 'MOTORWAY']);
// Collectors every fourth through street (about 400 m apart) and every third cross street
// (about 600 m), counted from the main street and the centre, as suburban collectors are spaced.
const THROUGH_COLLECTOR_EVERY = 4;
const CROSS_COLLECTOR_EVERY = 3;

/**
 * Arterial: the main street and highways. Collector: the perimeter roads and the regularly
 * spaced through routes. Local: every other street.
 */
export function roadClass(grid: Grid, street: Street): RoadClass {
  if (street.axis === 'through' && street.line === grid.mainStreet) return 'arterial';
  if (ARTERIAL_TYPES.has(street.type)) return 'arterial';
  const lines = street.axis === 'through' ? grid.streetCentres.length : grid.crossCentres.length;
  if (street.line === 0 || street.line === lines - 1) return 'collector';
  const spaced =
    street.axis === 'through'
      ? Math.abs(street.line - grid.mainStreet) % THROUGH_COLLECTOR_EVERY === 0
      : Math.abs(street.line - grid.centreCol) % CROSS_COLLECTOR_EVERY === 0;
  return spaced ? 'collector' : 'local';
}

const pad = (n: number) => String(n).padStart(3, '0');

export interface RoadContext {
  readonly spec: SuburbSpec;
  readonly grid: Grid;
  readonly frame: Frame;
  readonly streets: StreetNetwork;
}

function row(ctx: RoadContext, id: string, street: Street, wkt: string): RoadRow {
  return {
    id: `${ctx.spec.key}-road-${id}`,
    state: ctx.spec.state,
    road_name: streetLabel(street),
    road_class: roadClass(ctx.grid, street),
    wkt,
  };
}

/**
 * The segments that close block row `r` from below: through street `r` across every block, and
 * (for r below the last row line) each cross street's segment beside block row `r`. Called for
 * r = 0 to rows, it yields every segment once, a row at a time, so a suburb streams.
 */
export function roadRows(ctx: RoadContext, r: number): RoadRow[] {
  const { grid, frame, streets } = ctx;
  const out: RoadRow[] = [];
  const v = at(grid.streetCentres, r);
  grid.cols.forEach((_, j) => {
    const path = [
      [at(grid.crossCentres, j), v],
      [at(grid.crossCentres, j + 1), v],
    ] as const;
    out.push(row(ctx, `t${pad(r)}-${pad(j)}`, streets.at('through', r, j), frame.lineString(path)));
  });
  if (r >= grid.rows.length) return out;
  const v1 = at(grid.streetCentres, r + 1);
  grid.crossCentres.forEach((u, k) => {
    const path = [
      [u, v],
      [u, v1],
    ] as const;
    out.push(row(ctx, `c${pad(k)}-${pad(r)}`, streets.at('cross', k, r), frame.lineString(path)));
  });
  return out;
}
