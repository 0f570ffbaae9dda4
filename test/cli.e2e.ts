import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { KEYS_USAGE } from '../cli/keys.ts';
import { main } from '../cli/main.ts';
import type { RunningServer } from '../cli/serve.ts';
import { serve } from '../cli/serve.ts';
import type { Config } from '../core/config.ts';
import { testConfig } from './support/runtime.ts';

const run = promisify(execFile);
const BIN = fileURLToPath(new URL('../bin/landgraph.js', import.meta.url));

function cli(args: string[], config: Config, env: Record<string, string> = {}) {
  return run(process.execPath, [BIN, ...args], {
    env: {
      ...process.env,
      DATABASE_URL: config.databaseUrl ?? '',
      LANDGRAPH_DATA_DIR: config.dataDir,
      LANDGRAPH_LOG_LEVEL: 'warn',
      ...env,
    },
    timeout: 120_000,
  });
}

describe('the landgraph command', () => {
  let server: RunningServer;
  let config: Config;

  beforeAll(async () => {
    config = testConfig({ PORT: '0' });
    server = await serve(config);
  });

  afterAll(async () => {
    await server.stop();
  });

  it('refuses to start when its port is taken, rather than reporting a server that never bound', async () => {
    const taken = new URL(server.url).port;
    await expect(serve({ ...config, port: Number(taken) })).rejects.toThrow(/EADDRINUSE|address already in use/);
    // the first server still answers: the failed start let go of only what it opened itself
    await request(server.url).get('/api/health').expect(200);
  });

  it('prints sandbox samples as JSON while the server holds the database', async () => {
    const { stdout } = await cli(['sandbox', 'samples'], config);
    const samples = JSON.parse(stdout) as Array<{
      gnaf_pid: string;
      address: string;
      lat: number;
      lng: number;
      state: string;
      parcel_pfi: string | null;
    }>;
    expect(samples.length).toBeGreaterThanOrEqual(5);
    expect(new Set(samples.map((s) => s.state))).toEqual(new Set(['VIC', 'NSW', 'QLD']));
    // The README's example address is one the command prints (test/readme-examples.test.ts runs the rest).
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const named = /written the G-NAF way, e\.g\. `([^`]+)`/.exec(readme)?.[1];
    expect(samples.map((s) => s.address)).toContain(named);
    const first = samples.find((s) => s.parcel_pfi)!;
    // A key made by the CLI in another process, while the server holds the database.
    const created = await cli(
      [
        'keys',
        'create',
        '--name',
        'cli-e2e',
        '--kind',
        'test',
        '--scopes',
        'cadastre.read',
        '--embed-allow-list',
        'https://maps.example.com,http://localhost:5173',
      ],
      config,
    );
    const { secret, id, scopes, embedAllowList } = JSON.parse(created.stdout) as {
      secret: string;
      id: string;
      scopes: string[];
      embedAllowList: string[];
    };
    expect(secret).toMatch(/^landgraph_test_[A-Za-z0-9]{32}$/);
    expect(scopes).toEqual(['cadastre.read']);
    expect(embedAllowList).toEqual(['https://maps.example.com', 'http://localhost:5173']);
    const res = await request(server.url)
      .get('/api/cadastre/lookup')
      .set('Authorization', `Bearer ${secret}`)
      .set('Origin', 'https://maps.example.com')
      .query({ lat: first.lat, lng: first.lng, state: first.state })
      .expect(200);
    expect(res.body.data.properties.parcel_pfi).toBe(first.parcel_pfi);
    expect(res.headers['access-control-allow-origin']).toBe('https://maps.example.com');
    // Rotation by the CLI: the old secret stops working at once, the new one works.
    const rotated = JSON.parse((await cli(['keys', 'rotate', id], config)).stdout) as { secret: string };
    await request(server.url)
      .get('/api/cadastre/lookup')
      .set('Authorization', `Bearer ${secret}`)
      .query({ lat: first.lat, lng: first.lng })
      .expect(401);
    await request(server.url)
      .get('/api/cadastre/lookup')
      .set('Authorization', `Bearer ${rotated.secret}`)
      .query({ lat: first.lat, lng: first.lng, state: first.state })
      .expect(200);
    const listed = JSON.parse((await cli(['keys', 'list'], config)).stdout) as Array<Record<string, unknown>>;
    expect(JSON.stringify(listed)).not.toContain(rotated.secret);
  });

  // nine commands, each a process of its own that opens the database: more than the default time on a busy machine
  it(
    "changes a key's monthly export allowance after creation; refuses bad numbers and unknown keys",
    { timeout: 300_000 },
    async () => {
      const created = JSON.parse(
        (
          await cli(
            [
              'keys',
              'create',
              '--name',
              'allowance-e2e',
              '--kind',
              'test',
              '--scopes',
              'cadastre.read',
              '--capabilities',
              'bulk_export',
              '--export-rows-monthly',
              '100',
            ],
            config,
          )
        ).stdout,
      ) as { id: string; secret: string; exportRowsMonthly: number | null };
      expect(created.exportRowsMonthly).toBe(100);
      const usage = async () =>
        (
          await request(server.url)
            .get('/v1/exports/usage')
            .set('Authorization', `Bearer ${created.secret}`)
            .expect(200)
        ).body as { allowance: number; allowance_source: string };
      expect(await usage()).toMatchObject({ allowance: 100, allowance_source: 'key' });

      const set = await cli(['keys', 'set-export-allowance', created.id, '2500'], config);
      expect(JSON.parse(set.stdout)).toMatchObject({ id: created.id, exportRowsMonthly: 2500 });
      // the running server answers with the new allowance at once
      expect(await usage()).toMatchObject({ allowance: 2500, allowance_source: 'key' });

      for (const bad of ['abc', '-5', '1.5', '99999999999']) {
        await expect(cli(['keys', 'set-export-allowance', created.id, bad], config), bad).rejects.toMatchObject({
          code: 2,
          stderr: expect.stringContaining(
            `ROWS must be a whole number of rows a month from 0 to 2147483647, or \`default\`; got '${bad}'.`,
          ),
        });
      }
      await expect(cli(['keys', 'set-export-allowance', created.id], config)).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringMatching(/needs a key id and the rows a month/),
      });
      await expect(cli(['keys', 'set-export-allowance', 'key_nosuchkey', '10'], config)).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/No key with id key_nosuchkey/),
      });
      // the refusals changed nothing
      expect(await usage()).toMatchObject({ allowance: 2500 });

      // no export rows a month is a setting at creation too, as set-export-allowance takes it
      const none = JSON.parse(
        (
          await cli(
            ['keys', 'create', '--name', 'no-rows-e2e', '--kind', 'test', '--scopes', 'cadastre.read'].concat([
              '--capabilities',
              'bulk_export',
              '--export-rows-monthly',
              '0',
            ]),
            config,
          )
        ).stdout,
      ) as { exportRowsMonthly: number | null };
      expect(none.exportRowsMonthly).toBe(0);
      await expect(
        cli(['keys', 'create', '--name', 'x', '--kind', 'test', '--export-rows-monthly=-1'], config),
      ).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/must be a whole number from 0, got '-1'/) });

      const reset = await cli(['keys', 'set-export-allowance', created.id, 'default'], config);
      expect(JSON.parse(reset.stdout)).toMatchObject({ id: created.id, exportRowsMonthly: null });
      expect(await usage()).toEqual(
        expect.objectContaining({ allowance: config.exportRowsMonthly, allowance_source: 'default' }),
      );
    },
  );

  it('exports the cadastre mirror as an object-store snapshot, and says what it needs when unset', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'landgraph-store-'));
    try {
      const { stdout } = await cli(['mirror', 'export-cadastre', '--state', 'QLD'], config, {
        LANDGRAPH_OBJECT_STORE_DIR: dir,
      });
      expect(stdout).toMatch(/^QLD: \d+ parcels in \d+ tiles/m);
      const manifest = JSON.parse(readFileSync(join(dir, 'cadastre', 'manifest.json'), 'utf8')) as {
        datasets: { sandbox: Record<string, { parcels: number }> };
      };
      expect(manifest.datasets.sandbox.QLD!.parcels).toBeGreaterThan(100);
      const refused = await cli(['mirror', 'export-cadastre'], config).catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect(refused).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(/LANDGRAPH_OBJECT_STORE_DIR is not set/),
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serves the Apollo Sandbox landing page at /graphql to a browser', async () => {
    const res = await request(server.url).get('/graphql').set('Accept', 'text/html').expect(200);
    expect(res.text).toMatch(/Apollo/i);
    expect(res.text).toMatch(/sandbox/i);
  });

  it('explains its usage and fails with exit code 2 on an unknown command', async () => {
    const help = await cli(['--help'], config);
    expect(help.stdout).toMatch(/sandbox seed/);
    await expect(cli(['frobnicate'], config)).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/Unknown command: frobnicate/),
    });
  });

  it('refuses a malformed setting at start with a clear message', async () => {
    await expect(
      run(process.execPath, [BIN, 'migrate'], { env: { ...process.env, PORT: 'abc' }, timeout: 60_000 }),
    ).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/Invalid configuration: PORT/) });
  });
});

/** main() in this process, with what it writes to stdout and stderr. */
async function runMain(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  try {
    return { code: await main(args), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe('--help', () => {
  /**
   * Every command the top-level usage lists (with its subcommand where it names one) and every
   * subcommand of `keys`, read from the usage texts themselves so a new command is covered too.
   */
  async function commandPaths(): Promise<string[][]> {
    const usage = (await runMain(['--help'])).stdout;
    const paths = new Map<string, string[]>();
    for (const m of usage.matchAll(/^ {2}([a-z][\w-]*)(?: ([a-z][\w-]*))?(?=\s|$)/gm)) {
      const path = m[2] ? [m[1]!, m[2]] : [m[1]!];
      paths.set(path.join(' '), path);
      paths.set(m[1]!, [m[1]!]);
    }
    for (const m of KEYS_USAGE.matchAll(/^ {2}([a-z][\w-]*)(?=\s|$)/gm)) paths.set(`keys ${m[1]}`, ['keys', m[1]!]);
    paths.delete('help');
    return [...paths.values()];
  }

  it('answers on every command and subcommand with its usage, runs nothing and knows no "Unknown option"', async () => {
    const paths = await commandPaths();
    const names = paths.map((p) => p.join(' '));
    expect(names).toEqual(
      expect.arrayContaining([
        'serve',
        'sandbox seed',
        'sandbox samples',
        'ingest gnaf',
        'ingest planning',
        'ingest hazards',
        'ingest development-applications',
        'ingest spear',
        'ingest census',
        'ingest census-boundaries',
      ]),
    );
    expect(names).toEqual(
      expect.arrayContaining([
        'mirror export-cadastre',
        'keys create',
        'keys set-export-allowance',
        'migrate',
        'compose',
      ]),
    );
    for (const path of paths) {
      for (const args of [
        [...path, '--help'],
        [...path, '-h'],
        ['help', ...path],
      ]) {
        const res = await runMain(args);
        const shown = args.join(' ');
        expect(res.code, shown).toBe(0);
        expect(res.stderr, shown).toBe('');
        expect(res.stdout, shown).toMatch(/^Usage: landgraph /);
        expect(res.stdout, shown).toContain(`landgraph ${path[0]}`);
        expect(res.stdout, shown).not.toMatch(/Unknown (option|command)/i);
      }
    }
    // Help after other options too, where an option parser would otherwise meet it first.
    const late = await runMain(['keys', 'create', '--name', 'x', '--help']);
    expect(late).toMatchObject({ code: 0, stderr: '' });
    expect(late.stdout).toContain('--embed-allow-list');
  });

  it('says ingest writes the live dataset by default, read with a live key', async () => {
    for (const sub of [
      'gnaf',
      'planning',
      'hazards',
      'buildings',
      'land-values',
      'soil',
      'easements',
      'development-applications',
      'spear',
      'census',
      'census-boundaries',
    ]) {
      const { stdout } = await runMain(['ingest', sub, '--help']);
      expect(stdout, sub).toMatch(/default: live/);
      expect(stdout, sub).toMatch(/live key/);
    }
  });

  it('works in a real process without starting anything, even for serve', async () => {
    const config = testConfig();
    for (const args of [
      ['serve', '--help'],
      ['ingest', 'planning', '--help'],
      ['keys', 'rotate', '--help'],
    ]) {
      const { stdout, stderr } = await cli(args, config);
      expect(stdout, args.join(' ')).toMatch(/^Usage: landgraph /);
      expect(stderr, args.join(' ')).not.toMatch(/Unknown option/);
    }
  });
});
