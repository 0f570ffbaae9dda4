import type { Database } from './db.ts';
import type { Dataset } from './context.ts';
import type { Provenance } from './layer.ts';

const TTL_MS = 30_000;

/**
 * Credits and licences of every loaded dataset, per layer and state. They change only when
 * an ingest runs, so one read serves many requests; ingests call `invalidate`.
 */
export class ProvenanceCatalog {
  private rows: Map<string, Provenance> | undefined;
  private loadedAt = 0;
  private loading: Promise<Map<string, Provenance>> | undefined;

  constructor(private readonly db: Database) {}

  invalidate(): void {
    this.rows = undefined;
  }

  async get(dataset: Dataset, layer: string, state: string): Promise<Provenance | undefined> {
    const rows = await this.load();
    return rows.get(`${dataset}:${layer}:${state}`);
  }

  private async load(): Promise<Map<string, Provenance>> {
    if (this.rows && Date.now() - this.loadedAt < TTL_MS) return this.rows;
    this.loading ??= this.db.prisma.datasetSource
      .findMany()
      .then((result) => {
        const rows = new Map<string, Provenance>();
        for (const r of result) {
          rows.set(`${r.dataset}:${r.layer}:${r.state}`, {
            attribution: r.attribution,
            license: r.license,
            source: `mirror:${r.state.toLowerCase()}/${r.layer}@${r.snapshotId}`,
            // the snapshot's date is the day it was loaded into the mirror (UTC)
            freshness: r.loadedAt.toISOString().slice(0, 10),
          });
        }
        this.rows = rows;
        this.loadedAt = Date.now();
        return rows;
      })
      .finally(() => {
        this.loading = undefined;
      });
    return this.loading;
  }
}
