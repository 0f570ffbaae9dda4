import { parseArgs } from 'node:util';
import { loadConfig } from '../../core/config.ts';
import { type Database, openDatabase } from '../../core/db.ts';
import { setLogLevel } from '../../core/logger.ts';
import { migrate } from '../../core/migrate.ts';
import { IngestError } from './gnaf-release.ts';
import type { FeatureNote } from './planning-load.ts';

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

/** A count as the summaries print it (12,345). */
export const formatCount = (value: number): string => value.toLocaleString('en-AU');

/** How many refused or repaired features a summary lists before it says how many more. */
const LISTED = 20;

/** A titled list of notes on features (`unit`: 'feature', or 'line' for line-based files), the first twenty. */
export function noteLines(
  title: string,
  unit: string | ((note: FeatureNote) => string),
  notes: readonly FeatureNote[],
): string[] {
  const unitOf = typeof unit === 'string' ? () => unit : unit;
  const lines = notes
    .slice(0, LISTED)
    .map((note) => `  ${note.file} ${unitOf(note)} ${note.feature}${note.key ? ` (${note.key})` : ''}: ${note.reason}`);
  if (notes.length > LISTED) lines.push(`  ... and ${formatCount(notes.length - LISTED)} more`);
  return lines.length > 0 ? [`${title}:`, ...lines] : [];
}

type StringOptions = Record<string, { type: 'string'; default?: string }>;

/**
 * The command line of a file ingest: one file, string options, and `--state` required.
 * `what` names the file in the usage error ("name the planning file to load").
 */
export function parseFileArgs(
  args: string[],
  options: StringOptions,
  what: string,
  missingState: string,
): { file: string; values: Record<string, string | undefined> & { state: string } } {
  let parsed;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const [file, ...extra] = parsed.positionals;
  if (!file) throw new UsageError(`name the ${what} file to load`);
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  const values = parsed.values as Record<string, string | undefined>;
  if (!values.state) throw new UsageError(missingState);
  return { file, values: values as Record<string, string | undefined> & { state: string } };
}
