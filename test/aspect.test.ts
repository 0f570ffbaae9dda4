import { describe, expect, it } from 'vitest';
import type { LngLat } from '../core/aspect.ts';
import { bearingFromText, COMPASS_16, compassOf, deriveAspect, frontToRearBearing } from '../core/aspect.ts';

/**
 * A lot drawn on the ground: a frontage `width` metres wide on the road, running `depth` metres
 * back in the direction `bearing` (degrees clockwise from north), at a point in Huntly.
 */
function drawnLot(bearing: number, width = 14, depth = 30, origin: LngLat = [144.331, -36.663]) {
  const rad = (bearing * Math.PI) / 180;
  const back: [number, number] = [Math.sin(rad), Math.cos(rad)];
  const side: [number, number] = [Math.cos(rad), -Math.sin(rad)];
  const k = Math.cos((origin[1] * Math.PI) / 180);
  const at = (s: number, d: number): LngLat => [
    origin[0] + (s * side[0] + d * back[0]) / (111_320 * k),
    origin[1] + (s * side[1] + d * back[1]) / 110_574,
  ];
  const frontage: [LngLat, LngLat] = [at(-width / 2, 0), at(width / 2, 0)];
  const polygon: LngLat[] = [frontage[0], frontage[1], at(width / 2, depth), at(-width / 2, depth), frontage[0]];
  return { polygon, frontage };
}

describe('aspect: the front-to-rear direction of a lot', () => {
  it('gives each of the 16 compass points for a lot drawn running back in that direction', () => {
    for (const [i, code] of COMPASS_16.entries()) {
      const lot = drawnLot(i * 22.5);
      expect(deriveAspect(lot)).toEqual({ aspect: code, aspect_source: 'geometry' });
      // the answer does not hang on which way round the edge or the ring was drawn
      const reversed = { polygon: [...lot.polygon].reverse(), frontage: [lot.frontage[1], lot.frontage[0]] as const };
      expect(deriveAspect(reversed)).toEqual({ aspect: code, aspect_source: 'geometry' });
      // nor on the lot's shape: a wide shallow lot and a slightly skewed street bearing round to the same point
      expect(deriveAspect(drawnLot(i * 22.5 + 9, 30, 12)).aspect).toBe(code);
      expect(deriveAspect(drawnLot(i * 22.5 - 9)).aspect).toBe(code);
    }
  });

  it('says N when the rear yard faces north (the lot runs back northwards from a road on its south side)', () => {
    const lot = drawnLot(0);
    expect(frontToRearBearing(lot.polygon, lot.frontage)).toBeCloseTo(0, 1);
    expect(deriveAspect(drawnLot(180)).aspect).toBe('S');
    expect(deriveAspect(drawnLot(90)).aspect).toBe('E');
  });

  it('rounds bearings to the nearest of the 16 points', () => {
    expect(compassOf(0)).toBe('N');
    expect(compassOf(11)).toBe('N');
    expect(compassOf(12)).toBe('NNE');
    expect(compassOf(359)).toBe('N');
    expect(compassOf(-90)).toBe('W');
    expect(compassOf(202.5)).toBe('SSW');
  });

  it('uses the plan north point when the lot is not drawn on the ground', () => {
    // drawn running to the top of the sheet, the north point turned 90 degrees clockwise: the lot runs west
    expect(deriveAspect({ plan: { front_to_rear_deg: 0, north_point_deg: 90 } })).toEqual({
      aspect: 'W',
      aspect_source: 'plan-compass',
    });
    expect(deriveAspect({ plan: { front_to_rear_deg: 180, north_point_deg: 0 } }).aspect).toBe('S');
    for (const [i, code] of COMPASS_16.entries()) {
      expect(deriveAspect({ plan: { front_to_rear_deg: i * 22.5 + 45, north_point_deg: 45 } }).aspect).toBe(code);
    }
  });

  it('flips what a listing says the frontage faces; keeps what it says the rear faces', () => {
    expect(deriveAspect({ text: 'Stunning north-facing frontage' })).toEqual({
      aspect: 'S',
      aspect_source: 'text-flip',
    });
    expect(deriveAspect({ text: 'The block faces east.' }).aspect).toBe('W');
    expect(deriveAspect({ text: 'North-facing backyard, close to schools' })).toEqual({
      aspect: 'N',
      aspect_source: 'text-flip',
    });
    expect(deriveAspect({ text: 'Backyard faces south-west' }).aspect).toBe('SW');
    expect(bearingFromText('north to the rear')).toBe(0);
    expect(bearingFromText('Level lot, ready to build.')).toBeNull();
  });

  it('prefers the drawing over the plan and the plan over the words', () => {
    const lot = drawnLot(90);
    const plan = { front_to_rear_deg: 0, north_point_deg: 0 };
    expect(deriveAspect({ ...lot, plan, text: 'north-facing backyard' })).toEqual({
      aspect: 'E',
      aspect_source: 'geometry',
    });
    expect(deriveAspect({ plan, text: 'south-facing backyard' })).toEqual({
      aspect: 'N',
      aspect_source: 'plan-compass',
    });
  });

  it('gives null for both when nothing says, or the drawing cannot (a frontage of no length, a flat ring)', () => {
    const none = { aspect: null, aspect_source: null };
    expect(deriveAspect({})).toEqual(none);
    expect(deriveAspect({ text: 'Level lot, ready to build.' })).toEqual(none);
    const lot = drawnLot(45);
    expect(deriveAspect({ polygon: lot.polygon, frontage: [lot.frontage[0], lot.frontage[0]] })).toEqual(none);
    expect(deriveAspect({ polygon: [lot.frontage[0], lot.frontage[1]], frontage: lot.frontage })).toEqual(none);
    expect(deriveAspect({ plan: { front_to_rear_deg: Number.NaN, north_point_deg: 0 } })).toEqual(none);
  });
});
