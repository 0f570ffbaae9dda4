import { loadConfig } from '../../core/config.ts';
import { type Database, openDatabase } from '../../core/db.ts';
import { setLogLevel } from '../../core/logger.ts';
import { migrate } from '../../core/migrate.ts';
import { IngestError } from './gnaf-release.ts';

/** A command line an ingest cannot run with: told with the command's usage, exit code 2. */
export class UsageError extends Error {}

/**
 * Runs one file ingest: the options are checked and the file opened (`prepare`) before the
 * database is, which takes seconds on the embedded one, so bad input is told at once. Usage
 * and ingest errors exit 2 with the reason; anything else exits 1.
 */
export async function runIngest<P, R>(
  command: string,
  usage: string,
  prepare: () => Promise<P>,
  load: (db: Database, run: P) => Promise<R>,
  format: (result: R) => string,
): Promise<number> {
  const fail = (code: number, message: string): number => {
    process.stderr.write(`${message}\n`);
    return code;
  };
  let run: P;
  try {
    run = await prepare();
  } catch (error) {
    if (error instanceof UsageError) return fail(2, `landgraph ingest ${command}: ${error.message}\n${usage}`);
    if (error instanceof IngestError) return fail(2, `landgraph ingest ${command}: ${error.message}`);
    return fail(1, `landgraph ingest ${command} failed: ${(error as Error).message}`);
  }
  setLogLevel('warn');
  let db: Database | undefined;
  try {
    db = await openDatabase(loadConfig());
    await migrate(db);
    process.stdout.write(format(await load(db, run)));
    return 0;
  } catch (error) {
    if (error instanceof IngestError) return fail(2, `landgraph ingest ${command}: ${error.message}`);
    return fail(1, `landgraph ingest ${command} failed: ${(error as Error).message}`);
  } finally {
    await db?.close();
  }
}

/** A summary table: the first column left-aligned, the counts right-aligned, two spaces apart. */
export function formatTable(cells: readonly (readonly string[])[]): string[] {
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  return cells.map((row) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '),
  );
}
