import DataLoader from 'dataloader';
import type { GeoJSONGeometry } from '../../core/geojson.ts';
import type { RequestScope } from '../../core/context.ts';
import { INTERNAL_SCOPE } from '../../core/context.ts';
import type { LayerResult, LayerStatus, Provenance } from '../../core/layer.ts';
import type { SubgraphDeps } from '../../core/subgraph.ts';
import type { ProductsData } from './products.ts';
import type { LivePlanningAdapter } from './sources/live.ts';
import type { LivePlanningAnswer } from './sources/protocols.ts';
import type { PlanningAdapters } from './sources/registry.ts';
import type { OverlayRow, PlanningRow, ZoneRow } from './sql.ts';
import { PLANNING_AT_POINTS } from './sql.ts';
import { foldedSql } from '../../core/folded-sql.ts';

export type PointKey = { state: string; lat: number; lng: number };
export type PlanningAtPoint = { covered: boolean; zone: ZoneRow | null; overlays: OverlayRow[] };

export type PlanningProperty = {
  parcel_pfi: string | null;
  state: string;
  location: { lat: number; lng: number } | null;
  /** The parcel's boundary, from the cadastre through @requires; null off any parcel. */
  parcel_geometry: GeoJSONGeometry | null;
  /** The centrelines around the parcel, from the roads subgraph through @requires; null when it did not answer. */
  road_lines: RequiredRoadLines | null;
};

/** The roads subgraph's RoadLinesLayer, as far as the boundary classification reads it. */
export type RequiredRoadLines = {
  status: LayerStatus;
  source?: string | null;
  attribution?: string | null;
  license?: string | null;
  freshness?: string | null;
  data?: Array<{ name?: string | null; road_class: string; geometry: GeoJSONGeometry }> | null;
};

export type PlanningLayerModel = LayerResult<PlanningAtPoint>;

const pointKey = (k: PointKey) => `${k.state}:${k.lng}:${k.lat}`;

/** A live service's answer at a point, or its failure (never thrown: the layer reports it). */
export type LiveResolution =
  | { status: 'ok'; answer: LivePlanningAnswer; provenance: Provenance }
  | { status: 'error'; error: unknown; source: string };

type LiveKey = PointKey & { adapter: LivePlanningAdapter };

/**
 * How long one request's planning answer at a point is kept for its other fetches. One property's
 * planning layer and its products (provisions, envelope: they wait on the roads subgraph) reach
 * planning in two fetches of one request, each with its own context and loaders; the second takes
 * the first's answer instead of sending the statement again. Keys hold the request id, so no other
 * request ever reads an entry; the time only bounds how long a finished request's entries stay.
 */
export const SHARED_AT_POINT_MS = 30_000;

/** One request's answers at points, by request, dataset and point (see SHARED_AT_POINT_MS). */
export type SharedAtPoint = Map<string, Promise<PlanningAtPoint>>;

export class PlanningData {
  readonly atPoint: DataLoader<PointKey, PlanningAtPoint, string>;
  /** Live services answer one point per call; the points of a request are asked side by side, each once. */
  readonly liveAtPoint: DataLoader<LiveKey, LiveResolution, string>;

  constructor(
    private readonly deps: SubgraphDeps,
    private readonly scope: RequestScope,
    /** The process's planning-zone adapters: live services, their circuits and counters. */
    readonly adapters: PlanningAdapters,
    /** The process's live calls under way, by request and point (see liveAtPoint). */
    liveInFlight: Map<string, Promise<LiveResolution>> = new Map(),
    /** The process's recent answers at points, by request and point (see SHARED_AT_POINT_MS). */
    processShared: SharedAtPoint = new Map(),
  ) {
    // A call without a request of its own ('internal': no request id reached the subgraph) shares
    // nothing beyond this context: two such calls are not one request.
    const shared =
      scope.requestId && scope.requestId !== INTERNAL_SCOPE.requestId ? processShared : (new Map() as SharedAtPoint);
    const sharedKey = (k: PointKey) => `${scope.requestId}:${scope.dataset}:${pointKey(k)}`;
    this.atPoint = new DataLoader(
      async (keys) => {
        const missing = keys.filter((k) => !shared.has(sharedKey(k)));
        if (missing.length > 0) {
          const answers = foldedSql<PlanningRow>(
            deps.db,
            PLANNING_AT_POINTS(
              scope.dataset,
              missing.map((k) => k.state),
              missing.map((k) => k.lng),
              missing.map((k) => k.lat),
            ),
          ).then((rows) => {
            const byIndex = new Map(rows.map(({ i, ...row }) => [i, row]));
            return missing.map((_k, i) => byIndex.get(i) ?? { covered: false, zone: null, overlays: [] });
          });
          missing.forEach((k, i) => {
            const key = sharedKey(k);
            const answer = answers.then((all) => all[i]!);
            shared.set(key, answer);
            // kept a while for the request's other fetches, then let go (a failure at once)
            const forget = () => setTimeout(() => shared.delete(key), SHARED_AT_POINT_MS).unref();
            answer.then(forget, () => shared.delete(key));
          });
        }
        return Promise.all(keys.map((k) => shared.get(sharedKey(k))!));
      },
      { cacheKeyFn: pointKey },
    );
    this.liveAtPoint = new DataLoader<LiveKey, LiveResolution, string>(
      (keys) =>
        Promise.all(
          keys.map(({ adapter, lng, lat }) => {
            // One property's planning layer and its products (which wait on the roads subgraph)
            // reach planning in two fetches of one request that may overlap: they share one call.
            const shared = `${scope.requestId}:${scope.dataset}:${adapter.label}:${lng}:${lat}`;
            const pending = liveInFlight.get(shared);
            if (pending) return pending;
            const call = adapter
              .atPoint(lng, lat)
              .then(
                (answer): LiveResolution => ({ status: 'ok', answer, provenance: adapter.provenance }),
                (error: unknown): LiveResolution => ({ status: 'error', error, source: adapter.provenance.source }),
              )
              .finally(() => liveInFlight.delete(shared));
            liveInFlight.set(shared, call);
            return call;
          }),
        ),
      { cacheKeyFn: pointKey },
    );
  }

  provenance(state: string): Promise<Provenance | undefined> {
    return this.deps.catalog.get(this.scope.dataset, 'planning', state);
  }

  /** The state's live service, where the caller's dataset may ask one (live keys only). */
  liveService(state: string): LivePlanningAdapter | undefined {
    return this.adapters.liveFor(this.scope.dataset, state);
  }
}

/** `products` serves provisions, envelope, UGB and climate zones (products.ts). */
export type PlanningContext = RequestScope & { planning: PlanningData; products: ProductsData };
