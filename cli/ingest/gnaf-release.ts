/**
 * Finds the files of a G-NAF release below a folder, in the layout Geoscape publishes it:
 *
 *   G-NAF/G-NAF NOVEMBER 2025/Standard/QLD_ADDRESS_DETAIL_psv.psv
 *   G-NAF/G-NAF NOVEMBER 2025/Authority Code/Authority_Code_STREET_TYPE_AUT_psv.psv
 *
 * The folder may be the unzipped archive or any folder above or inside it; only file names
 * matter. Tables this ingest does not load (ADDRESS_SITE, mesh blocks, ...) are passed over.
 */
import { readdirSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { isStateCode, type StateCode, STATES } from '../../core/geo.ts';

export class IngestError extends Error {}

/** The per-state tables this ingest loads, in load order: every table before those citing it. */
export const STATE_TABLES = [
  'STATE',
  'LOCALITY',
  'LOCALITY_ALIAS',
  'STREET_LOCALITY',
  'STREET_LOCALITY_ALIAS',
  'ADDRESS_DETAIL',
  'ADDRESS_DEFAULT_GEOCODE',
  'ADDRESS_ALIAS',
] as const;
export type StateTable = (typeof STATE_TABLES)[number];

/** Without these a state's addresses cannot be formatted or placed; the alias tables may be absent. */
const REQUIRED_TABLES: readonly StateTable[] = [
  'STATE',
  'LOCALITY',
  'STREET_LOCALITY',
  'ADDRESS_DETAIL',
  'ADDRESS_DEFAULT_GEOCODE',
];

export interface AuthorityFile {
  /** The authority table: STREET_TYPE for Authority_Code_STREET_TYPE_AUT_psv.psv. */
  readonly authority: string;
  readonly path: string;
}

export interface Release {
  readonly root: string;
  /** The release folder's name as a slug ("g-naf-november-2025"), unless one was given. */
  readonly name: string;
  readonly authorityFiles: readonly AuthorityFile[];
  readonly states: ReadonlyMap<StateCode, ReadonlyMap<StateTable, string>>;
}

const STATE_FILE = /^([A-Za-z]+)_([A-Z_]+)_psv\.psv$/;
const AUTHORITY_FILE = /^Authority_Code_([A-Z_]+)_AUT_psv\.psv$/;

const isStateTable = (value: string): value is StateTable => (STATE_TABLES as readonly string[]).includes(value);

export const slug = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

function walk(folder: string, found: string[]): void {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch (error) {
    throw new IngestError(`cannot read ${folder}: ${(error as Error).message}`);
  }
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) walk(path, found);
    else if (entry.isFile() && entry.name.endsWith('_psv.psv')) found.push(path);
  }
}

/** The states asked for (`--states VIC,NSW`), checked against G-NAF's list. */
export function parseStates(list: string): StateCode[] {
  const states = list
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean);
  const unknown = states.filter((s) => !isStateCode(s));
  if (unknown.length > 0 || states.length === 0) {
    throw new IngestError(
      `unknown state${unknown.length === 1 ? '' : 's'} "${unknown.join(', ') || list}": G-NAF's are ${STATES.join(', ')}`,
    );
  }
  return states.filter(isStateCode);
}

/** The release below `root`, limited to `only` when given; throws an IngestError naming what is wrong. */
export function findRelease(root: string, only?: readonly StateCode[], name?: string): Release {
  const paths: string[] = [];
  walk(root, paths);
  const authorityFiles: AuthorityFile[] = [];
  const states = new Map<StateCode, Map<StateTable, string>>();
  const claim = (map: Map<string, string>, key: string, path: string) => {
    const earlier = map.get(key);
    if (earlier) {
      throw new IngestError(
        `two copies of ${basename(path)} below ${root} (${relative(root, earlier)} and ${relative(root, path)}): point at one release`,
      );
    }
    map.set(key, path);
  };
  const authorityPaths = new Map<string, string>();
  for (const path of paths.sort()) {
    const file = basename(path);
    const authority = AUTHORITY_FILE.exec(file);
    if (authority?.[1]) {
      claim(authorityPaths, authority[1], path);
      authorityFiles.push({ authority: authority[1], path });
      continue;
    }
    const match = STATE_FILE.exec(file);
    if (!match?.[1] || !match[2] || !isStateTable(match[2])) continue;
    const state = match[1].toUpperCase();
    if (!isStateCode(state)) {
      throw new IngestError(`${relative(root, path)}: unknown state "${match[1]}" (G-NAF's are ${STATES.join(', ')})`);
    }
    const tables = states.get(state) ?? new Map<StateTable, string>();
    states.set(state, tables);
    claim(tables, match[2], path);
  }
  if (states.size === 0) {
    throw new IngestError(
      `no G-NAF files below ${root}: expected Standard/<STATE>_ADDRESS_DETAIL_psv.psv and the other tables of a release`,
    );
  }
  const selected = new Map<StateCode, Map<StateTable, string>>();
  for (const state of only ?? STATES.filter((s) => states.has(s))) {
    const tables = states.get(state);
    if (!tables) throw new IngestError(`no G-NAF files for ${state} below ${root}`);
    const missing = REQUIRED_TABLES.filter((t) => !tables.has(t));
    if (missing.length > 0) {
      throw new IngestError(
        `${state} is incomplete below ${root}: no ${missing.map((t) => `${state}_${t}_psv.psv`).join(', ')}`,
      );
    }
    selected.set(state, tables);
  }
  // The folder holding Standard/ is named for the release ("G-NAF NOVEMBER 2025").
  const [firstTables] = selected.values();
  const anyFile = firstTables?.get('ADDRESS_DETAIL') ?? paths[0] ?? root;
  const releaseName = name ?? slug(basename(dirname(dirname(anyFile))));
  return { root, name: releaseName || 'gnaf', authorityFiles, states: selected };
}
