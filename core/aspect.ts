/**
 * A lot's aspect (spec 2.9): the 16-point compass direction from its front boundary to its rear,
 * so N means the rear yard faces north. Derived, in order of trust, from the lot's drawn
 * polygon and the boundary it fronts its road on (`geometry`), from the plan's north point
 * (`plan-compass`), or from what the listing says the frontage faces (`text-flip`: a north-facing
 * frontage puts the rear yard to the south). Pure: the same inputs give the same answer.
 */

export const COMPASS_16 = [
  'N',
  'NNE',
  'NE',
  'ENE',
  'E',
  'ESE',
  'SE',
  'SSE',
  'S',
  'SSW',
  'SW',
  'WSW',
  'W',
  'WNW',
  'NW',
  'NNW',
] as const;
export type Compass16 = (typeof COMPASS_16)[number];
export type AspectSource = 'geometry' | 'plan-compass' | 'text-flip';
export type Aspect = { aspect: Compass16 | null; aspect_source: AspectSource | null };

/** [lng, lat] in WGS84 degrees. */
export type LngLat = readonly [number, number];

export type AspectInputs = {
  /** The lot's outer ring (closed or not). */
  polygon?: readonly LngLat[] | null;
  /** The two ends of the boundary the lot fronts its road on. */
  frontage?: readonly [LngLat, LngLat] | null;
  /**
   * The plan's drawing: the front-to-rear direction of the lot as drawn, and the direction the
   * plan's north point shows, each in degrees clockwise from the top of the sheet.
   */
  plan?: { front_to_rear_deg: number; north_point_deg: number } | null;
  /** The listing's words. */
  text?: string | null;
};

const NONE: Aspect = { aspect: null, aspect_source: null };

/** The 16-point code of a bearing in degrees clockwise from true north. */
export function compassOf(bearingDeg: number): Compass16 {
  const b = ((bearingDeg % 360) + 360) % 360;
  return COMPASS_16[Math.round(b / 22.5) % 16]!;
}

/** Local east/north metres of a point from an origin (an equirectangular view, exact enough for one lot). */
function local(origin: LngLat, p: LngLat): [number, number] {
  const k = Math.cos((origin[1] * Math.PI) / 180);
  return [(p[0] - origin[0]) * 111_320 * k, (p[1] - origin[1]) * 110_574];
}

/**
 * The bearing from the frontage into the lot: the normal of the frontage edge on the side where
 * the lot's area lies (the ring's centroid), so an edge drawn either way round gives one answer.
 */
export function frontToRearBearing(polygon: readonly LngLat[], frontage: readonly [LngLat, LngLat]): number | null {
  const ring = polygon.length > 1 && samePoint(polygon[0]!, polygon.at(-1)!) ? polygon.slice(0, -1) : polygon;
  if (ring.length < 3) return null;
  const origin = frontage[0];
  const [ax, ay] = [0, 0];
  const [bx, by] = local(origin, frontage[1]);
  const length = Math.hypot(bx - ax, by - ay);
  if (!(length > 0.01)) return null;
  const centroid = ringCentroid(ring.map((p) => local(origin, p)));
  if (!centroid) return null;
  // the unit normal of the edge, turned to the side the lot lies on
  let nx = -(by - ay) / length;
  let ny = (bx - ax) / length;
  const side = (centroid[0] - (ax + bx) / 2) * nx + (centroid[1] - (ay + by) / 2) * ny;
  if (Math.abs(side) < 1e-6) return null;
  if (side < 0) [nx, ny] = [-nx, -ny];
  return ((Math.atan2(nx, ny) * 180) / Math.PI + 360) % 360;
}

function samePoint(a: LngLat, b: LngLat): boolean {
  return a[0] === b[0] && a[1] === b[1];
}

function ringCentroid(ring: readonly [number, number][]): [number, number] | null {
  let area = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < ring.length; i++) {
    const [x0, y0] = ring[i]!;
    const [x1, y1] = ring[(i + 1) % ring.length]!;
    const cross = x0 * y1 - x1 * y0;
    area += cross;
    cx += (x0 + x1) * cross;
    cy += (y0 + y1) * cross;
  }
  if (Math.abs(area) < 1e-9) return null;
  return [cx / (3 * area), cy / (3 * area)];
}

const WORD_BEARING: Record<string, number> = {
  north: 0,
  'north-east': 45,
  northeast: 45,
  east: 90,
  'south-east': 135,
  southeast: 135,
  south: 180,
  'south-west': 225,
  southwest: 225,
  west: 270,
  'north-west': 315,
  northwest: 315,
};
const DIRECTION = '(north[- ]?east|north[- ]?west|south[- ]?east|south[- ]?west|north|south|east|west)';
// "north-facing backyard", "rear yard faces north", "north to the rear": the rear, as said
const REAR_PATTERNS = [
  new RegExp(`${DIRECTION}[- ]facing (?:back ?yard|rear(?: yard)?|backyard|garden)`, 'i'),
  new RegExp(`(?:back ?yard|rear(?: yard)?|garden) (?:that )?faces? (?:the )?${DIRECTION}`, 'i'),
  new RegExp(`${DIRECTION} to the (?:rear|back)`, 'i'),
];
// "north-facing frontage", "the block faces east", "east-facing lot": the front, flipped
const FRONT_PATTERNS = [
  new RegExp(`${DIRECTION}[- ]facing (?:frontage|front|block|lot|home ?site|allotment)`, 'i'),
  new RegExp(`(?:frontage|front|block|lot|allotment) (?:that )?faces? (?:the )?${DIRECTION}`, 'i'),
];

function bearingOfWord(word: string): number {
  return WORD_BEARING[
    word
      .toLowerCase()
      .replace(/\s+/g, '-')
      .replace(/^(north|south)(east|west)$/, '$1-$2')
  ]!;
}

/** The front-to-rear bearing a listing's words give, or null when they name no direction of the lot. */
export function bearingFromText(text: string): number | null {
  for (const pattern of REAR_PATTERNS) {
    const m = pattern.exec(text);
    if (m) return bearingOfWord(m[1]!);
  }
  for (const pattern of FRONT_PATTERNS) {
    const m = pattern.exec(text);
    if (m) return (bearingOfWord(m[1]!) + 180) % 360;
  }
  return null;
}

/** The lot's aspect from the best input it has; both null when none says. */
export function deriveAspect(inputs: AspectInputs): Aspect {
  if (inputs.polygon && inputs.frontage) {
    const bearing = frontToRearBearing(inputs.polygon, inputs.frontage);
    if (bearing !== null) return { aspect: compassOf(bearing), aspect_source: 'geometry' };
  }
  const plan = inputs.plan;
  if (plan && Number.isFinite(plan.front_to_rear_deg) && Number.isFinite(plan.north_point_deg)) {
    return { aspect: compassOf(plan.front_to_rear_deg - plan.north_point_deg), aspect_source: 'plan-compass' };
  }
  if (inputs.text) {
    const bearing = bearingFromText(inputs.text);
    if (bearing !== null) return { aspect: compassOf(bearing), aspect_source: 'text-flip' };
  }
  return NONE;
}
