import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Config } from '../core/config.ts';
import { ConfigError, loadConfig } from '../core/config.ts';
import { openDatabase } from '../core/db.ts';
import { setLogLevel } from '../core/logger.ts';
import { migrate } from '../core/migrate.ts';
import { composeSupergraph } from '../gateway/compose.ts';
import { SEED_USAGE, runSeedCommand } from '../prisma/sandbox/cli.ts';
import { sandboxSamples } from '../prisma/sandbox/load.ts';
import { ALL_SAMPLE_CASES } from '../prisma/sandbox/samples.ts';
import { startDistributed } from './distributed.ts';
import { INGEST_USAGE, runIngestCommand } from './ingest/cli.ts';
import { DEVELOPMENT_USAGE, runIngestDevelopmentCommand } from './ingest/development-cli.ts';
import { SPEAR_USAGE, runIngestSpearCommand } from './ingest/spear-cli.ts';
import {
  ABS_APPROVALS_USAGE,
  NSW_RENTAL_BONDS_USAGE,
  NSW_SALES_USAGE,
  runIngestAbsApprovalsCommand,
  runIngestSa2NamesCommand,
  ABS_SA2_NAMES_USAGE,
  runIngestNswRentalBondsCommand,
  runIngestNswSalesCommand,
} from './ingest/market-cli.ts';
import { OSM_USAGE, runIngestOsmCommand } from './ingest/osm-cli.ts';
import { LAND_SUPPLY_INGEST_USAGE, runIngestLandSupplyCommand } from './ingest/land-supply-cli.ts';
import { EASEMENTS_USAGE, runIngestEasementsCommand } from './ingest/easements-cli.ts';
import { HAZARDS_USAGE, runIngestHazardsCommand } from './ingest/hazards-cli.ts';
import {
  BUILDINGS_USAGE,
  LAND_VALUES_USAGE,
  runIngestBuildingsCommand,
  runIngestLandValuesCommand,
} from './ingest/land-cli.ts';
import { PLANNING_USAGE, runIngestPlanningCommand } from './ingest/planning-cli.ts';
import { SOIL_USAGE, runIngestSoilCommand } from './ingest/soil-cli.ts';
import {
  CENSUS_BOUNDARIES_USAGE,
  CENSUS_USAGE,
  runIngestCensusBoundariesCommand,
  runIngestCensusCommand,
} from './ingest/census-cli.ts';
import { KEYS_USAGE, runKeysCommand } from './keys.ts';
import { WEBHOOKS_USAGE, runWebhooksCommand } from './webhooks.ts';
import { WORKER_USAGE, runWorkerCommand } from './worker.ts';
import { MIRROR_USAGE, runMirrorCommand } from './mirror.ts';
import type { RunningServer } from './serve.ts';
import { LAND_SUPPLY_ROLLUP_EVERY_MS, SUBURB_ANALYTICS_CHECK_EVERY_MS, serve, stopOnSignals } from './serve.ts';
import { LAND_SUPPLY_USAGE, runLandSupplyCommand } from './land-supply.ts';
import { SUBURB_ANALYTICS_USAGE, runSuburbAnalyticsCommand } from './suburb-analytics.ts';
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
  ingest hazards <file> --state VIC|NSW|QLD [--layout NAME] [--kind flood|bushfire|contamination] [--coverage FILE] [--dataset live] [--snapshot ID]
                            load a state hazard layer (Vicmap Planning overlays, VIC BPA, NSW bush fire prone land or
                            flood planning, QLD bushfire prone area or flood hazard), or a contamination register CSV
  ingest buildings <file> --state VIC|NSW|QLD [--source osm|state] [--dataset live] [--snapshot ID]
                            load building footprints (GeoJSON, line-delimited GeoJSON or shapefile)
  ingest land-values <file> --state NSW [--base-date YYYY-MM-DD] [--dataset live] [--snapshot ID]
                            load a NSW Valuer General bulk land value file onto the parcels it names
  ingest soil <file> --state VIC|NSW|QLD [--clay FIELD] [--depth FIELD] [--dataset live] [--snapshot ID]
                            load soil polygons with clay content and soil depth (SLGA CLY/DES over polygons)
  ingest easements <file> --state VIC|NSW|QLD [--dataset live] [--snapshot ID]
                            load a state cadastre's easement polygons onto the parcels they burden
  ingest development-applications <file> --format planningalerts|nsw-portal [--dataset live] [--snapshot ID]
                            upsert development applications (PlanningAlerts or NSW Planning Portal JSON)
  ingest spear <file> [--dataset live] [--snapshot ID]
                            upsert Victorian SPEAR applications (a SPEAR public-search style JSON export)
  ingest census --datapack <dir> [--geography SAL|SA1] [--dataset live] [--snapshot ID]
                            load ABS Census 2021 General Community Profile figures (DataPack CSVs G01, G02, ...)
  ingest census-boundaries --geography SAL|SA1 --file <file> [--dataset live] [--snapshot ID]
                            load the ABS 2021 SAL or SA1 boundaries the Census figures refer to
  ingest nsw-sales <file|zip|folder> [--dataset live] [--snapshot ID]
                            upsert NSW Valuer General bulk property sales (.DAT), matched to parcels and addresses
  ingest nsw-rental-bonds [--lodgements FILE] [--holdings FILE --holdings-month YYYY-MM] [--dataset live]
                            load NSW Fair Trading rental bond lodgements and holdings (the published XLSX, or CSV)
  ingest abs-building-approvals <csv> [--dataset live] [--snapshot ID]
                            upsert ABS building approvals by SA2 (Data Explorer CSV)
  ingest abs-sa2-names <csv> [--dataset live]
                            load ASGS SA2 names by code (the ABS allocation file), naming code-only approvals
  ingest osm --file <extract.osm|extract.osm.pbf> [--state CODE] [--dataset live] [--snapshot ID]
                            load OpenStreetMap amenities and the walking network (ODbL)
  ingest land-supply --estates FILE --lots FILE [--week YYYY-MM-DD] [--dataset live]
                            upsert estates and a week's lot list (CSV or GeoJSON), snapshot and roll up the week
  land-supply rollup [--week YYYY-MM-DD] [--dataset live]
                            roll up a week of land supply per estate, suburb and state (idempotent)
  suburb-analytics rollup [--state VIC|NSW|QLD] [--dataset live|sandbox]
                            recompute the suburb analytics bundles of a state, or all three (idempotent)
  mirror export-cadastre [--dataset sandbox|live] [--state VIC]
                            write the cadastre mirror as an object-store snapshot (LANDGRAPH_OBJECT_STORE_DIR)
  keys <command>            create, list, show, rotate, suspend, resume, revoke API keys; usage, set-export-allowance (see \`landgraph keys help\`)
  worker [--concurrency N]  run durable jobs (webhook deliveries, batch products) from the database
  webhooks <command>        list, create, rotate, enable, delete webhook endpoints; deliveries (see \`landgraph webhooks help\`)
  migrate                   apply pending database migrations
  compose [--out FILE]      compose the supergraph from the subgraph schemas (stdout or FILE)
  help [command]            this text, or a command's own; every command also takes --help

  Ingest commands load the live dataset unless given --dataset: only live keys (and keyless map
  calls) read it, while test keys and the demo key read the sandbox.
`;

const SERVE_USAGE = `Usage: landgraph serve [--distributed]
  Starts the REST facade and /graphql on HOST:PORT (default 127.0.0.1:4000): on the embedded
  PostgreSQL in LANDGRAPH_DATA_DIR (loading the sandbox on first start), or on DATABASE_URL.
  --distributed   every subgraph as its own HTTP service, the gateway calling them over HTTP
  The land-supply weekly rollup is checked hourly (LANDGRAPH_LAND_SUPPLY_ROLLUP_EVERY_MS; 0: never): in this
  process, or with --distributed in the supply service's process; an advisory lock keeps instances apart.
  The job worker runs in this process, or with --distributed as a process of its own; more can run beside it
  (\`landgraph worker\`).
`;

const SANDBOX_USAGE = `Usage: landgraph sandbox seed [--seed N] [--parcels N]
       landgraph sandbox samples
  seed      (re)load the deterministic sandbox dataset (see \`landgraph sandbox seed --help\`)
  samples   print a handful of real sandbox points as JSON: the addresses, points and parcels to try
`;

const SAMPLES_USAGE = `Usage: landgraph sandbox samples
  Prints real rows of the loaded sandbox as JSON (gnaf_pid, address, lat, lng, state, parcel_pfi and
  what each shows), for trying the API with a test key. Loads the sandbox first if it is missing.
`;

const MIGRATE_USAGE = `Usage: landgraph migrate
  Applies the pending database migrations to the embedded database or DATABASE_URL.
`;

const COMPOSE_USAGE = `Usage: landgraph compose [--out FILE]
  Composes the supergraph from the subgraph schemas and writes it to stdout, or to FILE
  (gateway/supergraph.graphql when --out is given without a file).
`;

const withNewline = (text: string): string => (text.endsWith('\n') ? text : `${text}\n`);

/** Every command and subcommand with the usage its --help prints (a test runs each one). */
export const COMMAND_HELP: ReadonlyMap<string, string> = new Map([
  ['', USAGE],
  ['serve', SERVE_USAGE],
  ['sandbox', SANDBOX_USAGE],
  ['sandbox seed', SEED_USAGE],
  ['sandbox samples', SAMPLES_USAGE],
  ['ingest', `${INGEST_USAGE}\n`],
  ['ingest gnaf', `${INGEST_USAGE}\n`],
  ['ingest planning', PLANNING_USAGE],
  ['ingest hazards', HAZARDS_USAGE],
  ['ingest buildings', BUILDINGS_USAGE],
  ['ingest land-values', LAND_VALUES_USAGE],
  ['ingest soil', SOIL_USAGE],
  ['ingest easements', EASEMENTS_USAGE],
  ['ingest development-applications', DEVELOPMENT_USAGE],
  ['ingest spear', SPEAR_USAGE],
  ['ingest census', CENSUS_USAGE],
  ['ingest census-boundaries', CENSUS_BOUNDARIES_USAGE],
  ['ingest nsw-sales', NSW_SALES_USAGE],
  ['ingest nsw-rental-bonds', NSW_RENTAL_BONDS_USAGE],
  ['ingest abs-building-approvals', ABS_APPROVALS_USAGE],
  ['ingest abs-sa2-names', ABS_SA2_NAMES_USAGE],
  ['ingest osm', OSM_USAGE],
  ['ingest land-supply', LAND_SUPPLY_INGEST_USAGE],
  ['land-supply', LAND_SUPPLY_USAGE],
  ['land-supply rollup', LAND_SUPPLY_USAGE],
  ['suburb-analytics', SUBURB_ANALYTICS_USAGE],
  ['suburb-analytics rollup', SUBURB_ANALYTICS_USAGE],
  ['mirror', MIRROR_USAGE],
  ['mirror export-cadastre', MIRROR_USAGE],
  ['keys', KEYS_USAGE],
  ...['create', 'list', 'show', 'rotate', 'suspend', 'resume', 'revoke', 'usage', 'set-export-allowance'].map(
    (sub): [string, string] => [`keys ${sub}`, KEYS_USAGE],
  ),
  ['worker', WORKER_USAGE],
  ['webhooks', WEBHOOKS_USAGE],
  ...['list', 'create', 'show', 'rotate', 'enable', 'delete', 'deliveries'].map((sub): [string, string] => [
    `webhooks ${sub}`,
    WEBHOOKS_USAGE,
  ]),
  ['migrate', MIGRATE_USAGE],
  ['compose', COMPOSE_USAGE],
]);

/**
 * The usage for `args` when they ask for help (`--help` or `-h` anywhere, or `help <command>`),
 * else undefined: the longest command path the arguments start with picks the text, so help
 * never runs a command, opens a database or meets an option parser that does not know it.
 */
export function helpFor(args: readonly string[]): string | undefined {
  const asked = args[0] === 'help' || args.includes('--help') || args.includes('-h');
  if (!asked) return undefined;
  const words = (args[0] === 'help' ? args.slice(1) : args).filter((arg) => !arg.startsWith('-'));
  for (let n = Math.min(words.length, 2); n >= 0; n--) {
    const text = COMMAND_HELP.get(words.slice(0, n).join(' '));
    if (text) return withNewline(text);
  }
  return USAGE;
}

/**
 * The scopes the start banner's `keys create` grants: every scope a README example uses (a test
 * walks the README's curl lines against them), so a newcomer's first key answers them all.
 */
export const NEWCOMER_SCOPES = [
  'cadastre.read',
  'planning.read',
  'property-graph.read',
  'address.read',
  'locality.read',
  'planning.provisions.read',
  'envelope.by-address.read',
  'envelope.read',
  'ugb.read',
  'elevation.read',
  'roads.read',
  'soil.read',
  'easement.read',
  'dossier.read',
  'risk.read',
  'risk.summary.read',
  'development-applications.read',
  'development-applications.feed.read',
  'spear.read',
  'land-supply.read',
  'catchment.read',
  'locality.suburb',
  'suburb-analytics.read',
] as const;

export const SUPERGRAPH_FILE = fileURLToPath(new URL('../gateway/supergraph.graphql', import.meta.url));

export async function startBanner(running: Pick<RunningServer, 'runtime' | 'url'>, config: Config): Promise<string> {
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
      // The first point `landgraph sandbox samples` prints (76 Diggers Pde, Huntly): every layer present.
      `  curl -H 'Authorization: Bearer ${demo}' '${running.url}/v1/property/graph?lat=-36.668556&lng=144.3315337'`,
    );
  }
  lines.push(
    '',
    'Make your own key (shown once):',
    `  npx landgraph keys create --name my-app --kind test --scopes ${NEWCOMER_SCOPES.join(',')}`,
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
  const help = helpFor(args);
  if (help) {
    process.stdout.write(help);
    return 0;
  }
  try {
    switch (command) {
      case 'serve':
      case undefined: {
        const config = loadConfig();
        const distributed = args.includes('--distributed') || config.mode === 'distributed';
        // hourly unless the environment says otherwise (0: none; run `landgraph land-supply rollup` from cron)
        const options = {
          landSupplyRollupEveryMs: config.landSupplyRollupEveryMs ?? LAND_SUPPLY_ROLLUP_EVERY_MS,
          suburbAnalyticsEveryMs: SUBURB_ANALYTICS_CHECK_EVERY_MS,
          jobWorker: true,
        };
        const running = distributed ? await startDistributed(config, options) : await serve(config, options);
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
            const { prepareDatabase } = await import('../app/runtime.ts');
            await prepareDatabase(db, config);
            return sandboxSamples(db, ALL_SAMPLE_CASES);
          });
          process.stdout.write(`${JSON.stringify(samples, null, 2)}\n`);
          return 0;
        }
        break;
      case 'ingest':
        if (sub === 'planning') return await runIngestPlanningCommand(rest);
        if (sub === 'hazards') return await runIngestHazardsCommand(rest);
        if (sub === 'buildings') return await runIngestBuildingsCommand(rest);
        if (sub === 'land-values') return await runIngestLandValuesCommand(rest);
        if (sub === 'soil') return await runIngestSoilCommand(rest);
        if (sub === 'easements') return await runIngestEasementsCommand(rest);
        if (sub === 'development-applications') return await runIngestDevelopmentCommand(rest);
        if (sub === 'spear') return await runIngestSpearCommand(rest);
        if (sub === 'census') return await runIngestCensusCommand(rest);
        if (sub === 'census-boundaries') return await runIngestCensusBoundariesCommand(rest);
        if (sub === 'nsw-sales') return await runIngestNswSalesCommand(rest);
        if (sub === 'nsw-rental-bonds') return await runIngestNswRentalBondsCommand(rest);
        if (sub === 'abs-building-approvals') return await runIngestAbsApprovalsCommand(rest);
        if (sub === 'abs-sa2-names') return await runIngestSa2NamesCommand(rest);
        if (sub === 'osm') return await runIngestOsmCommand(rest);
        if (sub === 'land-supply') return await runIngestLandSupplyCommand(rest);
        return await runIngestCommand(args.slice(1));
      case 'mirror':
        return await runMirrorCommand(args.slice(1));
      case 'land-supply':
        return await runLandSupplyCommand(args.slice(1));
      case 'suburb-analytics':
        return await runSuburbAnalyticsCommand(args.slice(1));
      case 'keys':
        setLogLevel('warn');
        return await runKeysCommand(args.slice(1));
      case 'worker':
        return await runWorkerCommand(args.slice(1));
      case 'webhooks':
        setLogLevel('warn');
        return await runWebhooksCommand(args.slice(1));
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
