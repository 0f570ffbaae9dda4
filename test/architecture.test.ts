import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const SUBGRAPHS = join(ROOT, 'subgraphs');

/** Every TypeScript file under a folder, tracked or not, so a new file is held to the rule before it is committed. */
function typeScriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return typeScriptFiles(path);
    return /\.(ts|mts|cts)$/.test(entry.name) ? [path] : [];
  });
}

/**
 * The subgraph a path belongs to: its folder under subgraphs/. The files beside those folders
 * (index.ts, which registers every subgraph, and process.ts, the entry point they all run) are
 * no subgraph's.
 */
function subgraphOf(path: string): string | null {
  const parts = relative(SUBGRAPHS, path).split(sep);
  return parts[0] === '..' || parts.length === 1 ? null : parts[0]!;
}

/**
 * The imports of one file (static, re-exports, dynamic and type-only alike) that reach into
 * another subgraph's folder or the registry beside them. Only relative specifiers can: the
 * repository has no path aliases.
 */
function crossSubgraphImports(file: string, source: string): string[] {
  const own = subgraphOf(file);
  if (own === null) return [];
  return ts
    .preProcessFile(source, true, true)
    .importedFiles.map((imported) => imported.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .filter((specifier) => {
      const target = subgraphOf(resolve(dirname(file), specifier));
      return target !== null && target !== own;
    });
}

describe('subgraph boundaries', () => {
  it('no file under subgraphs/<a>/ imports from subgraphs/<b>/ (only subgraphs/index.ts registers them all)', () => {
    const offenders = typeScriptFiles(SUBGRAPHS).flatMap((file) =>
      crossSubgraphImports(file, readFileSync(file, 'utf8')).map(
        (specifier) => `${relative(ROOT, file)} imports ${specifier}`,
      ),
    );
    expect(offenders).toEqual([]);
  });

  it('catches every form a cross-subgraph import takes, and lets a subgraph import itself, core and the shared entry point', () => {
    const file = join(SUBGRAPHS, 'planning', 'sources', 'live.ts');
    const source = [
      "import { ArcGisLayerClient } from '../../cadastre/sources/arcgis.ts';",
      "import type { ParcelRow } from '../../cadastre/sql.ts';",
      "export { field } from '../../cadastre/sources/state-adapters.ts';",
      "const roads = await import('../../roads/data.ts');",
      "import { runSubgraphProcess } from '../../process.ts';",
      "import { ResilientService } from '../../../core/sources/resilient.ts';",
      "import type { ZoneRow } from '../sql.ts';",
      "import { PLANNING_PROFILES } from './profiles.ts';",
      "import ts from 'typescript';",
    ].join('\n');
    expect(crossSubgraphImports(file, source)).toEqual([
      '../../cadastre/sources/arcgis.ts',
      '../../cadastre/sql.ts',
      '../../cadastre/sources/state-adapters.ts',
      '../../roads/data.ts',
    ]);
    // The registry is the one place that knows every subgraph.
    expect(crossSubgraphImports(join(SUBGRAPHS, 'index.ts'), "import { x } from './cadastre/index.ts';")).toEqual([]);
  });

  it('the suburb-metrics providers are registered in one place (subgraphs/suburb-metrics.ts), which no subgraph imports', () => {
    const registry = join(SUBGRAPHS, 'suburb-metrics.ts');
    const imports = (file: string) =>
      ts
        .preProcessFile(readFileSync(file, 'utf8'), true, true)
        .importedFiles.map((imported) => resolve(dirname(file), imported.fileName));
    // every layer's provider is in the registry: a provider written but not registered fails here
    const providers = readdirSync(SUBGRAPHS, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(SUBGRAPHS, entry.name, 'suburb-metrics.ts'))
      .filter((path) => typeScriptFiles(dirname(path)).includes(path));
    expect(providers.length).toBeGreaterThanOrEqual(3);
    const registered = imports(registry);
    expect(providers.filter((path) => !registered.includes(path)).map((path) => relative(ROOT, path))).toEqual([]);
    // and no subgraph reaches back into the registry (a subgraph answers its own layer only)
    const offenders = typeScriptFiles(SUBGRAPHS)
      .filter((file) => subgraphOf(file) !== null && imports(file).includes(registry))
      .map((file) => relative(ROOT, file));
    expect(offenders).toEqual([]);
  });
});
