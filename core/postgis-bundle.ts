/**
 * The PostGIS extension for the embedded PGlite, cut down to what Landgraph uses.
 *
 * The published bundle carries postgis_raster and postgis_topology besides postgis itself, and
 * PGlite loads every `.so` in a bundle when it opens the database, whether or not any database
 * ever asks for it: on the sandbox that costs about 320 MB of resident memory and two seconds
 * of every start (docs/benchmarks.md). The cut bundle keeps the postgis library, its control
 * file and install script (a fresh data folder runs CREATE EXTENSION) and the PROJ data
 * (ST_Transform and geography casts need it). It is written once per PostGIS package version
 * to a cache folder shared by every data folder.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Extension } from '@electric-sql/pglite';

const BLOCK = 512;

/** The files a Landgraph database needs from the bundle; `version` is the control file's default. */
export function keepInBundle(name: string, version: string): boolean {
  return (
    name === 'lib/postgresql/postgis-3.so' ||
    name.startsWith('share/proj/') ||
    name === 'share/postgresql/extension/postgis.control' ||
    name === `share/postgresql/extension/postgis--${version}.sql`
  );
}

/** One record of a tar: its header block, and its body padded to whole blocks (`size` bytes of it the file's). */
type TarEntry = { name: string; type: string; size: number; header: Buffer; body: Buffer };

const field = (header: Buffer, from: number, to: number) =>
  header.subarray(from, to).toString('utf8').replace(/\0.*$/s, '');

/** The entries of a ustar archive, each with its header and padded body kept byte for byte. */
export function tarEntries(tar: Buffer): TarEntry[] {
  const entries: TarEntry[] = [];
  let offset = 0;
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const prefix = field(header, 345, 500);
    const name = field(header, 0, 100);
    const size = parseInt(field(header, 124, 136).trim() || '0', 8);
    const type = String.fromCharCode(header[156] ?? 0x30);
    // pax and GNU long-name records describe the next entry: a filter would need to follow them
    if (type === 'x' || type === 'g' || type === 'L' || type === 'K')
      throw new Error(`unsupported tar record "${type}" in the PostGIS bundle`);
    const end = offset + BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    entries.push({
      name: prefix ? `${prefix}/${name}` : name,
      type,
      size,
      header,
      body: tar.subarray(offset + BLOCK, end),
    });
    offset = end;
  }
  return entries;
}

/** The archive with only the entries `keep` names (directories always kept); gzip bytes. */
export function cutBundle(gzipped: Buffer, keep: (name: string) => boolean): Buffer {
  const kept = tarEntries(gunzipSync(gzipped)).filter((e) => e.type === '5' || keep(e.name));
  const parts = kept.flatMap((e) => [e.header, e.body]);
  return gzipSync(Buffer.concat([...parts, Buffer.alloc(BLOCK * 2)]), { level: 1 });
}

function packageFile(specifier: string): string {
  return createRequire(import.meta.url).resolve(specifier);
}

/**
 * The clone's .landgraph-cache (gitignored, shared by every data folder and the tests'
 * templates) when it can be written, else the system's temporary folder. The compiled
 * build sits one level deeper, in dist/, and shares the clone's cache.
 */
function cacheDirs(): string[] {
  const here = dirname(dirname(fileURLToPath(import.meta.url)));
  const root = basename(here) === 'dist' ? dirname(here) : here;
  return [join(root, '.landgraph-cache'), join(tmpdir(), 'landgraph-cache')];
}

/** Path of the cut bundle for the installed PostGIS package, written on first use. */
export function cutPostgisBundle(source: string, packageVersion: string): string {
  const name = `postgis-${packageVersion}-landgraph.tar.gz`;
  const cached = cacheDirs()
    .map((dir) => join(dir, name))
    .find((path) => existsSync(path));
  if (cached) return cached;
  const original = readFileSync(source);
  const control = tarEntries(gunzipSync(original)).find((e) => e.name === 'share/postgresql/extension/postgis.control');
  const version = /default_version\s*=\s*'([^']+)'/.exec(control?.body.toString('utf8') ?? '')?.[1];
  if (!version) throw new Error('the PostGIS bundle has no postgis.control with a default_version');
  const bundle = cutBundle(original, (entry) => keepInBundle(entry, version));
  let lastError: unknown;
  for (const dir of cacheDirs()) {
    const target = join(dir, name);
    try {
      mkdirSync(dir, { recursive: true });
      // written aside and renamed, so a process starting alongside never reads half a file
      const partial = `${target}.${process.pid}.partial`;
      writeFileSync(partial, bundle);
      renameSync(partial, target);
      return target;
    } catch (error) {
      lastError = error;
    }
  }
  throw new Error(`could not write the cut PostGIS bundle: ${(lastError as Error).message}`);
}

/** The part of PGlite's Emscripten file system the bundle is installed with. */
type BundleFs = {
  analyzePath(path: string): { exists: boolean };
  mkdirTree(path: string): void;
  createDataFile(parent: string, name: string, data: Uint8Array, read: boolean, write: boolean, own: boolean): void;
  createPreloadedFile(
    parent: string,
    name: string,
    data: Uint8Array,
    read: boolean,
    write: boolean,
    onload: () => void,
    onerror: () => void,
    dontCreateFile: boolean,
    own: boolean,
  ): void;
};
type BundleModule = { FS: BundleFs; WASM_PREFIX: string };

/**
 * Writes the bundle's files into PGlite's file system as PGlite's own loader does (libraries
 * through the preload plugin, so they are compiled before PostgreSQL starts), but from one
 * gunzipped buffer the files keep as views. PGlite's loader streams the bundle through gunzip into
 * 16 kB chunks, copies them into a Blob it then keeps for the life of the database, copies that
 * into one ArrayBuffer and each file out of it again: about 100 MB of transient copies of 34 MB,
 * mostly small allocations that left the C heap (and so the resident set) that much larger for
 * good (docs/benchmarks.md).
 */
export function installBundle(mod: BundleModule, tar: Buffer): void {
  const entries = tarEntries(tar).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = `${mod.WASM_PREFIX}/${entry.name.replace(/\/$/, '')}`;
    if (entry.type === '5') {
      if (!mod.FS.analyzePath(path).exists) mod.FS.mkdirTree(path);
      continue;
    }
    if (entry.type !== '0' && entry.type !== '\0') continue;
    const data = entry.body.subarray(0, entry.size);
    const parent = dirname(path);
    if (!mod.FS.analyzePath(parent).exists) mod.FS.mkdirTree(parent);
    if (path.endsWith('.so')) {
      // As PGlite does: a library that fails to compile is still written, and fails when loaded.
      const failed = () => mod.FS.createDataFile(parent, basename(path), data, true, true, true);
      mod.FS.createPreloadedFile(parent, basename(path), data, true, true, () => undefined, failed, false, true);
    } else {
      mod.FS.createDataFile(parent, basename(path), data, true, true, true);
    }
  }
}

/** PGlite's postgis extension, installing the cut bundle instead of the published one. */
export async function landgraphPostgis(): Promise<Extension> {
  const { postgis } = await import('@electric-sql/pglite-postgis');
  const entry = packageFile('@electric-sql/pglite-postgis');
  const manifest = join(dirname(dirname(entry)), 'package.json');
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  return {
    name: postgis.name,
    async setup(pg, emscriptenOpts) {
      const published = await postgis.setup(pg, emscriptenOpts);
      if (!published.bundlePath) return published;
      const tar = gunzipSync(readFileSync(cutPostgisBundle(fileURLToPath(published.bundlePath), version)));
      const opts = (published.emscriptenOpts ?? emscriptenOpts) as { preRun?: ((mod: BundleModule) => void)[] };
      const { bundlePath: _loadedHere, ...rest } = published;
      return {
        ...rest,
        emscriptenOpts: { ...opts, preRun: [...(opts.preRun ?? []), (mod: BundleModule) => installBundle(mod, tar)] },
      };
    },
  };
}
