/**
 * Urban growth boundaries in Vicmap Planning's UGB layout (Victoria only). The boundary runs
 * along road centrelines, as real ones usually follow roads: around a fringe town it takes in
 * the town but not its rural-edge ring of large lots, so parcels stand both inside and outside;
 * around an established suburb it takes in the whole urban area.
 */
import { at } from './arrays.ts';
import type { Frame } from './geometry.ts';
import { rectRing } from './geometry.ts';
import type { Grid } from './grid.ts';
import { coverageRing } from './planning.ts';
import type { UgbRow } from './rows.ts';
import type { SuburbSpec } from './suburbs.ts';

/** Inside the ring road that separates the outer ring of blocks (the rural fringe) from the town. */
function excludingFringe(grid: Grid) {
  const { crossCentres, streetCentres } = grid;
  return rectRing(
    at(crossCentres, 1),
    at(crossCentres, crossCentres.length - 2),
    at(streetCentres, 1),
    at(streetCentres, streetCentres.length - 2),
    crossCentres,
    crossCentres,
  );
}

export function ugbRow(spec: SuburbSpec, grid: Grid, frame: Frame): UgbRow | null {
  if (!spec.ugb) return null;
  const ring = spec.ugb === 'whole' ? coverageRing(grid) : excludingFringe(grid);
  return {
    id: `${spec.key}-ugb`,
    state: spec.state,
    lga_code: spec.lga.code,
    lga_name: spec.lga.name,
    // the Growth Areas Infrastructure Contribution applies only in Melbourne's growth areas
    gaic_applies: false,
    wkt: frame.polygon(ring).wkt,
  };
}
