import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { cutBundle, keepInBundle, landgraphPostgis, tarEntries } from '../core/postgis-bundle.ts';

const published = join(
  dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite-postgis')),
  'postgis.tar.gz',
);

describe('the cut PostGIS bundle of the embedded database', () => {
  it('keeps postgis, its install script and PROJ, and drops raster, topology and the upgrade scripts', () => {
    const original = readFileSync(published);
    const names = tarEntries(gunzipSync(cutBundle(original, (name) => keepInBundle(name, '3.6.2')))).map((e) => e.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'lib/postgresql/postgis-3.so',
        'share/postgresql/extension/postgis.control',
        'share/postgresql/extension/postgis--3.6.2.sql',
        'share/proj/proj.db',
      ]),
    );
    expect(names.filter((n) => n.endsWith('.so'))).toEqual(['lib/postgresql/postgis-3.so']);
    expect(names.filter((n) => /raster|topology|tiger|--ANY/.test(n))).toEqual([]);
  });

  it('a fresh database creates the extension, transforms between datums and offers nothing else', async () => {
    const db = await PGlite.create({ extensions: { postgis: await landgraphPostgis() } });
    try {
      await db.exec('CREATE EXTENSION postgis');
      const [vicgrid] = (
        await db.query<{ x: number; y: number }>(
          'SELECT round(ST_X(p))::int AS x, round(ST_Y(p))::int AS y FROM ST_Transform(ST_SetSRID(ST_MakePoint(144.9631, -37.8136), 4326), 3111) AS p',
        )
      ).rows;
      // Melbourne's GPO in VicGrid94 (EPSG:3111): only right when PROJ's data came with the bundle
      expect(vicgrid).toEqual({ x: 2496751, y: 2409712 });
      const [distance] = (
        await db.query<{ m: number }>(
          "SELECT round(ST_Distance('POINT(144.9631 -37.8136)'::geography, 'POINT(144.9631 -37.8236)'::geography))::int AS m",
        )
      ).rows;
      expect(distance?.m).toBe(1110);
      const available = (
        await db.query<{ name: string }>("SELECT name FROM pg_available_extensions WHERE name LIKE 'postgis%'")
      ).rows;
      expect(available.map((r) => r.name)).toEqual(['postgis']);
    } finally {
      await db.close();
    }
    // a fresh PGlite compiles PostGIS's install script: about 20 s alone, more on a busy machine
  }, 120_000);
});
