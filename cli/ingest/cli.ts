/**
 * `landgraph ingest gnaf <folder> [--states VIC,NSW] [--dataset live] [--release NAME] [--force]`:
 * migrates the configured database and loads a G-NAF release into it, progress on stderr and
 * a summary on stdout. Returns the exit code: 2 for a usage error, 1 for a failed ingest.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../../core/config.ts';
import { type Database, openDatabase } from '../../core/db.ts';
import { setLogLevel } from '../../core/logger.ts';
import { migrate } from '../../core/migrate.ts';
import { type GnafIngestResult, ingestGnaf } from './gnaf.ts';
import { IngestError, parseStates } from './gnaf-release.ts';
import { seconds } from './progress.ts';

export const INGEST_USAGE = `Usage: landgraph ingest gnaf <folder> [--states VIC,NSW] [--dataset live] [--release NAME] [--force]
  <folder>        a G-NAF release as published (Standard/ and Authority Code/ are found below it)
  --states LIST   only these states and territories (default: every one in the release)
  --dataset NAME  the dataset to load into (default: live, which only live keys read; test keys and the
                  demo key read the sandbox, so query what you load with a live key)
  --release NAME  names the release for resuming and credits (default: the release folder's name)
  --force         reload files an earlier run of this release completed
       landgraph ingest planning <file> --state VIC [--layer zone|overlay|ugb] [--coverage FILE] (see its --help)
       landgraph ingest hazards <file> --state VIC|NSW|QLD [--layout NAME] [--kind flood|bushfire|contamination] [--coverage FILE] (see its --help)

       landgraph ingest buildings <file> --state VIC|NSW|QLD [--source osm|state] (see its --help)
       landgraph ingest land-values <file> --state NSW [--base-date YYYY-MM-DD] (see its --help)
       landgraph ingest soil <file> --state VIC|NSW|QLD [--clay FIELD] [--depth FIELD] (see its --help)
       landgraph ingest easements <file> --state VIC|NSW|QLD (see its --help)
       landgraph ingest development-applications <file> --format planningalerts|nsw-portal (see its --help)
       landgraph ingest spear <file> (see its --help)
       landgraph ingest census --datapack <dir> [--geography SAL|SA1] (see its --help)
       landgraph ingest census-boundaries --geography SAL|SA1 --file <file> (see its --help)
       landgraph ingest nsw-sales <file|zip|folder> (see its --help)
       landgraph ingest nsw-rental-bonds --lodgements <csv> [--holdings <csv>] (see its --help)
       landgraph ingest abs-building-approvals <csv> (see its --help)
       landgraph ingest abs-sa2-names <csv> (see its --help)
       landgraph ingest osm --file <extract.osm|extract.osm.pbf> (see its --help)
       landgraph ingest land-supply --estates FILE --lots FILE [--week YYYY-MM-DD] (see its --help)`;

const n = (value: number) => value.toLocaleString('en-AU');

/** The summary table: per state and table, rows read, loaded and skipped, and the time taken. */
export function formatIngestSummary(result: GnafIngestResult): string {
  const lines = [`G-NAF release ${result.release} into dataset '${result.dataset}' in ${seconds(result.ms)}`];
  const cells = [['state', 'table', 'read', 'loaded', 'retired', 'unresolved', 'time']];
  const authority = result.files.filter((f) => f.state === null);
  if (authority.length > 0) {
    const loaded = authority.filter((f) => !f.skipped);
    const sum = (pick: (f: (typeof authority)[number]) => number) => n(loaded.reduce((s, f) => s + pick(f), 0));
    cells.push(
      loaded.length === 0
        ? ['-', `AUTHORITY CODES (${authority.length} tables)`, 'done earlier', '', '', '', '']
        : [
            '-',
            `AUTHORITY CODES (${authority.length} tables)`,
            sum((f) => f.read),
            sum((f) => f.loaded),
            '0',
            '0',
            seconds(loaded.reduce((s, f) => s + f.ms, 0)),
          ],
    );
  }
  for (const f of result.files.filter((x) => x.state !== null)) {
    cells.push(
      f.skipped
        ? [f.state ?? '', f.table, 'done earlier', '', '', '', '']
        : [f.state ?? '', f.table, n(f.read), n(f.loaded), n(f.retired), n(f.unresolved), seconds(f.ms)],
    );
  }
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  for (const row of cells) {
    lines.push(
      row
        .map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
        .join('  ')
        .trimEnd(),
    );
  }
  for (const s of result.states) {
    const share = s.addresses === 0 ? 0 : (100 * s.linked) / s.addresses;
    lines.push(`${s.state}: ${n(s.linked)} of ${n(s.addresses)} addresses linked to parcels (${share.toFixed(1)}%)`);
  }
  return `${lines.join('\n')}\n`;
}

class UsageError extends Error {}

function parseIngestArgs(args: string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: {
        states: { type: 'string' },
        dataset: { type: 'string', default: 'live' },
        release: { type: 'string' },
        force: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const [source, folder, ...extra] = parsed.positionals;
  if (source !== 'gnaf')
    throw new UsageError(
      source
        ? `unknown source "${source}"`
        : 'name a source: gnaf, planning, hazards, buildings, land-values, soil or easements',
    );
  if (!folder) throw new UsageError('name the folder holding the G-NAF release');
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  const { states, dataset, release, force } = parsed.values;
  return { folder, states: states === undefined ? undefined : parseStates(states), dataset, release, force };
}

/** `args` are those after `ingest`: `gnaf <folder> [options]`. */
export async function runIngestCommand(args: string[]): Promise<number> {
  const fail = (code: number, message: string): number => {
    process.stderr.write(`${message}\n`);
    return code;
  };
  let options;
  try {
    options = parseIngestArgs(args);
  } catch (error) {
    if (error instanceof UsageError) return fail(2, `landgraph ingest: ${error.message}\n${INGEST_USAGE}`);
    if (error instanceof IngestError) return fail(2, `landgraph ingest gnaf: ${error.message}`);
    throw error;
  }
  setLogLevel('warn');
  let db: Database | undefined;
  try {
    db = await openDatabase(loadConfig());
    await migrate(db);
    const result = await ingestGnaf(db, options);
    process.stdout.write(formatIngestSummary(result));
    return 0;
  } catch (error) {
    return fail(1, `landgraph ingest gnaf failed: ${(error as Error).message}`);
  } finally {
    await db?.close();
  }
}
