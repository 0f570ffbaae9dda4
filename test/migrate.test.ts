import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate } from '../core/migrate.ts';
import { testRuntime } from './support/runtime.ts';

function migrationsFolder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'landgraph-migrations-'));
  for (const [name, sql] of Object.entries(files)) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'migration.sql'), sql);
  }
  return dir;
}

describe('migration runner', () => {
  it('applies nothing twice: the project migrations are already recorded', async () => {
    const { runtime } = await testRuntime();
    expect(await migrate(runtime.db)).toEqual([]);
  });

  it('applies a new migration once and a failing one not at all', async () => {
    const { runtime } = await testRuntime();
    const schema = `migrate_test_${process.pid}`;
    const dir = migrationsFolder({
      '9001_scratch': `CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.t (id int PRIMARY KEY);`,
      '9002_broken': `INSERT INTO ${schema}.t VALUES (1); SELECT no_such_function();`,
    });
    try {
      await expect(migrate(runtime.db, dir)).rejects.toThrow(/9002_broken failed/);
      // 9001 stays applied; nothing of 9002 was written, neither its row nor its record.
      expect(await runtime.db.query(`SELECT * FROM ${schema}.t`)).toEqual([]);
      const recorded = await runtime.db.query<{ name: string }>(
        "SELECT name FROM public._landgraph_migrations WHERE name LIKE '900%' ORDER BY name",
      );
      expect(recorded.map((r) => r.name)).toEqual(['9001_scratch']);
      writeFileSync(join(dir, '9002_broken', 'migration.sql'), `INSERT INTO ${schema}.t VALUES (1);`);
      expect(await migrate(runtime.db, dir)).toEqual(['9002_broken']);
      expect(await migrate(runtime.db, dir)).toEqual([]);
    } finally {
      await runtime.db.exec(
        `DROP SCHEMA IF EXISTS ${schema} CASCADE; DELETE FROM public._landgraph_migrations WHERE name LIKE '900%';`,
      );
    }
  });

  it('fails loudly on a unique violation inside a migration and records nothing of it', async () => {
    const { runtime } = await testRuntime();
    const schema = `migrate_dup_${process.pid}`;
    const dir = migrationsFolder({
      '9011_duplicate': `CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.t (id int PRIMARY KEY);
        INSERT INTO ${schema}.t VALUES (1); INSERT INTO ${schema}.t VALUES (1);`,
    });
    try {
      await expect(migrate(runtime.db, dir)).rejects.toThrow(/Migration 9011_duplicate failed: .*duplicate key/);
      const recorded = await runtime.db.query(
        "SELECT name FROM public._landgraph_migrations WHERE name = '9011_duplicate'",
      );
      expect(recorded).toEqual([]);
      const schemas = await runtime.db.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
      expect(schemas).toEqual([]);
      // And it keeps failing on every start until the migration itself is mended.
      await expect(migrate(runtime.db, dir)).rejects.toThrow(/9011_duplicate failed/);
    } finally {
      await runtime.db.exec(
        `DROP SCHEMA IF EXISTS ${schema} CASCADE; DELETE FROM public._landgraph_migrations WHERE name LIKE '901%';`,
      );
    }
  });

  it('applies a migration once when two runners start together; the other skips it by the ledger', async () => {
    const { runtime } = await testRuntime();
    const schema = `migrate_race_${process.pid}`;
    const dir = migrationsFolder({
      '9021_race': `CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.t (id int PRIMARY KEY); INSERT INTO ${schema}.t VALUES (1);`,
    });
    try {
      const results = await Promise.all([migrate(runtime.db, dir), migrate(runtime.db, dir)]);
      expect(results.flat()).toEqual(['9021_race']);
      expect(await runtime.db.query(`SELECT id FROM ${schema}.t`)).toEqual([{ id: 1 }]);
    } finally {
      await runtime.db.exec(
        `DROP SCHEMA IF EXISTS ${schema} CASCADE; DELETE FROM public._landgraph_migrations WHERE name LIKE '902%';`,
      );
    }
  });
});
