import { parseArgs } from 'node:util';
import { loadConfig } from '../core/config.ts';
import { openDatabase } from '../core/db.ts';
import { AppError } from '../core/errors.ts';
import { migrate } from '../core/migrate.ts';
import { KeyStore, MAX_KEY_SETTING } from '../platform/keys.ts';
import { UsageMeter, monthOf } from '../platform/usage.ts';
import { commaList, printJson } from './admin-io.ts';

export const KEYS_USAGE = `Usage: landgraph keys <command>

  create --name N --kind live|test --scopes a,b,c [--rate-limit 60] [--quota N] [--daily-cap N]
         [--capabilities bulk_export] [--account ACCOUNT] [--embed-allow-list https://maps.example.com,...]
         [--export-rows-monthly N]
                      create a key and print it once, as JSON (only its hash is kept); pages on the
                      --embed-allow-list origins may call the API with it from a browser (CORS);
                      --export-rows-monthly: its bulk-export rows a month (default LANDGRAPH_EXPORT_ROWS_MONTHLY)
  list                every key, without secrets
  show ID             one key
  rotate ID           a new secret for the key (printed once); the old one stops working at once
  suspend ID          refuse the key with 403 until resumed
  resume ID           lift a suspension
  revoke ID           refuse the key for good
  usage ID [--month YYYY-MM]
                      metered calls of the key in a month, by route group
  set-export-allowance ID ROWS
                      change the key's bulk-export rows a month: a whole number (0 or more), or
                      \`default\` for LANDGRAPH_EXPORT_ROWS_MONTHLY; rows exported this month still count
`;

/**
 * The ROWS of `set-export-allowance ID ROWS` as typed: digits only (no sign, fraction, exponent or
 * spaces), or `default` (null: the configured default).
 */
function exportAllowanceArg(positionals: readonly string[]): number | null {
  if (positionals.length !== 2)
    throw new AppError(
      'BAD_REQUEST',
      positionals.length < 2
        ? 'keys set-export-allowance needs a key id and the rows a month: `landgraph keys set-export-allowance ID ROWS`.'
        : `keys set-export-allowance takes ID and ROWS only; got '${positionals.join(' ')}'.`,
    );
  const value = positionals[1]!;
  if (value === 'default') return null;
  const rows = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(rows) || rows > MAX_KEY_SETTING)
    throw new AppError(
      'BAD_REQUEST',
      `ROWS must be a whole number of rows a month from 0 to ${MAX_KEY_SETTING}, or \`default\`; got '${value}'.`,
    );
  return rows;
}

/** A refused command on stderr; exit 1 for a key that is not there, 2 for a command that cannot be run as given. */
function refused(error: AppError): number {
  process.stderr.write(`${error.message}${error.hint ? ` ${error.hint}` : ''}\n`);
  return error.status === 404 ? 1 : 2;
}

/** A whole-number option of at least `min` (1 unless 0 means something, as no export rows a month does). */
function wholeNumber(name: string, value: string | undefined, min = 1): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new AppError(
      'BAD_REQUEST',
      `--${name} must be a ${min === 0 ? 'whole number from 0' : 'positive whole number'}, got '${value}'.`,
    );
  return n;
}

/** The key administration commands; they work while the server runs (embedded: over its socket). */
export async function runKeysCommand(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  // set-export-allowance takes words only, so a ROWS of -5 is refused as a number rather than as an unknown option
  const { values, positionals } = parseArgs({
    args: command === 'set-export-allowance' ? ['--', ...rest] : rest,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      kind: { type: 'string' },
      scopes: { type: 'string' },
      'rate-limit': { type: 'string' },
      quota: { type: 'string' },
      'daily-cap': { type: 'string' },
      capabilities: { type: 'string' },
      account: { type: 'string' },
      'embed-allow-list': { type: 'string' },
      'export-rows-monthly': { type: 'string' },
      month: { type: 'string' },
    },
  });
  if (!command || command === 'help' || command === '--help') {
    process.stdout.write(KEYS_USAGE);
    return command ? 0 : 2;
  }
  const id = positionals[0];
  let allowance: number | null = null;
  if (command === 'set-export-allowance') {
    // a bad number is refused before the database is opened
    try {
      allowance = exportAllowanceArg(positionals);
    } catch (error) {
      if (error instanceof AppError) return refused(error);
      throw error;
    }
  }
  const db = await openDatabase(loadConfig());
  try {
    await migrate(db);
    const keys = KeyStore.direct(db);
    const needId = () => {
      if (!id) throw new AppError('BAD_REQUEST', `keys ${command} needs a key id (see \`landgraph keys list\`).`);
      return id;
    };
    switch (command) {
      case 'create': {
        if (values.kind !== 'live' && values.kind !== 'test')
          throw new AppError('BAD_REQUEST', '--kind must be live or test.');
        const created = await keys.create({
          name: values.name ?? '',
          kind: values.kind,
          scopes: commaList(values.scopes),
          capabilities: commaList(values.capabilities),
          rateLimitPerMinute: wholeNumber('rate-limit', values['rate-limit']),
          monthlyQuota: wholeNumber('quota', values.quota),
          dailyCap: wholeNumber('daily-cap', values['daily-cap']),
          account: values.account,
          embedAllowList: commaList(values['embed-allow-list']),
          exportRowsMonthly: wholeNumber('export-rows-monthly', values['export-rows-monthly'], 0),
        });
        printJson({
          ...created.key,
          secret: created.secret,
          note: 'The secret is shown once; only its hash is stored.',
        });
        return 0;
      }
      case 'list':
        printJson(await keys.list());
        return 0;
      case 'show':
        printJson(await keys.show(needId()));
        return 0;
      case 'rotate': {
        const rotated = await keys.rotate(needId());
        printJson({ ...rotated.key, secret: rotated.secret, note: 'The previous secret no longer works.' });
        return 0;
      }
      case 'suspend':
        printJson(await keys.suspend(needId()));
        return 0;
      case 'resume':
        printJson(await keys.resume(needId()));
        return 0;
      case 'revoke':
        printJson(await keys.revoke(needId()));
        return 0;
      case 'set-export-allowance':
        printJson(await keys.setExportAllowance(needId(), allowance));
        return 0;
      case 'usage': {
        const key = await keys.show(needId());
        const month = values.month ?? monthOf(new Date());
        if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month))
          throw new AppError('BAD_REQUEST', '--month must look like 2026-11.');
        const meter = new UsageMeter(db);
        const usage = await meter.usage(key.id, month);
        await meter.close();
        printJson({
          key: key.id,
          month,
          usage,
          total: usage.reduce((sum, line) => sum + line.calls, 0),
          monthly_quota: key.monthlyQuota,
          billing_review: key.billingReview,
        });
        return 0;
      }
    }
    process.stderr.write(`Unknown keys command: ${command}\n\n${KEYS_USAGE}`);
    return 2;
  } catch (error) {
    if (error instanceof AppError) return refused(error);
    throw error;
  } finally {
    await db.close();
  }
}
