/** Australian states and territories, with the G-NAF code for each. */
export const STATES = ['NSW', 'VIC', 'QLD', 'SA', 'WA', 'TAS', 'NT', 'ACT', 'OT'] as const;
export type StateCode = (typeof STATES)[number];

export function isStateCode(value: string): value is StateCode {
  return (STATES as readonly string[]).includes(value);
}

type Box = { west: number; south: number; east: number; north: number };

// The mainland with Tasmania and the Torres Strait, plus the external territories G-NAF
// addresses (Christmas, Cocos, Norfolk, Lord Howe). A point outside all of them is not ours.
const AUSTRALIA: Box[] = [
  { west: 112.5, south: -44.5, east: 154.2, north: -9.0 },
  { west: 105.5, south: -10.6, east: 105.8, north: -10.3 },
  { west: 96.7, south: -12.3, east: 97.0, north: -11.8 },
  { west: 167.8, south: -29.2, east: 168.1, north: -28.9 },
  { west: 159.0, south: -31.7, east: 159.2, north: -31.4 },
];

const inside = (box: Box, lng: number, lat: number) =>
  lng >= box.west && lng <= box.east && lat >= box.south && lat <= box.north;

export function isInAustralia(lng: number, lat: number): boolean {
  return AUSTRALIA.some((box) => inside(box, lng, lat));
}

export type BBox = { west: number; south: number; east: number; north: number };

// Rough state borders, enough to pick the state of a point when the caller gives none; the
// caller's `state` always wins. The NSW/VIC line follows the Murray through its towns, the
// others are the surveyed meridians and parallels.
const MURRAY: Array<[number, number]> = [
  [141.0, -34.0],
  [142.16, -34.19],
  [143.55, -35.34],
  [144.75, -36.13],
  [146.92, -36.08],
  [148.2, -36.8],
  [149.98, -37.5],
];

const QLD_NSW: Array<[number, number]> = [
  [141.0, -29.0],
  [148.9, -29.0],
  [150.3, -28.55],
  [151.17, -28.85],
  [151.93, -28.92],
  [152.5, -28.3],
  [153.7, -28.17],
];

/** Latitude of a west-to-east border line at a longitude (undefined beyond its ends). */
function borderLatitude(line: Array<[number, number]>, lng: number): number | undefined {
  for (let i = 1; i < line.length; i += 1) {
    const [x0, y0] = line[i - 1]!;
    const [x1, y1] = line[i]!;
    if (lng >= x0 && lng <= x1) return y0 + ((y1 - y0) * (lng - x0)) / (x1 - x0);
  }
  return undefined;
}

export function detectState(lng: number, lat: number): StateCode | undefined {
  if (!isInAustralia(lng, lat)) return undefined;
  if (lng < 112) return 'OT';
  if (lng > 159) return lng > 167 ? 'OT' : 'NSW';
  if (lat < -39.2) return 'TAS';
  if (lng < 129) return 'WA';
  if (lng < 138) return lat > -26 ? 'NT' : 'SA';
  if (lng < 141) return lat > -26 ? 'QLD' : 'SA';
  if (lat > (borderLatitude(QLD_NSW, lng) ?? -28.17)) return 'QLD';
  if (lng >= 148.76 && lng <= 149.4 && lat >= -35.93 && lat <= -35.12) return 'ACT';
  return lat < (borderLatitude(MURRAY, lng) ?? -37.5) ? 'VIC' : 'NSW';
}

/** A decimal as digits × 10^-scale, so sums and differences are exact. */
type Decimal = { digits: bigint; scale: number };

/**
 * The decimal a caller typed for a coordinate. `String(n)` is the shortest text that reads back
 * as the same double, which for anything typed with up to 15 significant digits is what was typed.
 */
function decimalOf(value: number): Decimal {
  const [mantissa = '0', exponent = '0'] = String(value).toLowerCase().split('e');
  const [whole = '0', fraction = ''] = mantissa.split('.');
  const scale = fraction.length - Number(exponent);
  const digits = BigInt(`${whole}${fraction}`);
  return scale >= 0 ? { digits, scale } : { digits: digits * 10n ** BigInt(-scale), scale: 0 };
}

function rescale(value: Decimal, scale: number): bigint {
  return value.digits * 10n ** BigInt(scale - value.scale);
}

function decimalText({ digits, scale }: Decimal): string {
  const sign = digits < 0n ? '-' : '';
  const text = (digits < 0n ? -digits : digits).toString().padStart(scale + 1, '0');
  const whole = text.slice(0, text.length - scale);
  const fraction = text.slice(text.length - scale).replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * `to - from` compared with `limit` on the decimals as typed: binary floating point makes
 * 144.383 - 144.283 come out as 0.10000000000000853, which would refuse a window of exactly the limit.
 */
export function decimalSpan(from: number, to: number, limit: number): { exceeds: boolean; span: string } {
  const [a, b, max] = [decimalOf(from), decimalOf(to), decimalOf(limit)];
  const scale = Math.max(a.scale, b.scale, max.scale);
  const span = rescale(b, scale) - rescale(a, scale);
  return { exceeds: span > rescale(max, scale), span: decimalText({ digits: span, scale }) };
}
