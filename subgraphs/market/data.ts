import { GENERIC_PLAN } from '../../core/db.ts';
import DataLoader from 'dataloader';
import { foldedSql } from '../../core/folded-sql.ts';
import type { RequestScope } from '../../core/context.ts';
import type { LayerResult, Provenance } from '../../core/layer.ts';
import type { SubgraphDeps } from '../../core/subgraph.ts';
import type {
  ComparableRow,
  MarketLayerName,
  PipelineRow,
  PropertySalesRow,
  SaleRow,
  SalesFilter,
  SuburbMarketRow,
} from './sql.ts';
import * as SQL from './sql.ts';
import type { SuburbMarketModel } from './trends.ts';
import { MIN_SALES_PER_QUARTER, suburbMarket } from './trends.ts';
import { suburbKey } from '../../core/suburb-metrics.ts';

export type MarketProperty = {
  parcel_pfi: string | null;
  state: string;
  /** The property's G-NAF address, from the address subgraph through @requires; null without one. */
  gnaf_pid: string | null;
  location: { lat: number; lng: number } | null;
  /**
   * The address's locality, its postcode and its G-NAF locality's, from the address subgraph through
   * @requires; null without an address.
   */
  address: { data: { locality: string; postcode: string | null; locality_postcode: string | null } | null } | null;
};

export type PropertySalesModel = Omit<LayerResult<never>, 'data'> & { sales: SaleRow[] };
export type ComparableSalesModel = {
  property_type: string;
  property_type_from: string;
  area_m2: number | null;
  radius_m: number;
  months: number;
  comparables: Array<{
    sale: SaleRow;
    score: number;
    distance_score: number;
    recency_score: number;
    size_score: number;
  }>;
};
export type ComparableSalesLayerModel = LayerResult<ComparableSalesModel>;
export type MarketTrendsLayerModel = LayerResult<SuburbMarketModel> & { known: boolean };

/** A property of a batch of sales lookups: its parcel and address, and how many sales are asked for. */
type PropertySalesKey = { state: string; parcel_pfi: string | null; gnaf_pid: string | null; limit: number };

/**
 * A suburb of a batch: its state, its name as suburbKey has it, the caller's postcode (null: the
 * data's) and its G-NAF locality's postcode, the last resort (from the address subgraph, through the graph).
 */
type SuburbKey = { state: string; suburb: string; postcode: string | null; localityPostcode: string | null };

/**
 * What the address subgraph's G-NAF says of a suburb's name (Suburb.gnaf_locality, or a property's
 * own address): whether a locality of the state is so named, and its postcode.
 */
export type GnafLocality = { known: boolean; postcode: string | null };

/** What the suburb lookup found: its market, and whether the suburb is known at all. */
export type SuburbFound = { known: boolean; market: SuburbMarketModel };

/** The market subgraph's data source for one request. */
export class MarketData {
  /**
   * The rows of every suburb the request asks the market of (Property.market_trends of each entity
   * of a batch, suburbMarket), in one statement over all of them.
   */
  private readonly suburbRows: DataLoader<SuburbKey, SuburbMarketRow, string>;
  /** The sales of every property of a request (Property.sales of each entity), in one statement. */
  readonly salesOfProperty: DataLoader<PropertySalesKey, SaleRow[], string>;
  /**
   * Each suburb's market once per request: a batch of a suburb's properties (the bulk export
   * reads 500 at once) shares one, where building it per property was a visible share of the
   * export's CPU and garbage. Pure, so sharing the object is safe.
   */
  private readonly markets = new Map<string, Promise<SuburbFound>>();

  constructor(
    private readonly deps: SubgraphDeps,
    private readonly scope: RequestScope,
  ) {
    this.suburbRows = new DataLoader<SuburbKey, SuburbMarketRow, string>(
      async (keys) => {
        const rows = await foldedSql<SQL.SuburbMarketWire>(
          deps.db,
          SQL.SUBURB_MARKETS(
            scope.dataset,
            keys.map((k) => k.state),
            keys.map((k) => k.suburb),
            keys.map((k) => k.postcode),
            keys.map((k) => k.localityPostcode),
            MIN_SALES_PER_QUARTER,
          ),
        );
        const byIndex = new Map(rows.map((wire) => [wire.i, SQL.decodeSuburbMarket(wire)]));
        return keys.map((k, i) => byIndex.get(i) ?? new Error(`No market row for ${k.suburb} ${k.state}`));
      },
      {
        cacheKeyFn: (k) => `${k.state}\u0000${k.suburb}\u0000${k.postcode ?? ''}\u0000${k.localityPostcode ?? ''}`,
      },
    );
    this.salesOfProperty = new DataLoader<PropertySalesKey, SaleRow[], string>(
      async (keys) => {
        const rows = await deps.db.sql<PropertySalesRow>(
          SQL.SALES_OF_PROPERTIES(
            scope.dataset,
            keys.map((k) => k.state),
            keys.map((k) => k.parcel_pfi),
            keys.map((k) => k.gnaf_pid),
            keys.map((k) => k.limit),
          ),
          GENERIC_PLAN,
        );
        const byIndex = new Map(rows.map((r) => [r.i, r.sales]));
        return keys.map((_k, i) => byIndex.get(i) ?? []);
      },
      {
        cacheKeyFn: (k) => `${k.state}\u0000${k.parcel_pfi ?? ''}\u0000${k.gnaf_pid ?? ''}\u0000${k.limit}`,
      },
    );
  }

  provenance(
    layer: MarketLayerName | 'development-applications' | 'land-supply',
    state: string,
  ): Promise<Provenance | undefined> {
    return this.deps.catalog.get(this.scope.dataset, layer, state);
  }

  sales(where: SalesFilter, since: string | null, until: string | null, type: string | null, limit: number) {
    return this.deps.db.sql<SaleRow>(SQL.SALES(this.scope.dataset, where, since, until, type, limit));
  }

  async lastSaleOfParcel(
    state: string,
    pfi: string,
  ): Promise<{ property_type: string; area_m2: number | null } | null> {
    const [row] = await this.deps.db.sql<{ property_type: string; area_m2: number | null }>(
      SQL.LAST_SALE_OF_PARCEL(this.scope.dataset, state, pfi),
    );
    return row ?? null;
  }

  async newestSale(state: string): Promise<string | null> {
    const [row] = await this.deps.db.sql<{ newest: string | null }>(SQL.NEWEST_SALE(this.scope.dataset, state));
    return row?.newest ?? null;
  }

  comparables(args: {
    state: string;
    lng: number;
    lat: number;
    type: string;
    area: number | null;
    radius: number;
    months: number;
    asOf: string;
    excludePfi: string | null;
    limit: number;
  }) {
    return this.deps.db.sql<ComparableRow>(
      SQL.COMPARABLES(
        this.scope.dataset,
        args.state,
        args.lng,
        args.lat,
        args.type,
        args.area,
        args.radius,
        args.months,
        args.asOf,
        args.excludePfi,
        args.limit,
      ),
    );
  }

  /**
   * The market of a suburb: its rows come through the request's batch of suburbs (one statement for
   * all); `locality` is what G-NAF holds of its name, which the graph brought.
   */
  suburb(
    state: string,
    name: string,
    postcode: string | null,
    propertyType: string | null,
    locality: GnafLocality,
  ): Promise<SuburbFound> {
    const key = `${state}|${suburbKey(name)}|${postcode ?? ''}|${propertyType ?? ''}|${locality.known}|${locality.postcode ?? ''}`;
    let found = this.markets.get(key);
    if (!found) {
      found = this.buildSuburb(state, name, postcode, propertyType, locality);
      this.markets.set(key, found);
    }
    return found;
  }

  private async buildSuburb(
    state: string,
    name: string,
    postcode: string | null,
    propertyType: string | null,
    locality: GnafLocality,
  ): Promise<SuburbFound> {
    const suburb = suburbKey(name);
    const row = await this.suburbRows.load({ state, suburb, postcode, localityPostcode: locality.postcode });
    const market = suburbMarket({
      state,
      suburb,
      postcode: row.postcode,
      end: row.end,
      quarters: row.quarters,
      windows: row.windows,
      rents: row.rents,
      approvals: row.approvals,
      propertyType,
    });
    const known =
      locality.known ||
      row.quarters.length > 0 ||
      row.rents.some((r) => r.area_kind === 'suburb') ||
      row.approvals.length > 0;
    return { known, market };
  }
}

export type SupplyPipelineLayerModel = LayerResult<PipelineRow>;

export type MarketContext = RequestScope & { market: MarketData };

/**
 * A suburb entity as the graph keys it, with what the owning subgraphs gave it through @requires:
 * the development applications' counts, the land-supply counts and its G-NAF locality.
 */
export type SuburbEntity = {
  state: string;
  name: string;
  gnaf_locality?: GnafLocality | null;
  development_pipeline?: Pick<
    PipelineRow,
    'das_pending' | 'dwellings_pending' | 'das_approved' | 'dwellings_approved'
  > | null;
  land_supply_pipeline?: Pick<PipelineRow, 'lots_available' | 'estates_selling'> | null;
};
