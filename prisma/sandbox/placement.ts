/**
 * Keeps scaled-up suburbs apart. Each suburb's grid is centred on its real locality, which is
 * right at the default size; at benchmark sizes a grid grows to kilometres across and would
 * run into its neighbour (Parramatta and Castle Hill are 9 km apart), stacking two suburbs'
 * parcels on the same ground. Grids that would touch are pushed apart along the line between
 * their centres, just far enough; at the default size none moves.
 */
import { at } from './arrays.ts';
import { Frame } from './geometry.ts';
import type { SuburbPlan } from './suburb.ts';

const GAP_METRES = 500;
const METRES_PER_DEGREE = 111_195;

/** The radius of a circle around the grid's centre that holds all of it, curves included. */
function reach(plan: SuburbPlan): number {
  const { uMin, uMax, vMin, vMax } = plan.grid.bounds;
  return Math.hypot(Math.max(-uMin, uMax) + plan.spec.curveAmplitude, Math.max(-vMin, vMax));
}

export function separateSuburbs(plans: readonly SuburbPlan[]): SuburbPlan[] {
  const centres = plans.map((p) => ({ lat: p.spec.centre.lat, lng: p.spec.centre.lng }));
  // a few passes settle any chain of pushes; pairs are visited in a fixed order, so it is deterministic
  for (let pass = 0; pass < 4; pass++) {
    plans.forEach((a, i) =>
      plans.slice(i + 1).forEach((b, k) => {
        const ca = at(centres, i);
        const cb = at(centres, i + 1 + k);
        const cos = Math.cos((((ca.lat + cb.lat) / 2) * Math.PI) / 180);
        const dx = (cb.lng - ca.lng) * cos * METRES_PER_DEGREE;
        const dy = (cb.lat - ca.lat) * METRES_PER_DEGREE;
        const distance = Math.hypot(dx, dy);
        const push = (reach(a) + reach(b) + GAP_METRES - distance) / 2;
        if (push <= 0 || distance === 0) return;
        const [ux, uy] = [dx / distance, dy / distance];
        ca.lng -= (push * ux) / (cos * METRES_PER_DEGREE);
        ca.lat -= (push * uy) / METRES_PER_DEGREE;
        cb.lng += (push * ux) / (cos * METRES_PER_DEGREE);
        cb.lat += (push * uy) / METRES_PER_DEGREE;
      }),
    );
  }
  return plans.map((plan, i) => {
    const centre = at(centres, i);
    const moved = centre.lat !== plan.spec.centre.lat || centre.lng !== plan.spec.centre.lng;
    return moved ? { ...plan, frame: new Frame(centre, plan.spec.rotationDeg, plan.frame.shear) } : plan;
  });
}
