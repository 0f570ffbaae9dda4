import type { ChildProcess } from 'node:child_process';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { composeSupergraph } from '../gateway/compose.ts';
import { testConfig } from './support/runtime.ts';

type BuildModule = { compiledEntry: (root?: string) => string | undefined };

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BUILD = fileURLToPath(new URL('../bin/build.js', import.meta.url));
const { compiledEntry } = (await import(BUILD)) as BuildModule;

function compiledFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.js'))
    .map((e) => join(e.parentPath, e.name));
}

/** Resolves with the URL the server prints once it listens; rejects if it exits first. */
function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const seen = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /Landgraph is listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) resolve(url);
    };
    child.stdout?.on('data', seen);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`the built server exited (${code}) before listening:\n${output}`)));
  });
}

describe('the production build', () => {
  const children: ChildProcess[] = [];
  const temp: string[] = [];

  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    for (const dir of temp) rmSync(dir, { recursive: true, force: true });
  });

  it('counts as current only while no source is newer than the start of its build', () => {
    const root = mkdtempSync(join(tmpdir(), 'landgraph-build-'));
    temp.push(root);
    mkdirSync(join(root, 'core'));
    mkdirSync(join(root, 'dist', 'cli'), { recursive: true });
    writeFileSync(join(root, 'core', 'a.ts'), 'export {};\n');
    writeFileSync(join(root, 'dist', 'cli', 'main.js'), 'export {};\n');
    const past = new Date('2026-01-01T00:00:00Z');
    utimesSync(join(root, 'core', 'a.ts'), past, past);
    expect(compiledEntry(root)).toBeUndefined(); // never stamped: a build that did not finish
    writeFileSync(join(root, 'dist', '.build-stamp'), String(past.getTime() + 1000));
    expect(compiledEntry(root)).toBe(join(root, 'dist', 'cli', 'main.js'));
    const later = new Date(past.getTime() + 2000);
    utimesSync(join(root, 'core', 'a.ts'), later, later);
    expect(compiledEntry(root)).toBeUndefined();
  });

  it('starts from dist/ without TypeScript and answers /api/health', { timeout: 300_000 }, async () => {
    // a clean install built dist/ already (postinstall); this rebuilds only if a source changed since
    execFileSync(process.execPath, [BUILD], { cwd: ROOT, stdio: 'inherit' });
    const entry = compiledEntry();
    expect(entry).toBe(join(ROOT, 'dist', 'cli', 'main.js'));
    const stillTs = compiledFiles(join(ROOT, 'dist')).filter((file) =>
      /from '\.{1,2}\/[^']*\.ts'|import\('\.{1,2}\/[^']*\.ts'\)/.test(readFileSync(file, 'utf8')),
    );
    expect(stillTs).toEqual([]);
    // what the built server reads instead of composing at start: the sources' composition
    expect(readFileSync(join(ROOT, 'dist', 'gateway', 'supergraph.embedded.graphql'), 'utf8')).toBe(
      composeSupergraph(),
    );
    const config = testConfig({ PORT: '0' });
    // no tsx loader here: a .ts file reached from dist/ would fail to load
    const script = `const { main } = await import(${JSON.stringify(`file://${entry}`)}); process.exitCode = await main(['serve']);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        PORT: '0',
        DATABASE_URL: config.databaseUrl ?? '',
        LANDGRAPH_DATA_DIR: config.dataDir,
        LANDGRAPH_LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    const url = await listeningUrl(child);
    const response = await fetch(`${url}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'healthy' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
