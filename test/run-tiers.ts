/**
 * The suite runner behind `npm test`: builds the seeded test template once, then runs the two
 * tiers side by side, each in a vitest process of its own. The in-process tier (`unit`) keeps one
 * core busy with the embedded database or SQL; the process tier (`e2e`) spends much of its time
 * waiting on the servers it starts, so running them together roughly halves the wall time on a
 * two-core machine. Each tier still runs its own files one after another on its own database
 * copy. Arguments after the command pass through to both vitest runs.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { loadConfig } from '../core/config.ts';
import { setLogLevel } from '../core/logger.ts';
import { ensurePgliteTemplate, ensurePostgresTemplate } from './setup/global-setup.ts';

const TIERS = ['unit', 'e2e'] as const;

const require = createRequire(import.meta.url);
const vitest = join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs');

setLogLevel('warn');
const config = loadConfig();
const started = performance.now();
if (config.databaseUrl) await ensurePostgresTemplate(config.databaseUrl, config.sandboxSeed);
else await ensurePgliteTemplate(config.sandboxSeed);
process.stdout.write(`test template ready in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);

const extra = process.argv.slice(2);
// A file filter may match files of one tier only; the other tier then has nothing to run.
const filterArgs = extra.length > 0 ? ['--passWithNoTests'] : [];

const codes = await Promise.all(
  TIERS.map(
    (tier) =>
      new Promise<number>((resolve) => {
        const child = spawn(process.execPath, [vitest, 'run', '--project', tier, ...filterArgs, ...extra], {
          stdio: 'inherit',
        });
        child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
        child.once('error', () => resolve(1));
      }),
  ),
);
const failed = TIERS.filter((_, i) => codes[i] !== 0);
process.stdout.write(
  failed.length === 0
    ? `both tiers passed in ${((performance.now() - started) / 1000).toFixed(0)} s\n`
    : `tier(s) failed: ${failed.join(', ')}\n`,
);
process.exit(failed.length === 0 ? 0 : 1);
