import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** Every file git tracks, as a fresh clone has them. */
function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
}

describe('a fresh clone carries everything its tests and ingest examples read', () => {
  it('no code, test or script reads a folder beside the clone', () => {
    const outside = /(\.\.\/)+shared\//;
    const offenders = trackedFiles()
      .filter((path) => /\.(ts|js|mjs|cjs|json|sh)$/.test(path) && !path.startsWith('.ci/'))
      .filter((path) => existsSync(join(ROOT, path)))
      .filter((path) =>
        readFileSync(join(ROOT, path), 'utf8')
          .split('\n')
          .some((line) => outside.test(line) && !/^\s*(\*|\/\/|#)/.test(line)),
      );
    expect(offenders).toEqual([]);
  });

  it('every real sample in data/samples says where it came from, its licence and its credit', () => {
    const samples = readdirSync(join(ROOT, 'data/samples'), { withFileTypes: true }).filter((e) => e.isDirectory());
    expect(samples.map((s) => s.name)).toEqual(
      expect.arrayContaining(['gnaf-authority-street-type', 'gnaf-mapping-oracle-addressr', 'vicmap-planning-bendigo']),
    );
    for (const sample of samples) {
      const source = readFileSync(join(ROOT, 'data/samples', sample.name, 'SOURCE.txt'), 'utf8');
      expect(source, sample.name).toMatch(/Repo:/);
      expect(source, sample.name).toMatch(/licen[cs]e/i);
      expect(source, sample.name).toMatch(/Attribution:/);
    }
  });
});
