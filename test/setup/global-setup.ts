import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../core/config.ts';
import { openDatabase } from '../../core/db.ts';
import { setLogLevel } from '../../core/logger.ts';
import { prepareDatabase } from '../../app/runtime.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where this tier's test database is: a PostgreSQL URL, or an embedded PGlite data folder. */
    testDatabase: { databaseUrl?: string; dataDir: string };
    /**
     * The migrated and seeded template the tier's database was cloned from: a database name on
     * the PostgreSQL server of DATABASE_URL, or a PGlite data folder. A test that needs a
     * sandbox database of its own clones it rather than seeding again.
     */
    testTemplate: { databaseName?: string; dataDir?: string };
  }
}

const ROOT = resolve(import.meta.dirname, '../..');
const CACHE_DIR = join(ROOT, '.landgraph-test');

/** A fingerprint of everything that shapes the test database, so a stale template is rebuilt. */
function fingerprint(seed: number): string {
  const hash = createHash('sha256').update(String(seed));
  for (const dir of ['prisma/migrations', 'prisma/sandbox']) {
    const walk = (folder: string) => {
      for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
        const path = join(folder, entry.name);
        if (entry.isDirectory()) walk(path);
        else hash.update(entry.name).update(readFileSync(path));
      }
    };
    walk(join(ROOT, dir));
  }
  return hash.digest('hex').slice(0, 16);
}

async function withAdmin<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Held while a PostgreSQL template is checked and built, so side-by-side runs build it once. */
const TEMPLATE_LOCK = 727_301;

/**
 * On PostgreSQL: a template database migrated and seeded once, cloned for each tier. It is built
 * under another name and renamed when ready, so a run that dies part-way leaves no template that
 * looks finished; the advisory lock makes a second run wait for the first one's build.
 */
export async function ensurePostgresTemplate(baseUrl: string, seed: number): Promise<string> {
  const template = `landgraph_tpl_${fingerprint(seed)}`;
  await withTemplateLock(baseUrl, async (lock) => {
    const found = await lock.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
    if (found.rowCount === 1) return;
    const stale = await lock.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE 'landgraph\\_tpl\\_%'",
    );
    for (const row of stale.rows) await lock.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
    const building = `${template}_building`;
    await lock.query(`CREATE DATABASE "${building}"`);
    const db = await openDatabase({ databaseUrl: databaseUrl(baseUrl, building), dataDir: CACHE_DIR });
    try {
      await prepareDatabase(db, { sandboxSeed: seed });
    } finally {
      await db.close();
    }
    await lock.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`);
  });
  return template;
}

/**
 * Makes database `name` afresh as a copy of `template`. PostgreSQL refuses to copy a template
 * another session is copying at the same moment, so copies take the template lock too.
 */
export async function cloneTemplate(baseUrl: string, template: string, name: string): Promise<string> {
  await withTemplateLock(baseUrl, async (lock) => {
    await lock.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await lock.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  });
  return databaseUrl(baseUrl, name);
}

async function withTemplateLock(baseUrl: string, work: (lock: pg.Client) => Promise<void>): Promise<void> {
  const lock = new pg.Client({ connectionString: baseUrl });
  // a dropped connection rejects the query in flight; without a listener it would crash the run
  lock.on('error', () => {});
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    await work(lock);
  } finally {
    // closing the session releases the lock
    await lock.end();
  }
}

async function preparePostgres(
  baseUrl: string,
  tier: string,
  seed: number,
): Promise<{ url: string; template: string }> {
  const template = await ensurePostgresTemplate(baseUrl, seed);
  const url = await cloneTemplate(baseUrl, template, `landgraph_test_${tier}_${process.pid}`);
  return { url, template };
}

/** A half-built template older than this belongs to a run that died; younger ones may still be building. */
const ABANDONED_BUILD_MS = 30 * 60_000;

/** Removes other fingerprints' templates and abandoned half-built ones, never a build in progress. */
function removeStaleTemplates(current: string): void {
  for (const entry of readdirSync(CACHE_DIR, { withFileTypes: true })) {
    if (!entry.isDirectory() || !entry.name.startsWith('template-') || entry.name === current) continue;
    const path = join(CACHE_DIR, entry.name);
    const building = entry.name.endsWith('.building');
    if (building && Date.now() - statSync(path).mtimeMs < ABANDONED_BUILD_MS) continue;
    rmSync(path, { recursive: true, force: true });
  }
}

/**
 * On the embedded default: a PGlite folder migrated and seeded once, copied for each tier. Each
 * run builds in a folder of its own and renames it into place when it is ready, so two runs side
 * by side never delete or read each other's half-built template.
 */
export async function ensurePgliteTemplate(seed: number): Promise<string> {
  const name = `template-${fingerprint(seed)}`;
  const template = join(CACHE_DIR, name);
  mkdirSync(CACHE_DIR, { recursive: true });
  if (!existsSync(join(template, 'ready'))) {
    removeStaleTemplates(name);
    const building = join(CACHE_DIR, `${name}.${process.pid}.building`);
    rmSync(building, { recursive: true, force: true });
    mkdirSync(building, { recursive: true });
    const db = await openDatabase({ databaseUrl: undefined, dataDir: building });
    try {
      await prepareDatabase(db, { sandboxSeed: seed });
    } finally {
      await db.close();
    }
    writeFileSync(join(building, 'ready'), new Date().toISOString());
    if (existsSync(template) && !existsSync(join(template, 'ready'))) {
      // a half-built template left where the finished one goes (an interrupted older run)
      rmSync(template, { recursive: true, force: true });
    }
    try {
      renameSync(building, template);
    } catch {
      // another run finished the same template first: use it, drop ours
      rmSync(building, { recursive: true, force: true });
    }
  }
  return template;
}

async function preparePglite(tier: string, seed: number): Promise<{ copy: string; template: string }> {
  const template = await ensurePgliteTemplate(seed);
  const copy = join(CACHE_DIR, `run-${tier}-${process.pid}`);
  rmSync(copy, { recursive: true, force: true });
  cpSync(template, copy, { recursive: true });
  rmSync(join(copy, 'ready'), { force: true });
  return { copy, template };
}

/**
 * Each run gets databases of its own (named by tier and process), so two runs side by side
 * never share one, and removes them when it ends.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  setLogLevel('warn');
  const config = loadConfig();
  const tier = project.name;
  const baseUrl = config.databaseUrl;
  if (baseUrl) {
    const { url, template } = await preparePostgres(baseUrl, tier, config.sandboxSeed);
    const dataDir = join(CACHE_DIR, `run-${tier}-${process.pid}`);
    project.provide('testDatabase', { databaseUrl: url, dataDir });
    project.provide('testTemplate', { databaseName: template });
    return async () => {
      rmSync(dataDir, { recursive: true, force: true });
      await withAdmin(baseUrl, (c) =>
        c.query(`DROP DATABASE IF EXISTS "${new URL(url).pathname.slice(1)}" WITH (FORCE)`),
      );
    };
  }
  const { copy: dataDir, template } = await preparePglite(tier, config.sandboxSeed);
  project.provide('testDatabase', { dataDir });
  project.provide('testTemplate', { dataDir: template });
  return async () => rmSync(dataDir, { recursive: true, force: true });
}
