/**
 * Which source folder may import which (DESIGN §5, docs/decisions.md "Composition root"). Read from
 * the files' import statements, so a rule broken anywhere, by a value or a type import, a
 * re-export or a dynamic import(), fails here rather than in a review.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const SOURCE_FOLDERS = ['app', 'cli', 'core', 'gateway', 'platform', 'rest-facade', 'subgraphs'] as const;
type Folder = (typeof SOURCE_FOLDERS)[number];

/** The source folders each folder must not import from, with the reason a failure prints. */
const FORBIDDEN: Partial<Record<Folder, { folders: Folder[]; why: string }>> = {
  'rest-facade': {
    folders: ['subgraphs'],
    why: 'the facade reads the graph, never a subgraph (shared limits and vocabularies live in core/)',
  },
  gateway: {
    folders: ['app', 'platform', 'rest-facade', 'cli'],
    why: 'the gateway composes and executes the graph; the composition root (app/) wires it to the rest',
  },
  core: {
    folders: ['app', 'cli', 'gateway', 'platform', 'rest-facade', 'subgraphs'],
    why: 'core/ is the plumbing every layer shares, below all of them',
  },
  subgraphs: { folders: ['app', 'cli', 'platform', 'rest-facade'], why: 'a subgraph answers its own layer only' },
  platform: { folders: ['app', 'cli', 'gateway', 'rest-facade', 'subgraphs'], why: 'keys and usage know no graph' },
};

type Import = { from: string; to: string };

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative import of every source file, as paths from the repository root. */
function relativeImports(): Import[] {
  return SOURCE_FOLDERS.flatMap((folder) =>
    sourceFiles(join(ROOT, folder)).flatMap((file) =>
      ts
        .preProcessFile(readFileSync(file, 'utf8'), true, true)
        .importedFiles.map((imported) => imported.fileName)
        .filter((name) => name.startsWith('.'))
        .map((name) => ({
          from: relative(ROOT, file).split(sep).join('/'),
          to: relative(ROOT, resolve(dirname(file), name))
            .split(sep)
            .join('/'),
        })),
    ),
  );
}

const folderOf = (path: string): string => path.split('/')[0] ?? '';

describe('layering: which folder may import which', () => {
  const imports = relativeImports();

  it('reads the imports it checks (static, type-only and dynamic)', () => {
    // a scanner that saw nothing would pass every rule below
    expect(imports).toEqual(
      expect.arrayContaining([
        { from: 'app/runtime.ts', to: 'gateway/graph.ts' },
        { from: 'app/runtime.ts', to: 'platform/keys.ts' },
        { from: 'rest-facade/app.ts', to: 'app/runtime.ts' },
        { from: 'cli/main.ts', to: 'app/runtime.ts' },
      ]),
    );
  });

  for (const [folder, rule] of Object.entries(FORBIDDEN)) {
    it(`${folder}/ imports nothing from ${rule.folders.join('/, ')}/: ${rule.why}`, () => {
      const broken = imports
        .filter((edge) => folderOf(edge.from) === folder && rule.folders.some((f) => folderOf(edge.to) === f))
        .map((edge) => `${edge.from} -> ${edge.to}`);
      expect(broken).toEqual([]);
    });
  }
});
