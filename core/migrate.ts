import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './db.ts';
import { logger } from './logger.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

export type Migration = { name: string; sql: string };

export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^\d{4}_/.test(entry.name))
    .map((entry) => entry.name)
    .sort()
    .map((name) => ({ name, sql: readFileSync(join(dir, name, 'migration.sql'), 'utf8') }));
}

/**
 * Applies every migration not yet recorded, each in one transaction together with its record,
 * so a failed migration leaves nothing half-applied and a rerun picks up where it stopped.
 * The record is written first under a transaction-scoped advisory lock: a second process
 * starting at the same moment waits, then fails on the record's primary key and skips the file.
 */
export async function migrate(db: Database, dir = MIGRATIONS_DIR): Promise<string[]> {
  await db.exec(`CREATE TABLE IF NOT EXISTS public._landgraph_migrations (
    name text PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const applied = new Set(
    (await db.query<{ name: string }>('SELECT name FROM public._landgraph_migrations')).map((r) => r.name),
  );
  const done: string[] = [];
  for (const migration of listMigrations(dir).filter((m) => !applied.has(m.name))) {
    const recordName = migration.name.replaceAll("'", "''");
    try {
      await db.exec(
        `BEGIN;
SELECT pg_advisory_xact_lock(727274);
INSERT INTO public._landgraph_migrations (name) VALUES ('${recordName}');
${migration.sql}
;
COMMIT;`,
      );
    } catch (error) {
      const message = (error as Error).message;
      if (/_landgraph_migrations_pkey|duplicate key/.test(message)) continue;
      throw new Error(`Migration ${migration.name} failed: ${message}`);
    }
    logger.info(`applied migration ${migration.name}`);
    done.push(migration.name);
  }
  return done;
}
