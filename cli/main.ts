import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Config } from '../core/config.ts';
import { ConfigError, loadConfig } from '../core/config.ts';
import { openDatabase } from '../core/db.ts';
import { setLogLevel } from '../core/logger.ts';
import { migrate } from '../core/migrate.ts';
import { composeSupergraph } from '../gateway/compose.ts';
import { runSeedCommand } from '../prisma/sandbox/cli.ts';
import { sandboxSamples } from '../prisma/sandbox/load.ts';
import { startDistributed } from './distributed.ts';
import { runIngestCommand } from './ingest/cli.ts';
import { runIngestPlanningCommand } from './ingest/planning-cli.ts';
import { runKeysCommand } from './keys.ts';
import { runMirrorCommand } from './mirror.ts';
import type { RunningServer } from './serve.ts';
import { serve, stopOnSignals } from './serve.ts';
import { DEMO_DAILY_CAP, ensureDemoKey } from '../platform/demo-key.ts';

const USAGE = `Usage: landgraph <command>

  serve                     start the API (REST facade + /graphql) on the embedded default or DATABASE_URL
  serve --distributed       start every subgraph as its own HTTP service and the gateway in front of them
  sandbox seed [--seed N] [--parcels N]
                            (re)load the deterministic sandbox dataset; --parcels scales it for benchmarks
  sandbox samples           print a handful of real sandbox points as JSON
  ingest gnaf <folder> [--states VIC,NSW] [--dataset live] [--release NAME] [--force]
                            load a G-NAF release (resumable; --force reloads completed files)
  ingest planning <file> --state VIC [--layer zone|overlay|ugb] [--coverage FILE] [--dataset live] [--snapshot ID]
                            load a Vicmap Planning layer (GeoJSON or shapefile) in one transaction
  mirror export-cadastre [--dataset sandbox|live] [--state VIC]
                            write the cadastre mirror as an object-store snapshot (LANDGRAPH_OBJECT_STORE_DIR)
  keys <command>            create, list, show, rotate, suspend, resume, revoke API keys; usage (see \`landgraph keys help\`)
  migrate                   apply pending database migrations
  compose [--out FILE]      compose the supergraph from the subgraph schemas (stdout or FILE)
`;

export const SUPERGRAPH_FILE = fileURLToPath(new URL('../gateway/supergraph.graphql', import.meta.url));

async function startBanner(running: RunningServer, config: Config): Promise<string> {
  const lines = [
    `Landgraph is listening on ${running.url}`,
    `  REST:    ${running.url}/api/health   (reference: ${running.url}/docs)`,
    `  GraphQL: ${running.url}/graphql`,
  ];
  if (!config.databaseUrl) {
    const demo = await ensureDemoKey(running.runtime.keys, config.dataDir);
    lines.push(
      '',
      `Public demo key (read-only, sandbox data, ${DEMO_DAILY_CAP} lookups a day):`,
      `  ${demo}`,
      `  curl -H 'Authorization: Bearer ${demo}' '${running.url}/v1/property/graph?lat=-36.6719&lng=144.3243'`,
    );
  }
  lines.push(
    '',
    'Make your own key (shown once):',
    '  npx landgraph keys create --name my-app --kind test --scopes cadastre.read,planning.read,property-graph.read',
    '',
  );
  return lines.join('\n');
}

async function withDatabase<T>(run: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>): Promise<T> {
  const db = await openDatabase(loadConfig());
  try {
    return await run(db);
  } finally {
    await db.close();
  }
}

export async function main(args: string[]): Promise<number> {
  const [command, sub, ...rest] = args;
  try {
    switch (command) {
      case 'serve':
      case undefined: {
        const config = loadConfig();
        const distributed = args.includes('--distributed') || config.mode === 'distributed';
        const running = distributed ? await startDistributed(config) : await serve(config);
        stopOnSignals(() => running.stop());
        process.stdout.write(await startBanner(running, config));
        return await new Promise<number>(() => undefined);
      }
      case 'sandbox':
        if (sub === 'seed') return await runSeedCommand(rest);
        if (sub === 'samples') {
          setLogLevel('warn');
          const config = loadConfig();
          const samples = await withDatabase(async (db) => {
            const { prepareDatabase } = await import('../gateway/runtime.ts');
            await prepareDatabase(db, config);
            return sandboxSamples(db);
          });
          process.stdout.write(`${JSON.stringify(samples, null, 2)}\n`);
          return 0;
        }
        break;
      case 'ingest':
        if (sub === 'planning') return await runIngestPlanningCommand(rest);
        return await runIngestCommand(args.slice(1));
      case 'mirror':
        return await runMirrorCommand(args.slice(1));
      case 'keys':
        setLogLevel('warn');
        return await runKeysCommand(args.slice(1));
      case 'migrate': {
        const applied = await withDatabase((db) => migrate(db));
        process.stdout.write(applied.length ? `applied ${applied.join(', ')}\n` : 'database is up to date\n');
        return 0;
      }
      case 'compose': {
        const supergraph = composeSupergraph();
        const outIndex = args.indexOf('--out');
        if (outIndex >= 0) writeFileSync(args[outIndex + 1] ?? SUPERGRAPH_FILE, supergraph);
        else process.stdout.write(supergraph);
        return 0;
      }
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(USAGE);
        return 0;
    }
    process.stderr.write(`Unknown command: ${args.join(' ')}\n\n${USAGE}`);
    return 2;
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    process.stderr.write(`landgraph ${command ?? ''} failed: ${(error as Error).message}\n`);
    return 1;
  }
}
