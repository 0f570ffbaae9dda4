/**
 * `landgraph land-supply rollup [--week YYYY-MM-DD] [--dataset live]`: the weekly land-supply
 * rollup of one week (the week holding the day given, or the latest week any lot was snapshotted
 * in). Idempotent: a week is replaced whole, so a rerun gives the same rows. Exit 2 for bad input.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../core/config.ts';
import { openDatabase } from '../core/db.ts';
import { rollupLandSupply } from '../core/land-supply.ts';
import { setLogLevel } from '../core/logger.ts';

export const LAND_SUPPLY_USAGE = `Usage: landgraph land-supply rollup [--week YYYY-MM-DD] [--dataset live]
  --week DAY       roll up the week (Monday to Sunday) holding this day; default: the latest week any lot
                   was snapshotted in. \`landgraph serve\` also checks the latest week every hour (in
                   the supply service's process with --distributed).
  --dataset NAME   live (default) or sandbox
  A week is replaced whole: running it again gives the same rows.
`;

function validDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === day;
}

/** `args` are those after `land-supply`. */
export async function runLandSupplyCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  let values: { week?: string; dataset?: string };
  try {
    if (sub !== 'rollup') throw new Error(sub ? `unknown land-supply command "${sub}"` : 'name a land-supply command');
    const parsed = parseArgs({
      args: rest,
      options: { week: { type: 'string' }, dataset: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    });
    values = parsed.values;
    if (values.week !== undefined && !validDay(values.week)) {
      throw new Error(`--week must be a calendar day YYYY-MM-DD, got "${values.week}"`);
    }
    if (values.dataset !== undefined && !['live', 'sandbox'].includes(values.dataset)) {
      throw new Error(`--dataset must be live or sandbox, got "${values.dataset}"`);
    }
  } catch (error) {
    process.stderr.write(`landgraph land-supply: ${(error as Error).message}\n\n${LAND_SUPPLY_USAGE}`);
    return 2;
  }
  setLogLevel('warn');
  const config = loadConfig();
  const db = await openDatabase(config);
  try {
    const { prepareDatabase } = await import('../app/runtime.ts');
    await prepareDatabase(db, config);
    const dataset = values.dataset ?? 'live';
    const result = await rollupLandSupply(db, dataset, values.week);
    if (!result) {
      process.stdout.write(`Land supply: no lot snapshot in dataset '${dataset}'; nothing to roll up.\n`);
    } else {
      process.stdout.write(
        `Land supply rollup of dataset '${dataset}', week ${result.from}: ${result.rows} rows (estates, suburbs, states).\n`,
      );
    }
    return 0;
  } finally {
    await db.close();
  }
}
