/**
 * `landgraph sandbox seed [--seed N] [--parcels N]`: migrates the configured database and
 * (re)loads the sandbox dataset. The main CLI dispatches here; this module never exits the
 * process itself, it returns the exit code and sets process.exitCode on failure.
 */
import { parseArgs } from 'node:util';
import { type Config, loadConfig } from '../../core/config.ts';
import { type Database, openDatabase } from '../../core/db.ts';
import { migrate } from '../../core/migrate.ts';
import { DEFAULT_SANDBOX_PARCELS, MAX_SANDBOX_PARCELS, MIN_SANDBOX_PARCELS, sandboxSnapshotId } from './generate.ts';
import { seedSandbox } from './load.ts';

export const SEED_USAGE = `Usage: landgraph sandbox seed [--seed N] [--parcels N]
  --seed N      integer seed; the same seed always gives the same data (default: LANDGRAPH_SANDBOX_SEED)
  --parcels N   about how many parcels to generate, ${MIN_SANDBOX_PARCELS} to ${MAX_SANDBOX_PARCELS} (default ${DEFAULT_SANDBOX_PARCELS})`;

export class UsageError extends Error {}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A whole number, allowing digit separators ("1_000_000", "1,000,000"). */
function integerOption(name: string, raw: string, min: number, max: number): number {
  const cleaned = raw.trim().replace(/[_,]/g, '');
  const value = Number(cleaned);
  if (!/^-?\d+$/.test(cleaned) || !Number.isSafeInteger(value)) {
    throw new UsageError(`--${name} must be a whole number, got "${raw}"`);
  }
  if (value < min || value > max) throw new UsageError(`--${name} must be from ${min} to ${max}, got ${value}`);
  return value;
}

export function parseSeedArgs(args: string[], defaultSeed: number): { seed: number; parcels: number } {
  let values: { seed?: string; parcels?: string };
  try {
    ({ values } = parseArgs({
      args,
      options: { seed: { type: 'string' }, parcels: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(messageOf(error));
  }
  return {
    seed:
      values.seed === undefined
        ? defaultSeed
        : integerOption('seed', values.seed, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
    parcels:
      values.parcels === undefined
        ? DEFAULT_SANDBOX_PARCELS
        : integerOption('parcels', values.parcels, MIN_SANDBOX_PARCELS, MAX_SANDBOX_PARCELS),
  };
}

/** Progress on stderr: a line redrawn in place on a terminal, a line per tenth otherwise. */
function progressReporter(stream: NodeJS.WriteStream): {
  update: (done: number, total: number) => void;
  end: () => void;
} {
  let lastTenth = -1;
  let drawn = false;
  return {
    update(done, total) {
      const share = total === 0 ? 1 : done / total;
      const text = `seeding sandbox ${String(Math.floor(share * 100)).padStart(3)}% (${done.toLocaleString('en-AU')} of ${total.toLocaleString('en-AU')} parcels)`;
      if (stream.isTTY) {
        stream.write(`\r${text}`);
        drawn = true;
      } else if (Math.floor(share * 10) > lastTenth) {
        lastTenth = Math.floor(share * 10);
        stream.write(`${text}\n`);
      }
    },
    end() {
      if (drawn) stream.write('\n');
    },
  };
}

export async function runSeedCommand(args: string[]): Promise<number> {
  const fail = (code: number, message: string): number => {
    process.stderr.write(`${message}\n`);
    process.exitCode = code;
    return code;
  };
  let options: { seed: number; parcels: number };
  let config: Config;
  try {
    config = loadConfig();
    options = parseSeedArgs(args, config.sandboxSeed);
  } catch (error) {
    if (error instanceof UsageError) return fail(2, `landgraph sandbox seed: ${error.message}\n${SEED_USAGE}`);
    return fail(1, `landgraph sandbox seed: ${messageOf(error)}`);
  }

  const progress = progressReporter(process.stderr);
  let db: Database | undefined;
  try {
    db = await openDatabase(config);
    await migrate(db);
    const result = await seedSandbox(db, { ...options, onProgress: progress.update });
    progress.end();
    process.stdout.write(
      `Sandbox seeded: ${result.parcels.toLocaleString('en-AU')} parcels, ${result.addresses.toLocaleString('en-AU')} addresses, ` +
        `${result.zones} zones, ${result.overlays} overlays, ${result.roads.toLocaleString('en-AU')} road segments, ` +
        `${result.demTiles} DEM tiles in ${(result.ms / 1000).toFixed(1)} s (snapshot ${sandboxSnapshotId(options)})\n`,
    );
    return 0;
  } catch (error) {
    progress.end();
    return fail(1, `landgraph sandbox seed failed: ${messageOf(error)}`);
  } finally {
    await db?.close();
  }
}
