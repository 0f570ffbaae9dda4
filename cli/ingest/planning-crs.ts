/**
 * The coordinate reference system of a planning file, from a GeoJSON `crs` member or a
 * shapefile's .prj. The tables hold lng/lat (EPSG:4326); WGS 84, GDA94 and GDA2020 agree to
 * within about 1.8 m, less than the planning layers' own capture accuracy, so all three load
 * as they are. Anything projected (MGA, Vicgrid, Web Mercator) is refused by name rather than
 * reprojected: we carry no projection library, and a silent wrong guess would move every
 * polygon by hundreds of kilometres.
 */
import { IngestError } from './gnaf-release.ts';

const LNG_LAT_EPSG: Record<string, string> = {
  '4326': 'WGS 84 (EPSG:4326)',
  '4283': 'GDA94 (EPSG:4283)',
  '7844': 'GDA2020 (EPSG:7844)',
};

// The projected systems Australian planning data is usually published in, for a message
// that names what the user has rather than only its number.
const PROJECTED_EPSG: Record<string, string> = {
  '3111': 'GDA94 / Vicgrid',
  '7899': 'GDA2020 / Vicgrid',
  '3857': 'WGS 84 / Pseudo-Mercator',
  ...Object.fromEntries(
    [49, 50, 51, 52, 53, 54, 55, 56].flatMap((zone) => [
      [String(28300 + zone), `GDA94 / MGA zone ${zone}`],
      [String(7800 + zone), `GDA2020 / MGA zone ${zone}`],
    ]),
  ),
};

const REPROJECT = 'reproject it to longitude/latitude first (e.g. ogr2ogr -t_srs EPSG:7844 out.geojson in.shp)';

function refuseProjected(file: string, name: string): never {
  throw new IngestError(`${file} is in the projected CRS ${name}; ${REPROJECT}`);
}

/** The label of a GeoJSON file's CRS; a file without a `crs` member is RFC 7946 lng/lat. */
export function geoJsonCrs(file: string, crs: unknown): string {
  if (crs === undefined || crs === null) return 'WGS 84 (RFC 7946 default)';
  const name = crsName(crs);
  if (name === undefined) {
    throw new IngestError(`${file} declares a CRS that is not a named one (${JSON.stringify(crs)}); ${REPROJECT}`);
  }
  if (/CRS:?84$/i.test(name)) return 'WGS 84 (CRS84)';
  const epsg = /EPSG(?::+|\/\d+\/)(\d+)$/i.exec(name)?.[1];
  if (epsg && LNG_LAT_EPSG[epsg]) return LNG_LAT_EPSG[epsg];
  if (epsg && PROJECTED_EPSG[epsg]) refuseProjected(file, `EPSG:${epsg} (${PROJECTED_EPSG[epsg]})`);
  throw new IngestError(
    `${file} is in the CRS ${name}, which is not one of CRS84, EPSG:4326, EPSG:4283 or EPSG:7844; ${REPROJECT}`,
  );
}

function crsName(crs: unknown): string | undefined {
  if (typeof crs !== 'object' || crs === null || !('properties' in crs)) return undefined;
  const properties = crs.properties;
  if (typeof properties !== 'object' || properties === null || !('name' in properties)) return undefined;
  return typeof properties.name === 'string' ? properties.name.trim() : undefined;
}

const LNG_LAT_DATUMS = [
  /WGS[\s_]*(19)?84/i,
  /GDA[\s_]*(19)?94/i,
  /GDA[\s_]*2020/i,
  /Geocentric[\s_]+Datum[\s_]+of[\s_]+Australia/i,
];

/** The label of a shapefile's CRS from the WKT (ESRI or OGC, WKT1 or WKT2) of its .prj. */
export function prjCrs(file: string, wkt: string): string {
  const head = /^\s*([A-Z]+)\[\s*"([^"]*)"/i.exec(wkt);
  if (!head) throw new IngestError(`${file} is not a WKT coordinate system (it starts "${wkt.slice(0, 40)}")`);
  const [, kind = '', name = ''] = head;
  if (/^PROJ/i.test(kind)) refuseProjected(file, name);
  if (!/^(GEOGCS|GEOGCRS|GEODCRS|GEOGRAPHICCRS)$/i.test(kind)) {
    throw new IngestError(
      `${file} describes a ${kind} coordinate system (${name}), not longitude/latitude; ${REPROJECT}`,
    );
  }
  const datum = /DATUM\[\s*"([^"]*)"/i.exec(wkt)?.[1] ?? name;
  if (!LNG_LAT_DATUMS.some((pattern) => pattern.test(datum))) {
    throw new IngestError(
      `${file} is longitude/latitude on the datum ${datum}, not WGS 84, GDA94 or GDA2020; ${REPROJECT}`,
    );
  }
  return name;
}

/** Refuses a coordinate that cannot be longitude/latitude: the file is projected whatever it says. */
export function checkLngLat(file: string, crs: string, feature: number, x: number, y: number): void {
  if (Math.abs(x) <= 180 && Math.abs(y) <= 90) return;
  throw new IngestError(
    `${file}: feature ${feature} has the coordinate (${x}, ${y}), which is not longitude/latitude although the file says ${crs}; ${REPROJECT}`,
  );
}
