import { readFileSync } from 'node:fs';
import type { ArcGisTestServer, FixtureFeature } from './arcgis-server.ts';
import { startArcGisServer } from './arcgis-server.ts';
import type { WfsTestServer } from './wfs-server.ts';
import { startWfsServer } from './wfs-server.ts';

/**
 * The live planning services the planning tests talk to: Vicmap Planning over WFS (the real
 * Greater Bendigo DCPO overlays beside two zones) and the NSW Land Zoning layer over ArcGIS REST.
 */
export const square = (lng: number, lat: number, half: number) => ({
  type: 'Polygon' as const,
  coordinates: [
    [
      [lng - half, lat - half],
      [lng + half, lat - half],
      [lng + half, lat + half],
      [lng - half, lat + half],
      [lng - half, lat - half],
    ],
  ],
});

/** Inside the real DCPO2 overlay of Greater Bendigo (Vicmap Planning, data/samples). */
export const BENDIGO = { lng: 144.355, lat: -36.6623 };
export const SYDNEY = { lng: 151.2, lat: -33.87 };
export const DCPO = JSON.parse(
  readFileSync(
    new URL(
      '../../data/samples/vicmap-planning-bendigo/vicmap_planning_overlay_DCPO_greater_bendigo.geojson',
      import.meta.url,
    ),
    'utf8',
  ),
) as { features: FixtureFeature[] };

/** Zones in the attribute names of the state's GeoServer (lower case), side by side. */
export const vicZone = (code: string, description: string, lng: number): FixtureFeature => ({
  geometry: square(lng, BENDIGO.lat, 0.001),
  properties: {
    zone_code: code,
    zone_description: description,
    scheme_code: code.replace(/\d+$/, ''),
    lga_code: '325',
    lga: 'GREATER BENDIGO',
  },
});
export const nswZone = (code: string, laYClass: string, half: number): FixtureFeature => ({
  geometry: square(SYDNEY.lng, SYDNEY.lat, half),
  properties: {
    SYM_CODE: code,
    LAY_CLASS: laYClass,
    EPI_NAME: 'Sydney Local Environmental Plan 2012',
    LGA_NAME: 'SYDNEY',
  },
});

export async function startPlanningServices(): Promise<{ wfs: WfsTestServer; arcgis: ArcGisTestServer }> {
  const wfs = await startWfsServer({
    'open-data-platform:plan_zone': {
      features: [
        vicZone('MUZ', 'MIXED USE ZONE', BENDIGO.lng),
        vicZone('GRZ1', 'GENERAL RESIDENTIAL ZONE - SCHEDULE 1', BENDIGO.lng + 0.002),
      ],
    },
    'open-data-platform:plan_overlay': { features: DCPO.features },
    'test:crowded': {
      maxFeatures: 2,
      features: [1, 2, 3, 4, 5].map((i) => vicZone(`GRZ${i}`, `GENERAL RESIDENTIAL ZONE - SCHEDULE ${i}`, BENDIGO.lng)),
    },
  });
  const arcgis = await startArcGisServer({
    'Planning/EPI_Primary_Planning_Layers': {
      features: [nswZone('R2', 'Low Density Residential', 0.001), nswZone('RE1', 'Public Recreation', 0.0005)],
    },
    // More zones at one point than a page holds: ArcGIS pages at its maxRecordCount of 1000.
    'Planning/Crowded': {
      features: Array.from({ length: 1001 }, (_v, i) => nswZone(`Z${i}`, `Zone ${i}`, 0.0001 * (i + 1))),
    },
  });
  return { wfs, arcgis };
}
