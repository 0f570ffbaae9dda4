import { parseArgs } from 'node:util';
import { loadConfig } from '../core/config.ts';
import { openDatabase } from '../core/db.ts';
import { AppError } from '../core/errors.ts';
import { migrate } from '../core/migrate.ts';
import { WebhookStore, endpointView } from '../platform/webhooks/endpoints.ts';
import { ALL_EVENT_TYPES } from '../platform/webhooks/events.ts';
import { commaList, printJson } from './admin-io.ts';

export const WEBHOOKS_USAGE = `Usage: landgraph webhooks <command>

  list [--account ACCOUNT]      every endpoint (of the account), without secrets
  create --account ACCOUNT --url https://... --events a,b [--lga-code CODE] [--bbox W,S,E,N] [--description TEXT]
                                register an endpoint and print its signing secret once, as JSON
  show ID                       one endpoint
  rotate ID                     a new signing secret (printed once); events and filters stay
  enable ID                     make a disabled endpoint active again
  delete ID                     stop delivering to the endpoint; its delivery log is kept
  deliveries ID [--limit N]     the delivery log, newest first

  Event kinds: ${ALL_EVENT_TYPES.join(', ')}.
  Filters (--lga-code, --bbox) apply to development_application.updated.
`;

/** Webhook endpoint administration; works while the server runs (embedded: over its socket). */
export async function runWebhooksCommand(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      account: { type: 'string' },
      url: { type: 'string' },
      events: { type: 'string' },
      'lga-code': { type: 'string' },
      bbox: { type: 'string' },
      description: { type: 'string' },
      limit: { type: 'string' },
    },
  });
  if (!command || command === 'help' || command === '--help') {
    process.stdout.write(WEBHOOKS_USAGE);
    return command ? 0 : 2;
  }
  const config = loadConfig();
  const db = await openDatabase(config);
  try {
    await migrate(db);
    const store = new WebhookStore(db, config);
    const id = positionals[0];
    const needId = () => {
      if (!id)
        throw new AppError(
          'BAD_REQUEST',
          `webhooks ${command} needs an endpoint id (see \`landgraph webhooks list\`).`,
        );
      return id;
    };
    switch (command) {
      case 'list':
        printJson((await store.list(values.account)).map((e) => ({ ...endpointView(e), account: e.accountId })));
        return 0;
      case 'create': {
        if (!values.account)
          throw new AppError('BAD_REQUEST', '--account is required (the key account the endpoint belongs to).');
        if (!values.url) throw new AppError('BAD_REQUEST', '--url is required.');
        const bbox = values.bbox === undefined ? undefined : commaList(values.bbox).map(Number);
        const { endpoint, secret } = await store.create(values.account, {
          url: values.url,
          events: commaList(values.events),
          description: values.description,
          filters:
            values['lga-code'] !== undefined || bbox !== undefined ? { lga_code: values['lga-code'], bbox } : undefined,
        });
        printJson({ ...endpointView(endpoint), secret, note: 'The signing secret is shown once.' });
        return 0;
      }
      case 'show':
        printJson(endpointView(await store.get(needId())));
        return 0;
      case 'rotate': {
        const { endpoint, secret } = await store.rotate(needId());
        printJson({ ...endpointView(endpoint), secret, note: 'The new signing secret is shown once.' });
        return 0;
      }
      case 'enable':
        printJson(endpointView(await store.enable(needId())));
        return 0;
      case 'delete':
        printJson(endpointView(await store.delete(needId())));
        return 0;
      case 'deliveries': {
        const limit = values.limit === undefined ? 50 : Number(values.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
          throw new AppError('BAD_REQUEST', '--limit must be a whole number from 1 to 1000.');
        printJson(await store.deliveries(needId(), undefined, { limit }));
        return 0;
      }
    }
    process.stderr.write(`Unknown webhooks command: ${command}\n\n${WEBHOOKS_USAGE}`);
    return 2;
  } catch (error) {
    if (error instanceof AppError) {
      process.stderr.write(`${error.message}${error.hint ? ` ${error.hint}` : ''}\n`);
      return error.status === 404 ? 1 : 2;
    }
    throw error;
  } finally {
    await db.close();
  }
}
