/**
 * A handful of real rows from the loaded sandbox, picked to show every case a demo or a test
 * wants: each state with every layer present, a unit, a shop with a number range, a parcel
 * outside planning coverage (and the land layers' coverage), one inside coverage but in a
 * deferred (unzoned) block, an address G-NAF could geocode only to its street, and a parcel
 * with an easement, a building footprint and a land value, one with development applications,
 * a Victorian lot with SPEAR applications, and the address nearest a land-supply estate selling
 * lots (with that estate's id).
 */
import type { Database } from '../../core/db.ts';
import { SANDBOX_DATASET } from './generate.ts';

export interface SandboxSample {
  gnaf_pid: string;
  address: string;
  lat: number;
  lng: number;
  state: string;
  parcel_pfi: string | null;
  /** Land-supply cases only: the estate selling lots nearest the address (`/v1/land-supply/estate/{estateId}`). */
  estate_id?: string;
  note: string;
}

const ON_PARCEL = `EXISTS (SELECT 1 FROM cadastre.parcel p
  WHERE p.dataset = a.dataset AND p.state = a.state AND p.parcel_pfi = a.parcel_pfi AND ST_Contains(p.geom, a.geom))`;
const ZONED = 'EXISTS (SELECT 1 FROM planning.zone z WHERE z.dataset = a.dataset AND ST_Intersects(z.geom, a.geom))';
const OVERLAID =
  'EXISTS (SELECT 1 FROM planning.overlay o WHERE o.dataset = a.dataset AND ST_Intersects(o.geom, a.geom))';
const PLANNING_COVERED =
  'EXISTS (SELECT 1 FROM planning.coverage c WHERE c.dataset = a.dataset AND ST_Intersects(c.geom, a.geom))';
// Soil is read over the whole parcel, so these test the parcel's boundary, not the address point.
const PARCEL_SOIL = (test: string) => `EXISTS (SELECT 1 FROM cadastre.parcel p
  WHERE p.dataset = a.dataset AND p.state = a.state AND p.parcel_pfi = a.parcel_pfi AND ${test})`;
const SOIL_PROBLEM = PARCEL_SOIL(`EXISTS (SELECT 1 FROM soil.polygon s
  WHERE s.dataset = p.dataset AND s.reactivity = 'problem' AND ST_Intersects(s.geom, p.geom))`);
const SOIL_UNMAPPED = PARCEL_SOIL(`EXISTS (SELECT 1 FROM soil.coverage c
  WHERE c.dataset = p.dataset AND ST_Intersects(c.geom, p.geom)) AND NOT EXISTS (SELECT 1 FROM soil.polygon s
  WHERE s.dataset = p.dataset AND ST_Intersects(s.geom, p.geom))`);
const SOIL_UNCOVERED = PARCEL_SOIL(`NOT EXISTS (SELECT 1 FROM soil.coverage c
  WHERE c.dataset = p.dataset AND ST_Intersects(c.geom, p.geom))`);
const LAND = `EXISTS (SELECT 1 FROM land.easement e WHERE e.dataset = a.dataset AND e.state = a.state AND e.parcel_pfi = a.parcel_pfi)
  AND EXISTS (SELECT 1 FROM land.land_value v WHERE v.dataset = a.dataset AND v.state = a.state AND v.parcel_pfi = a.parcel_pfi)
  AND EXISTS (SELECT 1 FROM cadastre.parcel p JOIN land.building_footprint b ON b.dataset = p.dataset AND b.state = p.state
    AND ST_Intersects(p.geom, ST_PointOnSurface(b.geom))
    WHERE p.dataset = a.dataset AND p.state = a.state AND p.parcel_pfi = a.parcel_pfi)`;
const inHazard = (kind: string) =>
  `EXISTS (SELECT 1 FROM hazards.overlay h WHERE h.dataset = a.dataset AND h.kind = '${kind}' AND ST_Intersects(h.geom, a.geom))`;
const hazardMapped = (kind: string) =>
  `EXISTS (SELECT 1 FROM hazards.coverage h WHERE h.dataset = a.dataset AND h.kind = '${kind}' AND ST_Intersects(h.geom, a.geom))`;
const HAZARD_CLEAR = `${hazardMapped('flood')} AND ${hazardMapped('bushfire')} AND ${hazardMapped('contamination')}
  AND NOT EXISTS (SELECT 1 FROM hazards.overlay h WHERE h.dataset = a.dataset AND ST_Intersects(h.geom, a.geom))
  AND NOT EXISTS (SELECT 1 FROM hazards.vegetation v WHERE v.dataset = a.dataset
    AND ST_DWithin(v.geom::geography, a.geom::geography, 100))
  AND NOT EXISTS (SELECT 1 FROM hazards.contamination_site s WHERE s.dataset = a.dataset
    AND ST_DWithin(s.geom::geography, a.geom::geography, 200))`;
const SINGLE =
  "a.geocode_type = 'PC' AND a.flat_type_code IS NULL AND a.number_first IS NOT NULL AND a.number_last IS NULL";
const SPEAR_ON_LOT = `EXISTS (SELECT 1 FROM development.spear_application s
  WHERE s.dataset = a.dataset AND a.parcel_pfi = ANY (s.parcel_pfis))`;
// A selling estate with a lot available now, and the single-dwelling address on its parcel nearest it
// (uncorrelated, `$1` the dataset and `$2` the state, so it is computed once, not per address).
const SELLING_ESTATE = `e.status = 'selling' AND EXISTS (SELECT 1 FROM supply.lot l
  WHERE l.dataset = e.dataset AND l.estate_id = e.estate_id AND l.sales_status = 'available')`;
const NEAREST_SELLING_ESTATE = `a.gnaf_pid IN (SELECT n.gnaf_pid FROM supply.estate e
  CROSS JOIN LATERAL (SELECT b.gnaf_pid FROM address.address_detail b
    WHERE b.dataset = e.dataset AND b.state = e.state AND b.geocode_type = 'PC' AND b.flat_type_code IS NULL
      AND b.number_first IS NOT NULL AND b.number_last IS NULL AND EXISTS (SELECT 1 FROM cadastre.parcel p
        WHERE p.dataset = b.dataset AND p.state = b.state AND p.parcel_pfi = b.parcel_pfi AND ST_Contains(p.geom, b.geom))
    ORDER BY b.geom <-> e.geom LIMIT 1) n
  WHERE e.dataset = $1 AND e.state = $2 AND ${SELLING_ESTATE})`;
const ESTATE_ID = `(SELECT e.estate_id FROM supply.estate e WHERE e.dataset = a.dataset AND e.state = a.state
  AND ${SELLING_ESTATE} ORDER BY e.geom <-> a.geom, e.estate_id LIMIT 1)`;

// In the order promised: the first `limit` found are returned. `$2` is a state where one is named;
// `estate` adds the estate_id of the selling estate nearest the address.
const CASES: ReadonlyArray<{ note: string; where: string; state?: string; estate?: true }> = [
  { note: 'all layers present (VIC)', state: 'VIC', where: `${SINGLE} AND ${ON_PARCEL} AND ${ZONED} AND ${OVERLAID}` },
  { note: 'all layers present (NSW)', state: 'NSW', where: `${SINGLE} AND ${ON_PARCEL} AND ${ZONED} AND ${OVERLAID}` },
  { note: 'all layers present (QLD)', state: 'QLD', where: `${SINGLE} AND ${ON_PARCEL} AND ${ZONED} AND ${OVERLAID}` },
  { note: 'unit in a multi-unit parcel', where: `a.flat_type_code = 'UNIT' AND ${ON_PARCEL} AND ${ZONED}` },
  { note: 'planning not covered', where: `${SINGLE} AND ${ON_PARCEL} AND NOT ${PLANNING_COVERED}` },
  {
    note: 'planning no data (deferred block inside coverage)',
    where: `${SINGLE} AND ${ON_PARCEL} AND ${PLANNING_COVERED} AND NOT ${ZONED}`,
  },
  { note: 'shop with a number range', where: `a.number_last IS NOT NULL AND ${ON_PARCEL}` },
  { note: 'street-level geocode only, no parcel', where: "a.geocode_type = 'STL' AND a.parcel_pfi IS NULL" },
  {
    note: 'lot number only, no house number',
    where: `a.number_first IS NULL AND a.lot_number IS NOT NULL AND ${ON_PARCEL}`,
  },
  { note: 'frontage setback geocode', where: `a.geocode_type = 'FCS' AND ${ON_PARCEL}` },
  { note: 'soil problem site (indicative class P)', where: `${SINGLE} AND ${ON_PARCEL} AND ${SOIL_PROBLEM}` },
  { note: 'soil no data (unmapped strip inside coverage)', where: `${SINGLE} AND ${ON_PARCEL} AND ${SOIL_UNMAPPED}` },
  { note: 'soil not covered', where: `${SINGLE} AND ${ON_PARCEL} AND ${SOIL_UNCOVERED}` },
  // past the default eight: `sandboxSamples(db, limit)` with a larger limit lists them
  {
    note: 'easement, building footprint and land value on the parcel (VIC)',
    state: 'VIC',
    where: `${SINGLE} AND ${ON_PARCEL} AND ${LAND}`,
  },
  {
    note: 'hazards: flood overlay found (VIC)',
    state: 'VIC',
    where: `${SINGLE} AND ${ON_PARCEL} AND ${inHazard('flood')}`,
  },
  {
    note: 'hazards: bushfire overlay found (QLD)',
    state: 'QLD',
    where: `${SINGLE} AND ${ON_PARCEL} AND ${inHazard('bushfire')}`,
  },
  {
    note: 'hazards: every hazard checked and clear',
    state: 'VIC',
    where: `${SINGLE} AND ${ON_PARCEL} AND ${HAZARD_CLEAR}`,
  },
  {
    note: 'hazards: contamination not mapped',
    where: `${SINGLE} AND ${ON_PARCEL} AND ${hazardMapped('flood')} AND NOT ${hazardMapped('contamination')}`,
  },
  {
    note: 'hazards: flood not mapped',
    where: `${SINGLE} AND ${ON_PARCEL} AND ${hazardMapped('bushfire')} AND NOT ${hazardMapped('flood')}`,
  },
  {
    note: 'development applications on the parcel (NSW)',
    state: 'NSW',
    where: `${SINGLE} AND ${ON_PARCEL} AND EXISTS (SELECT 1 FROM development.application d
      WHERE d.dataset = a.dataset AND d.state = a.state AND d.parcel_pfi = a.parcel_pfi)`,
  },
  {
    note: 'hazards not covered',
    where: `${SINGLE} AND ${ON_PARCEL} AND NOT EXISTS (SELECT 1 FROM hazards.coverage h
      WHERE h.dataset = a.dataset AND ST_Intersects(h.geom, a.geom))`,
  },
  {
    note: 'SPEAR applications on the lot (VIC)',
    state: 'VIC',
    where: `${SINGLE} AND ${ON_PARCEL} AND ${SPEAR_ON_LOT}`,
  },
  {
    note: 'land supply: the address nearest an estate selling lots (VIC)',
    state: 'VIC',
    where: NEAREST_SELLING_ESTATE,
    estate: true,
  },
  {
    note: 'land supply: the address nearest an estate selling lots (QLD)',
    state: 'QLD',
    where: NEAREST_SELLING_ESTATE,
    estate: true,
  },
];

/** Every case above: what `landgraph sandbox samples` lists (the default keeps the first eight). */
export const ALL_SAMPLE_CASES = CASES.length;

/**
 * The first `limit` cases found in the loaded sandbox, in the order above; `only`, when given,
 * keeps to the cases whose note starts with one of its prefixes (each case is a search of the
 * sandbox, some of them seconds on the embedded database under load).
 */
export async function sandboxSamples(db: Database, limit = 8, only?: readonly string[]): Promise<SandboxSample[]> {
  const samples: SandboxSample[] = [];
  for (const c of CASES) {
    if (samples.length >= limit) break;
    if (only && !only.some((prefix) => c.note.startsWith(prefix))) continue;
    const params: unknown[] = c.state ? [SANDBOX_DATASET, c.state] : [SANDBOX_DATASET];
    const [row] = await db.query<Omit<SandboxSample, 'note'>>(
      `SELECT a.gnaf_pid, a.formatted_address AS address, ST_Y(a.geom) AS lat, ST_X(a.geom) AS lng, a.state, a.parcel_pfi${
        c.estate ? `, ${ESTATE_ID} AS estate_id` : ''
      }
FROM address.address_detail a
WHERE a.dataset = $1 ${c.state ? 'AND a.state = $2' : ''} AND ${c.where}
ORDER BY a.gnaf_pid
LIMIT 1`,
      params,
    );
    if (row) samples.push({ ...row, lat: Number(row.lat), lng: Number(row.lng), note: c.note });
  }
  return samples;
}
