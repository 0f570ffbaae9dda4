/**
 * National Construction Code climate zones for the sandbox suburbs. The ABCB climate zone map
 * draws its zone boundaries along local government areas, so a zone belongs to a council:
 * each suburb's polygon (its generated area, nothing beyond, so "not covered" exists) carries
 * its council's zone.
 */
import { type Frame } from './geometry.ts';
import type { Grid } from './grid.ts';
import { coverageRing } from './planning.ts';
import type { ClimateZoneRow } from './rows.ts';
import type { SuburbSpec } from './suburbs.ts';

/** NCC climate zone (1 to 8) by council code, with why. */
export const CLIMATE_ZONE_BY_LGA: Readonly<Record<string, { zone: number; why: string }>> = {
  // Greater Bendigo sits with inland northern Victoria (Mildura, Echuca, Shepparton) in zone 4,
  // "hot dry summer, cool winter": the NCC's list of locations gives Bendigo 4, not Melbourne's 6.
  '325': { zone: 4, why: 'Greater Bendigo: hot dry summer, cool winter (inland northern Victoria)' },
  // The NSW Energy Savings Scheme's Table A26 (BCA climate zone by postcode, from the ABCB map)
  // puts postcodes 2150 to 2158, Parramatta and the Hills District, in zone 6; the coastal
  // suburbs east of them are zone 5.
  '16260': { zone: 6, why: 'City of Parramatta: mild temperate (western Sydney)' },
  '17420': { zone: 6, why: 'The Hills Shire: mild temperate (western Sydney)' },
  // South-east Queensland's coastal councils are zone 2, "warm humid summer, mild winter".
  '31000': { zone: 2, why: 'Brisbane City: warm humid summer, mild winter' },
  '35010': { zone: 2, why: 'Moreton Bay: warm humid summer, mild winter' },
};

export function climateZoneOf(spec: SuburbSpec): number {
  const entry = CLIMATE_ZONE_BY_LGA[spec.lga.code];
  if (!entry) throw new Error(`No NCC climate zone for ${spec.lga.name} (${spec.lga.code})`);
  return entry.zone;
}

export function climateZoneRow(spec: SuburbSpec, grid: Grid, frame: Frame): ClimateZoneRow {
  return {
    id: `${spec.key}-climate`,
    state: spec.state,
    climate_zone: climateZoneOf(spec),
    wkt: frame.polygon(coverageRing(grid)).wkt,
  };
}
