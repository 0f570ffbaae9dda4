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

/**
 * The Postgres schema each subgraph owns (DESIGN.md 2: each subgraph owns its own tables, in its
 * own schema). The schema is the folder's name but for demographics, whose tables are the
 * Census's. A schema made by a migration that is neither here nor the platform's fails below.
 */
const OWNED_SCHEMA: Record<string, string> = {
  address: 'address',
  amenities: 'amenities',
  analytics: 'analytics',
  cadastre: 'cadastre',
  demographics: 'census',
  development: 'development',
  hazards: 'hazards',
  land: 'land',
  market: 'market',
  planning: 'planning',
  roads: 'roads',
  soil: 'soil',
  supply: 'supply',
  terrain: 'terrain',
};
/** Schemas no subgraph owns: the platform module's (accounts, keys, usage, jobs). */
const NOT_A_LAYER = ['platform'];

/**
 * The exceptions left, each with its reason. A batch job (the suburb analytics rollup,
 * core/suburb-metrics.ts, which the request path never loads) may read another layer's tables
 * read-only: one set-based statement per state, where the graph would be one entity fetch per
 * suburb. A request-path entry is debt, not a licence: it names what still has to move to the
 * graph. An entry a file no longer needs fails the test, so the list only shrinks.
 */
const CROSS_SCHEMA_ALLOWED: ReadonlyArray<{
  file: string;
  schemas: string[];
  kind: 'batch' | 'request path: to move';
  why: string;
}> = [
  {
    file: 'subgraphs/amenities/suburb-metrics.ts',
    schemas: ['address', 'census'],
    kind: 'batch',
    why: "the suburb extent (SAL boundary, else the address hull) of every suburb of a state; decisions.md 'The suburb-analytics amenities provider draws the same extent'",
  },
  {
    file: 'subgraphs/hazards/suburb-metrics.ts',
    schemas: ['address', 'cadastre'],
    kind: 'batch',
    why: "a suburb's land is the cadastre parcels addressed in it; decisions.md 'Suburb land for the hazard shares'",
  },
  {
    file: 'subgraphs/market/suburb-metrics.ts',
    schemas: ['address', 'development', 'supply'],
    kind: 'batch',
    why: "every suburb of a state with its postcode, and the pipeline counts the bundle's market section carries",
  },
];

/**
 * The SQL text of a file: every string and template literal that reads as SQL (a statement
 * keyword in it), template parts joined with a blank where a bound value stood. Comments and
 * code (`ctx.address.byParcel`, scope names like 'address.read') are not SQL and are not read.
 */
function sqlLiterals(file: string, source: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    let text: string | null = null;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) text = node.text;
    else if (ts.isTemplateExpression(node)) {
      text = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ');
    }
    if (text !== null && /\b(SELECT|INSERT|UPDATE|DELETE|FROM|JOIN)\b/i.test(text)) found.push(text);
    // a template's spans are walked for the SQL nested in its ${...} (a fragment built inline)
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true));
  return found;
}

/** The schemas of other subgraphs that a file's SQL names (`schema.table`), each once. */
function foreignSchemas(file: string, source: string): string[] {
  const own = subgraphOf(file);
  if (own === null) return [];
  const others = Object.entries(OWNED_SCHEMA)
    .filter(([subgraph]) => subgraph !== own)
    .map(([, schema]) => schema);
  const named = new Set<string>();
  for (const sql of sqlLiterals(file, source)) {
    // a CTE may carry a schema's name (hazards' `land AS (...)`): `land.area_m2` is then its column
    const ctes = new Set(
      [...sql.matchAll(/\b([a-z_]+)\s+AS\s+(?:NOT\s+)?(?:MATERIALIZED\s+)?\(/gi)].map((m) => m[1]!.toLowerCase()),
    );
    // a schema-qualified name: not the tail of a longer name (a.address.x) nor of a hyphenated word
    for (const match of sql.matchAll(/(?<![\w.$-])"?([a-z_]+)"?\.[a-z_]+/gi)) {
      const schema = match[1]!.toLowerCase();
      if (others.includes(schema) && !ctes.has(schema)) named.add(schema);
    }
  }
  return [...named].sort();
}

describe('data ownership', () => {
  it("no subgraph's SQL names another subgraph's schema, outside its listed exceptions (batch rollups, request-path debt)", () => {
    const offenders: string[] = [];
    const used = new Set<string>();
    for (const file of typeScriptFiles(SUBGRAPHS)) {
      const path = relative(ROOT, file).split(sep).join('/');
      if (path.includes('/generated/')) continue;
      const allowed = CROSS_SCHEMA_ALLOWED.find((entry) => entry.file === path);
      for (const schema of foreignSchemas(file, readFileSync(file, 'utf8'))) {
        if (allowed?.schemas.includes(schema)) used.add(`${path}:${schema}`);
        else offenders.push(`${path} reads ${schema}.*`);
      }
    }
    expect(offenders).toEqual([]);
    // an exception the file no longer needs goes from the list
    const stale = CROSS_SCHEMA_ALLOWED.flatMap((entry) =>
      entry.schemas.map((schema) => `${entry.file}:${schema}`),
    ).filter((entry) => !used.has(entry));
    expect(stale).toEqual([]);
  });

  it('knows the owner of every schema the migrations make', () => {
    const migrations = join(ROOT, 'prisma', 'migrations');
    const made = new Set<string>();
    for (const dir of readdirSync(migrations, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
      const sql = readFileSync(join(migrations, dir.name, 'migration.sql'), 'utf8');
      for (const match of sql.matchAll(/CREATE SCHEMA (?:IF NOT EXISTS )?"?([a-z_]+)/gi))
        made.add(match[1]!.toLowerCase());
    }
    const known = [...Object.values(OWNED_SCHEMA), ...NOT_A_LAYER];
    expect([...made].filter((schema) => !known.includes(schema))).toEqual([]);
    // and every subgraph folder has its owner entry
    const folders = readdirSync(SUBGRAPHS, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.sort()).toEqual(Object.keys(OWNED_SCHEMA).sort());
  });

  it('reads a foreign schema in SQL strings and templates, not in code, comments or scope names', () => {
    const file = join(SUBGRAPHS, 'market', 'sql.ts');
    const source = [
      "// address.locality is the address layer's",
      "const SCOPE = 'address.read';",
      'const pid = ctx.address.byParcel;',
      'const q = Prisma.sql`SELECT s.price FROM market.sale s WHERE s.state = ${state}`;',
      'const r = Prisma.sql`SELECT 1 FROM market.sale s, ${x} JOIN supply.lot l ON true`;',
      'const t = \'SELECT count(*) FROM "development".application\';',
      'const u = `WITH k AS (SELECT 1) SELECT * FROM k WHERE EXISTS (SELECT 1 FROM address.locality l)`;',
      // a CTE named like a schema is the CTE
      'const v = Prisma.sql`WITH land AS MATERIALIZED (SELECT 1 AS area_m2) SELECT land.area_m2 FROM land`;',
    ].join('\n');
    expect(foreignSchemas(file, source)).toEqual(['address', 'development', 'supply']);
    // a subgraph's own schema is its to read
    expect(foreignSchemas(join(SUBGRAPHS, 'supply', 'sql.ts'), source)).toEqual(['address', 'development', 'market']);
  });
});
