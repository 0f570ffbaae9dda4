#!/usr/bin/env node
// The production build: the TypeScript sources compiled to dist/ (tsconfig.build.json), with the
// files the code reads beside itself (GraphQL schemas, migrations, the supergraph, the changelog)
// copied into the same layout, and the embedded supergraph composed, so `npm start` runs plain
// JavaScript and compiles nothing.
// `node bin/build.js` builds when dist/ is older than any source; `--force` builds regardless.
// Plain JavaScript, since it must run before anything is compiled.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Folders compiled, and the single files whose change also means a rebuild. */
const SOURCE_DIRS = ['app', 'cli', 'core', 'gateway', 'generated', 'platform', 'prisma', 'rest-facade', 'subgraphs'];
const SOURCE_FILES = ['CHANGELOG.md', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];
/** Files read at run time through import.meta.url, copied beside the compiled code. */
const ASSET = /\.(graphql|sql)$/;
const ASSET_FILES = ['CHANGELOG.md'];
const STAMP = '.build-stamp';

function walk(dir, visit) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, visit);
    else visit(path);
  }
}

/** The newest modification time among the sources, in ms. */
export function newestSource(root = ROOT) {
  let newest = 0;
  const see = (path) => {
    newest = Math.max(newest, statSync(path).mtimeMs);
  };
  for (const dir of SOURCE_DIRS) if (existsSync(join(root, dir))) walk(join(root, dir), see);
  for (const file of SOURCE_FILES) if (existsSync(join(root, file))) see(join(root, file));
  return newest;
}

/**
 * The compiled CLI entry when dist/ was built from the sources as they are now; undefined when
 * it is missing or any source changed since its build began (the stamp holds that start time).
 */
export function compiledEntry(root = ROOT) {
  const entry = join(root, 'dist', 'cli', 'main.js');
  const stamp = join(root, 'dist', STAMP);
  if (!existsSync(entry) || !existsSync(stamp)) return undefined;
  const builtFrom = Number(readFileSync(stamp, 'utf8'));
  return Number.isFinite(builtFrom) && newestSource(root) <= builtFrom ? entry : undefined;
}

export function build(root = ROOT) {
  const started = Date.now();
  const dist = join(root, 'dist');
  rmSync(join(dist, STAMP), { force: true });
  let tsc;
  try {
    tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    // an install without dev dependencies: bin/landgraph.js runs the sources through tsx instead
    process.stdout.write('TypeScript is not installed: no build; landgraph will run its sources through tsx\n');
    return false;
  }
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
  for (const dir of SOURCE_DIRS) {
    if (!existsSync(join(root, dir))) continue;
    walk(join(root, dir), (path) => {
      if (!ASSET.test(path)) return;
      const target = join(dist, relative(root, path));
      mkdirSync(dirname(target), { recursive: true });
      cpSync(path, target);
    });
  }
  for (const file of ASSET_FILES) cpSync(join(root, file), join(dist, file));
  // the embedded supergraph, composed once here rather than at every start (gateway/graph.ts)
  const compose = pathToFileURL(join(dist, 'gateway', 'compose.js')).href;
  const supergraph = execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { composeSupergraph } = await import(${JSON.stringify(compose)}); process.stdout.write(composeSupergraph());`,
    ],
    { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  writeFileSync(join(dist, 'gateway', 'supergraph.embedded.graphql'), supergraph);
  writeFileSync(join(dist, STAMP), String(started));
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--force') || !compiledEntry()) {
    const started = Date.now();
    if (build()) process.stdout.write(`built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
}
