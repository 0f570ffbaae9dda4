/**
 * `landgraph ingest osm --file <extract.osm | extract.osm.pbf> [--state CODE] [--dataset live] [--snapshot ID]`:
 * migrates the configured database and loads an OpenStreetMap extract's amenities and walking
 * network. Exit codes as the other ingests: 2 for bad input, 1 for a load that failed.
 */
import { parseArgs } from 'node:util';
import { MAX_PBF_BYTES } from './osm-read.ts';
import { type OsmIngestResult, loadOsm, prepareOsmIngest } from './osm.ts';
import { seconds } from './progress.ts';
import { formatCount, runIngest, UsageError } from './run.ts';

export const OSM_USAGE = `Usage: landgraph ingest osm --file <extract.osm | extract.osm.pbf> [--state CODE] [--dataset live] [--snapshot ID]
  --file PATH      an OpenStreetMap extract: OSM XML (.osm, streamed) or PBF (.osm.pbf, decoded in memory, up to
                   ${MAX_PBF_BYTES / 1048576} MB). Amenities (schools, childcare, supermarkets, transport stops, retail,
                   recreation, cafes, hospitals) and the walkable ways (footways, paths, residential streets...;
                   never motorways or trunk roads) are loaded; everything else is read past.
  --state CODE     load only what lies in this state (default: each object in the state it lies in)
  --dataset NAME   the dataset to load into (default: live; the sandbox is refused)
  --snapshot ID    names the load in its credit; its date is the layer's freshness (default: the file's name and date)
  The data is credited "© OpenStreetMap contributors" under the ODbL in every answer that carries it.
`;

export function formatOsmSummary(r: OsmIngestResult): string {
  const categories = Object.entries(r.byCategory)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([c, n]) => `${c} ${formatCount(n)}`)
    .join(', ');
  return `${[
    `OpenStreetMap ${r.file.name} (${r.file.format}) into dataset '${r.dataset}', snapshot ${r.snapshot} (${r.snapshotDate}), in ${seconds(r.ms)}`,
    `read ${formatCount(r.read.nodes)} nodes, ${formatCount(r.read.ways)} ways, ${formatCount(r.read.relations)} relations`,
    `amenities ${formatCount(r.amenities)}${categories ? ` (${categories})` : ''}`,
    `walking network: ${formatCount(r.walkableWays)} walkable ways as ${formatCount(r.edges)} edges between ${formatCount(r.nodes)} nodes` +
      (r.clippedWays > 0 ? `; ${formatCount(r.clippedWays)} ways cut by the extract's edge, loaded in pieces` : ''),
    `states: ${r.states.join(', ')}; outside them ${formatCount(r.elsewhere)}; amenity relations not assembled ${formatCount(r.relationsSkipped)}`,
    'credit: © OpenStreetMap contributors (ODbL)',
  ].join('\n')}\n`;
}

/** `args` are those after `ingest osm`. */
export function runIngestOsmCommand(args: string[]): Promise<number> {
  return runIngest(
    'osm',
    OSM_USAGE,
    async () => {
      let parsed;
      try {
        parsed = parseArgs({
          args,
          options: {
            file: { type: 'string' },
            state: { type: 'string' },
            dataset: { type: 'string' },
            snapshot: { type: 'string' },
          },
          strict: true,
          allowPositionals: true,
        });
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
      const [positional, ...extra] = parsed.positionals;
      if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
      const file = parsed.values.file ?? positional;
      if (!file) throw new UsageError('name the extract with --file');
      return prepareOsmIngest({ ...parsed.values, file });
    },
    loadOsm,
    formatOsmSummary,
  );
}
