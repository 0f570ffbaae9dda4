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

// Any constant shared by every runner of this project: it names the lock, not a resource.
const MIGRATION_LOCK = 727274;

/**
 * Applies every migration not yet recorded, each in one transaction together with its record,
 * so a failed migration leaves nothing half-applied and a rerun picks up where it stopped.
 * Runners starting together queue on a transaction-scoped advisory lock; once it holds the lock
 * a runner reads the ledger again, and skips a migration only when another runner has recorded
 * it. Any error inside a migration, a unique violation included, fails the start: it is never
 * taken to mean "someone else applied this".
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
    let ran: boolean;
    try {
      ran = await db.transaction(async (query, script) => {
        await query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
        // Read committed: this statement sees what a runner that held the lock before us committed.
        const recorded = await query('SELECT 1 FROM public._landgraph_migrations WHERE name = $1', [migration.name]);
        if (recorded.length > 0) return false;
        await script(migration.sql);
        await query('INSERT INTO public._landgraph_migrations (name) VALUES ($1)', [migration.name]);
        return true;
      });
    } catch (error) {
      throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
    }
    if (!ran) {
      logger.info(`migration ${migration.name} already applied by another runner`);
      continue;
    }
    logger.info(`applied migration ${migration.name}`);
    done.push(migration.name);
  }
  return done;
}
