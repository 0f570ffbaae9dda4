/**
 * `landgraph ingest easements <file> --state VIC|NSW|QLD [--dataset live] [--snapshot ID]`:
 * migrates the configured database and loads a state cadastre's easement polygons onto the
 * parcels they burden, progress on stderr and a summary on stdout. Exit codes as `ingest
 * planning`: 2 for bad input, 1 for a load that failed.
 */
import { type EasementsIngestResult, loadEasements, prepareEasementsIngest } from './easements.ts';
import { GEOJSONSEQ_EXTENSIONS } from './geojsonseq.ts';
import { seconds } from './progress.ts';
import { formatCount, noteLines, parseFileArgs, runIngest } from './run.ts';

export const EASEMENTS_USAGE = `Usage: landgraph ingest easements <file> --state VIC|NSW|QLD [--dataset live] [--snapshot ID]
  <file>           a state cadastre's easement polygons as GeoJSON, line-delimited GeoJSON (${GEOJSONSEQ_EXTENSIONS.join(' ')}),
                   FlatGeobuf (.fgb) or a shapefile's .shp, in longitude/latitude: the NSW DCDB easement layer (cadid, planlabel),
                   Vicmap Property easements (PFI, PLAN_NUMBER) or the Queensland DCDB's (LOT, PLAN, LOTPLAN).
                   The purpose and width are read where the layer gives them (a purpose or description such
                   as "DRAINAGE 3 WIDE"), else recorded as unknown. Each easement is tied to the parcels it lies
                   on in the dataset's cadastre (load the cadastre first); one on no parcel answers by bbox only.
  --state CODE     the state to load (VIC, NSW or QLD); easements in other states are left for their run
  --dataset NAME   the dataset to load into (default: live, which only live keys read; the sandbox is refused)
  --snapshot ID    names the load in its credit; its date is the layer's freshness (default: the file's
                   name and date)
`;

export function formatEasementsSummary(r: EasementsIngestResult): string {
  const unit = r.file.format === 'GeoJSONSeq' ? 'line' : 'feature';
  return `${[
    `Easements ${r.file.name} (${r.file.format}, ${r.file.crs}) into dataset '${r.dataset}', ${r.state}, snapshot ${r.snapshot} (${r.snapshotDate}), in ${seconds(r.ms)}`,
    `read ${formatCount(r.read)}, loaded ${formatCount(r.loaded)} as ${formatCount(r.parts)} parcel parts, not on a parcel ${formatCount(r.unlinked.length)}, purpose unknown ${formatCount(r.untyped)}, repaired ${formatCount(r.repaired.length)}, refused ${formatCount(r.refused.length)}, in other states ${formatCount(r.elsewhere)}`,
    `coverage: ${r.coverage} (the area the loaded easements span)`,
    `credit: ${r.credit.attribution} (${r.credit.license})`,
    ...noteLines('refused', unit, r.refused),
    ...noteLines('not on a parcel', unit, r.unlinked),
    ...noteLines('repaired', unit, r.repaired),
  ].join('\n')}\n`;
}

/** `args` are those after `ingest easements`. */
export function runIngestEasementsCommand(args: string[]): Promise<number> {
  return runIngest(
    'easements',
    EASEMENTS_USAGE,
    async () => {
      const { file, values } = parseFileArgs(
        args,
        { state: { type: 'string' }, dataset: { type: 'string' }, snapshot: { type: 'string' } },
        'easement',
        'name the state with --state',
      );
      return prepareEasementsIngest({ file, ...values });
    },
    loadEasements,
    formatEasementsSummary,
  );
}
