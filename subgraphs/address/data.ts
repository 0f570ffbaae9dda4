import DataLoader from 'dataloader';
import type { RequestScope } from '../../core/context.ts';
import type { Database } from '../../core/db.ts';
import { GENERIC_PLAN } from '../../core/db.ts';
import { overBudget, STAGE_BUDGET, withinBudget } from '../../core/budget.ts';
import { foldedSql } from '../../core/folded-sql.ts';
import { AppError } from '../../core/errors.ts';
import type { LayerResult } from '../../core/layer.ts';
import type { SubgraphDeps } from '../../core/subgraph.ts';
import type { GeoJSONGeometry } from '../../core/geojson.ts';
import type { Prisma } from '../../generated/prisma/client.ts';
import type { ScoredMatch, StageRunner } from './matching/match.ts';
import type { ParsedAddress } from './matching/types.ts';
import { AddressMatcher, LocalityDirectory } from './matching/match.ts';
import type { AddressRow, SuburbHullRow, SuburbLocalityRow } from './sql.ts';
import {
  ADDRESSES_BY_GNAF_PID,
  ADDRESSES_ON_PARCEL,
  PRINCIPAL_ADDRESS_BY_PARCEL,
  SUBURB_ADDRESS_HULLS,
  SUBURB_LOCALITIES,
} from './sql.ts';

export type ParcelKey = { state: string; parcel_pfi: string };
/** A suburb as the graph keys it: its state and its name as suburbKey writes it. */
export type SuburbEntity = { state: string; name: string };
/** The hull of a suburb's address points (GeoJSON text) and how many addresses it is drawn round. */
export type SuburbHullModel = { addresses: number; geometry: GeoJSONGeometry };
/** What G-NAF holds of a suburb's name: whether a locality of the state is so named, and its postcode. */
export type SuburbLocalityModel = { known: boolean; postcode: string | null };

/** How long a dataset's locality names are reused before they are read again. */
const LOCALITY_TTL_MS = 60_000;

/**
 * One statement under a time budget: past it the caller gets a 503 at once. When the caller
 * set the budget (timeout_ms), it is also the statement's own `statement_timeout` on
 * PostgreSQL, so an over-budget query stops using the server; the default budget is ours
 * alone, which spares every lookup the transaction a SET LOCAL needs. PGlite has no timer to
 * cancel with, so there the deadline is always only ours.
 */
export function budgetedRunner(db: Database, budgetMs: number, onServer = false): StageRunner {
  const ms = Math.round(budgetMs);
  return async <T>(stage: string, sql: Prisma.Sql): Promise<T[]> => {
    const query =
      onServer && db.kind === 'postgres'
        ? db.prisma
            .$transaction([
              db.prisma.$executeRawUnsafe(`SET LOCAL statement_timeout = ${ms}`),
              db.prisma.$queryRaw<T[]>(sql),
            ])
            .then(([, rows]) => rows)
        : db.sql<T>(sql);
    try {
      return await withinBudget(stage, ms, query);
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (/statement timeout|57014/.test(String((error as Error).message))) throw overBudget(stage, ms);
      throw error;
    }
  };
}

/** Locality names per dataset, shared by every request of the subgraph and refreshed now and then. */
export class LocalityCache {
  private readonly held = new Map<string, { at: number; directory: Promise<LocalityDirectory> }>();

  constructor(private readonly db: Database) {}

  get(dataset: string): Promise<LocalityDirectory> {
    const entry = this.held.get(dataset);
    if (entry && Date.now() - entry.at < LOCALITY_TTL_MS) return entry.directory;
    const directory = LocalityDirectory.load(budgetedRunner(this.db, STAGE_BUDGET.maxMs), dataset);
    this.held.set(dataset, { at: Date.now(), directory });
    directory.catch(() => this.held.delete(dataset));
    return directory;
  }
}

/** The address layer's data source for one request: its loaders batch every entity lookup. */
export class AddressData {
  readonly byGnafPid: DataLoader<string, AddressRow | null>;
  readonly byParcel: DataLoader<ParcelKey, AddressRow | null, string>;
  readonly suburbHull: DataLoader<SuburbEntity, SuburbHullModel | null, string>;
  readonly suburbLocality: DataLoader<SuburbEntity, SuburbLocalityModel, string>;

  constructor(
    private readonly deps: SubgraphDeps,
    private readonly scope: RequestScope,
    private readonly localities: LocalityCache,
  ) {
    const db = deps.db;
    // Not folded (core/folded-sql.ts) with the layers asked beside it: the market waits on the
    // address through @requires, and alone the address comes back in time for the market's
    // statement to overlap the envelope's and terrain's CPU. Folded, a whole-graph call made 3
    // round trips instead of 4 or 5 but answered 1 to 3 ms later at one connection
    // (docs/benchmarks.md).
    this.byGnafPid = new DataLoader(async (pids) => {
      const rows = await db.sql<AddressRow>(ADDRESSES_BY_GNAF_PID(scope.dataset, [...pids]), GENERIC_PLAN);
      const byPid = new Map(rows.map((r) => [r.gnaf_pid, r]));
      return pids.map((pid) => byPid.get(pid) ?? null);
    });
    this.byParcel = new DataLoader(
      async (keys) => {
        const rows = await db.sql<AddressRow>(
          PRINCIPAL_ADDRESS_BY_PARCEL(
            scope.dataset,
            keys.map((k) => k.state),
            keys.map((k) => k.parcel_pfi),
          ),
          GENERIC_PLAN,
        );
        const byKey = new Map(rows.map((r) => [`${r.state}:${r.parcel_pfi ?? ''}`, r]));
        return keys.map((k) => byKey.get(`${k.state}:${k.parcel_pfi}`) ?? null);
      },
      { cacheKeyFn: (k) => `${k.state}:${k.parcel_pfi}` },
    );
    // every suburb of a request in one statement (Suburb.address_hull, read by the amenities through
    // @requires), folded with the SAL boundary the planner asks of the demographics in the same turn
    this.suburbHull = new DataLoader(
      async (keys) => {
        const rows = await foldedSql<SuburbHullRow>(
          db,
          SUBURB_ADDRESS_HULLS(
            scope.dataset,
            keys.map((k) => k.state),
            keys.map((k) => k.name),
          ),
        );
        const byIndex = new Map(rows.map((r) => [r.i, r]));
        return keys.map((_k, i) => {
          const row = byIndex.get(i);
          return row?.hull ? { addresses: row.addresses, geometry: JSON.parse(row.hull) as GeoJSONGeometry } : null;
        });
      },
      { cacheKeyFn: (k) => `${k.state}:${k.name}` },
    );
    // every suburb of a request in one statement (Suburb.gnaf_locality, read by the market trends
    // through @requires), folded with the development and supply counts the planner asks beside it
    this.suburbLocality = new DataLoader(
      async (keys) => {
        const rows = await foldedSql<SuburbLocalityRow>(
          db,
          SUBURB_LOCALITIES(
            scope.dataset,
            keys.map((k) => k.state),
            keys.map((k) => k.name),
          ),
        );
        const byIndex = new Map(rows.map((r) => [r.i, r]));
        return keys.map((k, i) => {
          const row = byIndex.get(i);
          return row
            ? { known: row.known, postcode: row.postcode }
            : new Error(`No locality row for ${k.name} ${k.state}`);
        });
      },
      { cacheKeyFn: (k) => `${k.state}:${k.name}` },
    );
  }

  /** A matcher whose every statement runs under `budgetMs`; `onServer` when the caller chose it. */
  matcher(budgetMs: number, onServer: boolean): AddressMatcher {
    const run = budgetedRunner(this.deps.db, budgetMs, onServer);
    return new AddressMatcher(run, this.scope.dataset, () => this.localities.get(this.scope.dataset));
  }

  runner(budgetMs: number): StageRunner {
    return budgetedRunner(this.deps.db, budgetMs);
  }

  /** One statement of the layer's own SQL (the bulk selection's count and list). */
  runSql<T>(sql: Prisma.Sql): Promise<T[]> {
    return this.deps.db.sql<T>(sql);
  }

  addressesOnParcel(state: string, pfi: string): Promise<AddressRow[]> {
    return this.deps.db.sql<AddressRow>(ADDRESSES_ON_PARCEL(this.scope.dataset, state, pfi));
  }

  provenance(state: string) {
    return this.deps.catalog.get(this.scope.dataset, 'address', state);
  }
}

export type AddressContext = RequestScope & { address: AddressData };

export type GeoPointModel = { lat: number; lng: number };

/** A Property as this subgraph resolves it: its keys, its address point and its address row. */
export type AddressProperty = {
  gnaf_pid: string | null;
  parcel_pfi: string | null;
  state: string;
  address_point: GeoPointModel | null;
  addressRow: AddressRow | null;
};

export type AddressLayerModel = LayerResult<AddressRow>;

export type AddressMatchResultModel = {
  status: 'matched' | 'no_match';
  match: ScoredMatch | null;
  alternatives: ScoredMatch[];
  parsed: ParsedAddress;
  message: string | null;
  hint: string | null;
  source: string | null;
  attribution: string | null;
  license: string | null;
};

export type AddressSuggestionsModel = {
  suggestions: AddressRow[];
  source: string | null;
  attribution: string | null;
  license: string | null;
};

export type AddressListModel = Omit<AddressSuggestionsModel, 'suggestions'> & { addresses: AddressRow[] };
