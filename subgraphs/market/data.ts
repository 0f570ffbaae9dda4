import type { RequestScope } from '../../core/context.ts';
import type { LayerResult, Provenance } from '../../core/layer.ts';
import type { SubgraphDeps } from '../../core/subgraph.ts';
import type { ApprovalRow, ComparableRow, MarketLayerName, PipelineRow, RentRow, SaleRow, SalesFilter } from './sql.ts';
import * as SQL from './sql.ts';
import type { QuarterRow, SuburbMarketModel, WindowRow } from './trends.ts';
import { MIN_SALES_PER_QUARTER, latestFullQuarterEnd, suburbMarket } from './trends.ts';
import { suburbKey } from '../../core/suburb-metrics.ts';

export type MarketProperty = {
  parcel_pfi: string | null;
  state: string;
  location: { lat: number; lng: number } | null;
  /** The address's locality and postcode, from the address subgraph through @requires; null without an address. */
  address: { data: { locality: string; postcode: string | null } | null } | null;
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

/** What the suburb lookup found: its market, and whether the suburb is known at all. */
export type SuburbFound = { known: boolean; market: SuburbMarketModel };

/** The market subgraph's data source for one request. */
export class MarketData {
  constructor(
    private readonly deps: SubgraphDeps,
    private readonly scope: RequestScope,
  ) {}

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

  async pipeline(state: string, suburb: string): Promise<PipelineRow> {
    const [row] = await this.deps.db.sql<PipelineRow>(
      SQL.SUBURB_PIPELINE(this.scope.dataset, state, suburbKey(suburb)),
    );
    return row!;
  }

  /** Everything the trends of one suburb are built from, in a few statements run together. */
  async suburb(
    state: string,
    name: string,
    postcode: string | null,
    propertyType: string | null,
  ): Promise<SuburbFound> {
    const { dataset } = this.scope;
    const suburb = suburbKey(name);
    const db = this.deps.db;
    const [[place], newest] = await Promise.all([
      db.sql<{ postcode: string | null; known_locality: boolean }>(SQL.SUBURB_POSTCODE(dataset, state, suburb)),
      this.newestSale(state),
    ]);
    const code = postcode ?? place?.postcode ?? null;
    const end = newest ? latestFullQuarterEnd(newest) : null;
    const [quarters, windows, rents, approvals] = await Promise.all([
      db.sql<QuarterRow>(SQL.SUBURB_QUARTERS(dataset, state, suburb, MIN_SALES_PER_QUARTER)),
      end ? db.sql<WindowRow>(SQL.SUBURB_WINDOWS(dataset, state, suburb, end)) : Promise.resolve([]),
      db.sql<RentRow>(SQL.SUBURB_RENTS(dataset, state, suburb, code)),
      db.sql<ApprovalRow>(SQL.SUBURB_APPROVALS(dataset, state, suburb)),
    ]);
    const market = suburbMarket({
      state,
      suburb,
      postcode: code,
      end,
      quarters,
      windows,
      rents,
      approvals,
      propertyType,
    });
    const known =
      !!place?.known_locality ||
      quarters.length > 0 ||
      rents.some((r) => r.area_kind === 'suburb') ||
      approvals.length > 0;
    return { known, market };
  }
}

export type SupplyPipelineLayerModel = LayerResult<PipelineRow>;

export type MarketContext = RequestScope & { market: MarketData };
