/**
 * `landgraph mirror export-cadastre`: writes the database mirror's parcels as an object-store
 * snapshot (tiles, coverage, PFI index, manifest) under LANDGRAPH_OBJECT_STORE_DIR, the
 * second source lookups fall back to where the database mirror does not reach.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../core/config.ts';
import { openDatabase } from '../core/db.ts';
import { isStateCode } from '../core/geo.ts';
import { FileObjectStore } from '../subgraphs/cadastre/sources/object-store.ts';
import { exportCadastreSnapshot } from '../subgraphs/cadastre/sources/snapshot-export.ts';

export const MIRROR_USAGE = `Usage: landgraph mirror export-cadastre [--dataset sandbox|live] [--state VIC] [--zoom 15]
  Needs LANDGRAPH_OBJECT_STORE_DIR: the folder the snapshot is written to.
`;

export async function runMirrorCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'export-cadastre') {
    process.stderr.write(MIRROR_USAGE);
    return 2;
  }
  const { values } = parseArgs({
    args: rest,
    options: { dataset: { type: 'string', default: 'sandbox' }, state: { type: 'string' }, zoom: { type: 'string' } },
  });
  const dataset = values.dataset;
  if (dataset !== 'sandbox' && dataset !== 'live') {
    process.stderr.write(`--dataset must be sandbox or live, got '${dataset}'.\n`);
    return 2;
  }
  const state = values.state?.toUpperCase();
  if (state !== undefined && !isStateCode(state)) {
    process.stderr.write(`Unknown state '${values.state}'.\n`);
    return 2;
  }
  const zoom = values.zoom === undefined ? undefined : Number(values.zoom);
  if (zoom !== undefined && (!Number.isInteger(zoom) || zoom < 10 || zoom > 18)) {
    process.stderr.write(`--zoom must be a whole number from 10 to 18, got '${values.zoom}'.\n`);
    return 2;
  }
  const config = loadConfig();
  if (!config.objectStoreDir) {
    process.stderr.write(`LANDGRAPH_OBJECT_STORE_DIR is not set.\n${MIRROR_USAGE}`);
    return 2;
  }
  const db = await openDatabase(config);
  try {
    const result = await exportCadastreSnapshot(db, new FileObjectStore(config.objectStoreDir), {
      dataset: dataset,
      ...(state ? { state } : {}),
      ...(zoom ? { zoom } : {}),
    });
    for (const s of result.states)
      process.stdout.write(`${s.state}: ${s.parcels} parcels in ${s.tiles} tiles (snapshot ${s.snapshot})\n`);
    process.stdout.write(`wrote ${result.tiles} tiles at zoom ${result.zoom} to ${config.objectStoreDir}\n`);
    return 0;
  } finally {
    await db.close();
  }
}
