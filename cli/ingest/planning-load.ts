/**
 * The features of one planning file written into their tables inside the run's transaction:
 * rows batched per layer, each batch one upsert that mends invalid shapes in PostGIS and says
 * which it mended and which had no area left. Every refusal and repair is kept with the
 * feature's number and PFI for the summary; nothing is dropped without a line saying why.
 */
import type { QueryFn } from '../../core/db.ts';
import { cleanPolygons, RefusedGeometry } from './planning-geometry.ts';
import type { LayoutPlan, PlanningLayer, PlanningRow } from './planning-layout.ts';
import { RefusedAttributes } from './planning-layout.ts';
import * as SQL from './planning-sql.ts';
import type { FeatureSource, SourceFeature } from './planning-source.ts';

export interface LayerCount {
  readonly layer: PlanningLayer;
  /** Features of the file that belong in this layer. */
  read: number;
  loaded: number;
  repaired: number;
  refused: number;
}

/** A refused or repaired feature: where it is, its key, and what was wrong. */
export interface FeatureNote {
  readonly file: string;
  readonly feature: number;
  readonly key: string | null;
  readonly reason: string;
}

type Pending = {
  readonly row: PlanningRow;
  readonly geojson: string;
  readonly note: Omit<FeatureNote, 'reason'>;
  readonly repairs: readonly string[];
};

const SQL_OF: Record<PlanningLayer, string> = {
  zone: SQL.UPSERT_ZONES,
  overlay: SQL.UPSERT_OVERLAYS,
  ugb: SQL.UPSERT_UGB,
};

/** The column arrays of a batch. Batches are kept per layer, so the filters below only narrow the row type. */
function batchParams(layer: PlanningLayer, batch: readonly Pending[]): unknown[] {
  const seq = batch.map((_, i) => i);
  const geometry = batch.map((p) => p.geojson);
  const rows = batch.map((p) => p.row);
  if (layer === 'ugb') {
    const ugb = rows.filter((r) => r.layer === 'ugb');
    return [
      seq,
      ugb.map((r) => r.id),
      ugb.map((r) => r.lga_code),
      ugb.map((r) => r.lga_name),
      ugb.map((r) => r.gaic),
      geometry,
    ];
  }
  const polygons = rows.filter((r) => r.layer !== 'ugb');
  return [
    seq,
    polygons.map((r) => r.id),
    polygons.map((r) => r.scheme_code),
    polygons.map((r) => r.code),
    polygons.map((r) => r.description),
    polygons.map((r) => r.lga_code),
    polygons.map((r) => r.lga_name),
    geometry,
  ];
}

export class FeatureLoader {
  readonly counts = new Map<PlanningLayer, LayerCount>();
  readonly refused: FeatureNote[] = [];
  readonly repaired: FeatureNote[] = [];
  /** Coverage names of the LGAs this run loaded zones for. */
  readonly zoneAreas = new Set<string>();
  private readonly batches = new Map<PlanningLayer, Pending[]>();
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly query: QueryFn,
    private readonly params: { readonly dataset: string; readonly state: string; readonly batchRows: number },
    private readonly source: FeatureSource,
    private readonly plan: LayoutPlan,
  ) {}

  get loaded(): number {
    return [...this.counts.values()].reduce((sum, c) => sum + c.loaded, 0);
  }

  private count(layer: PlanningLayer): LayerCount {
    let count = this.counts.get(layer);
    if (!count) {
      count = { layer, read: 0, loaded: 0, repaired: 0, refused: 0 };
      this.counts.set(layer, count);
    }
    return count;
  }

  private refuse(layer: PlanningLayer, note: Omit<FeatureNote, 'reason'>, reason: string): void {
    this.count(layer).refused += 1;
    this.refused.push({ ...note, reason });
  }

  async add(feature: SourceFeature): Promise<void> {
    const note = { file: this.source.name, feature: feature.index, key: this.plan.label(feature.properties) };
    let row: PlanningRow;
    try {
      row = this.plan.row(feature.properties, this.params.state);
    } catch (error) {
      if (!(error instanceof RefusedAttributes)) throw error;
      this.count(error.layer).read += 1;
      return this.refuse(error.layer, note, error.message);
    }
    this.count(row.layer).read += 1;
    const first = this.seen.get(row.id);
    if (first !== undefined) return this.refuse(row.layer, note, `it repeats the ${note.key} of feature ${first}`);
    let clean;
    try {
      clean = cleanPolygons(feature.geometry, { file: this.source.name, crs: this.source.crs, feature: feature.index });
    } catch (error) {
      if (!(error instanceof RefusedGeometry)) throw error;
      return this.refuse(row.layer, note, error.message);
    }
    this.seen.set(row.id, feature.index);
    const batch = this.batches.get(row.layer) ?? [];
    this.batches.set(row.layer, batch);
    batch.push({ row, geojson: clean.geojson, note, repairs: clean.repairs });
    if (batch.length >= this.params.batchRows) await this.flush(row.layer);
  }

  async flush(layer?: PlanningLayer): Promise<void> {
    for (const [name, batch] of this.batches) {
      if (layer !== undefined && name !== layer) continue;
      this.batches.set(name, []);
      if (batch.length > 0) await this.write(name, batch);
    }
  }

  private async write(layer: PlanningLayer, batch: readonly Pending[]): Promise<void> {
    const { dataset, state } = this.params;
    const outcomes = await this.query<SQL.BatchOutcome>(SQL_OF[layer], [dataset, state, ...batchParams(layer, batch)]);
    const count = this.count(layer);
    for (const outcome of outcomes) {
      const pending = batch[outcome.seq];
      if (!pending) throw new Error(`the ${layer} batch answered for row ${outcome.seq}, which it was not sent`);
      if (!outcome.usable) {
        this.refuse(
          layer,
          pending.note,
          `its geometry has no area left once mended${outcome.reason ? ` (${outcome.reason})` : ''}`,
        );
        continue;
      }
      count.loaded += 1;
      const repairs = [
        ...pending.repairs,
        ...(outcome.valid ? [] : [`mended by ST_MakeValid: ${outcome.reason ?? 'invalid'}`]),
      ];
      if (repairs.length > 0) {
        count.repaired += 1;
        this.repaired.push({ ...pending.note, reason: repairs.join('; ') });
      }
      if (pending.row.layer === 'zone') this.zoneAreas.add((pending.row.lga_name ?? SQL.UNNAMED_LGA).toUpperCase());
    }
  }
}
