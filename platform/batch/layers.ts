import type { Scope } from '../../core/scopes.ts';

/**
 * The row contract of the bulk products (export, enrich): each layer a row can carry, the
 * columns it adds, the scope that opens it, what it selects on a `Property` of the graph, and
 * how one property's graph answer becomes that layer's status and cells (spec section 3).
 * Platform code reads the layers only through the graph (ctx.graph()); this module knows the
 * graph's field names and shapes, never a subgraph's code.
 */

/** The `<layer>_status` values of spec section 3. */
export const ROW_STATUSES = ['ok', 'no_feature', 'not_covered', 'unavailable', 'no_identifier'] as const;
export type RowStatus = (typeof ROW_STATUSES)[number];

/** A graph layer's status (spec 2.6). */
export type GraphLayerStatus = 'ok' | 'no_data' | 'not_covered' | 'skipped' | 'error';

/**
 * Graph status → row status. `skipped` is the graph's "this property lacks what the layer looks
 * up by" (no parcel, no point), which is exactly no_identifier; `no_data` is "checked, nothing
 * there", the only clear answer (no_feature).
 */
export const ROW_STATUS_OF: Readonly<Record<GraphLayerStatus, RowStatus>> = {
  ok: 'ok',
  no_data: 'no_feature',
  not_covered: 'not_covered',
  skipped: 'no_identifier',
  error: 'unavailable',
};

/** A layer's envelope as every layer field of the graph answers it. */
export type GraphLayer<T = unknown> = {
  status: GraphLayerStatus;
  source?: string | null;
  attribution?: string | null;
  license?: string | null;
  freshness?: string | null;
  data?: T | null;
};

/** One property as the bulk operation selects it: identity fields, then one field per layer. */
export type GraphProperty = {
  gnaf_pid: string | null;
  state: string;
  address_point: { lat: number; lng: number } | null;
  address: GraphLayer<{ formatted_address: string; locality: string; postcode: string | null }> | null;
} & Record<string, unknown>;

/** A cell value as it goes into the CSV: text, a number, or empty when a present layer has no such value. */
export type Cell = string | number | null;

/** One layer of one row: its status and its data cells in column order. */
export type LayerCells = { status: RowStatus; cells: Cell[] };

/** The credit and date of the layer's answer for one row, for the export's manifest. */
export type LayerCredit = {
  source: string | null;
  attribution: string | null;
  license: string | null;
  freshness: string | null;
};

export type BatchLayer = {
  /** The layer's name in requests, the CSV's column prefix and the manifest. */
  name: string;
  /** What the layer holds, for GET /v1/exports/layers. */
  description: string;
  /** The scopes any one of which opens the layer (the first is the one named when missing). */
  scopes: readonly Scope[];
  /** Data columns, in order, after `<name>_status`. */
  columns: readonly string[];
  /** The graph field of Property the layer reads. */
  field: string;
  /** The selection on Property: `field { status source attribution license freshness data { ... } }`. */
  selection: string;
  /** The data cells of an ok answer, in `columns` order. */
  cellsOf(data: unknown): Cell[];
};

const CREDIT = 'status source attribution license freshness';

const list = <T>(data: unknown): T[] => (Array.isArray(data) ? (data as T[]) : []);
const joined = (values: readonly (string | null | undefined)[]): string | null => {
  const kept = [...new Set(values.filter((v): v is string => typeof v === 'string' && v.length > 0))];
  return kept.length > 0 ? kept.join(';') : null;
};
const maxOf = (values: readonly (number | null | undefined)[]): number | null => {
  const kept = values.filter((v): v is number => typeof v === 'number');
  return kept.length > 0 ? Math.max(...kept) : null;
};

type Parcel = {
  parcel_pfi: string;
  parcel_spi: string | null;
  parcel_lot_number: string | null;
  parcel_plan_number: string | null;
};
type Planning = {
  zone: { code: string; description: string; scheme_code: string; lga_name: string | null } | null;
  overlays: { code: string }[];
};
type Hazard = { severity: string | null; coverage: string; bal?: { rating: string } | null };
type Hazards = { flood: Hazard; bushfire: Hazard; contamination: Hazard };
type Profile = {
  code: string;
  name: string;
  population: number | null;
  median_age: number | null;
  median_household_income_weekly: number | null;
  median_rent_weekly: number | null;
  average_household_size: number | null;
};
type Demographics = { census_year: number; sal: Profile | null; sa1: Profile | null };
type MarketSummary = {
  property_type: string;
  median_price_12m: number | null;
  sales_12m: number;
  growth_1y_pct: number | null;
  growth_5y_pct: number | null;
  median_weekly_rent: number | null;
  gross_yield_pct: number | null;
};
type Market = { suburb: string; latest_quarter: string | null; summary: MarketSummary[] };
type Road = { name: string | null; road_class: string; frontage_m: number; front: boolean };
type Soil = {
  site_class_indicative: string;
  reactivity: string | null;
  clay_percent: number;
  ys_estimate_mm: number;
};
type LandValue = { site_value: number; capital_improved_value: number | null; base_date: string; valuer: string };
type Building = { height_m: number | null; storeys: number | null };
type Easement = { easement_type: string; width_m: number | null };
type Application = {
  council_reference: string;
  status: string;
  category: string;
  lodged_date: string | null;
};

const MARKET_TYPES = ['house', 'unit'] as const;
const MARKET_FIGURES = ['median_price_12m', 'growth_1y_pct', 'median_weekly_rent', 'gross_yield_pct'] as const;

/**
 * Every exportable layer. The first five are the enrich bundles of spec 4.7 (parcel, planning,
 * hazards, demographics, market); their names are part of both products' contracts.
 */
export const BATCH_LAYERS: readonly BatchLayer[] = [
  {
    name: 'parcel',
    description: 'The land parcel under the address: its PFI and lot/plan identifiers.',
    scopes: ['cadastre.read'],
    columns: ['parcel_pfi', 'parcel_spi', 'parcel_lot_number', 'parcel_plan_number'],
    field: 'cadastre',
    selection: `cadastre { ${CREDIT} data { parcel_pfi parcel_spi parcel_lot_number parcel_plan_number } }`,
    cellsOf(data) {
      const p = data as Parcel;
      return [p.parcel_pfi, p.parcel_spi, p.parcel_lot_number, p.parcel_plan_number];
    },
  },
  {
    name: 'planning',
    description: 'Planning zone and overlays at the address point.',
    scopes: ['planning.read'],
    columns: [
      'planning_zone_code',
      'planning_zone_description',
      'planning_scheme',
      'planning_lga',
      'planning_overlays',
    ],
    field: 'planning',
    selection: `planning { ${CREDIT} data { zone { code description scheme_code lga_name } overlays { code } } }`,
    cellsOf(data) {
      const p = data as Planning;
      return [
        p.zone?.code ?? null,
        p.zone?.description ?? null,
        p.zone?.scheme_code ?? null,
        p.zone?.lga_name ?? null,
        joined(p.overlays.map((o) => o.code)),
      ];
    },
  },
  {
    name: 'hazards',
    description: 'Flood, bushfire (with the BAL estimate) and contamination: severity and coverage of each.',
    scopes: ['risk.read'],
    columns: [
      'hazards_flood_severity',
      'hazards_flood_coverage',
      'hazards_bushfire_severity',
      'hazards_bushfire_coverage',
      'hazards_bal_rating',
      'hazards_contamination_severity',
      'hazards_contamination_coverage',
    ],
    field: 'hazards',
    selection: `hazards { ${CREDIT} data { flood { severity coverage } bushfire { severity coverage bal { rating } }
      contamination { severity coverage } } }`,
    cellsOf(data) {
      const h = data as Hazards;
      return [
        h.flood.severity,
        h.flood.coverage,
        h.bushfire.severity,
        h.bushfire.coverage,
        h.bushfire.bal?.rating ?? null,
        h.contamination.severity,
        h.contamination.coverage,
      ];
    },
  },
  {
    name: 'demographics',
    description: 'Census 2021 figures of the suburb (SAL) and the SA1 the address point lies in.',
    scopes: ['locality.read'],
    columns: [
      'demographics_census_year',
      'demographics_sal_code',
      'demographics_sal_name',
      'demographics_sal_population',
      'demographics_sal_median_age',
      'demographics_sal_median_household_income_weekly',
      'demographics_sal_median_rent_weekly',
      'demographics_sa1_code',
      'demographics_sa1_population',
      'demographics_sa1_median_household_income_weekly',
      'demographics_sa1_average_household_size',
    ],
    field: 'demographics',
    selection: `demographics { ${CREDIT} data { census_year
      sal { code name population median_age median_household_income_weekly median_rent_weekly }
      sa1 { code population median_household_income_weekly average_household_size } } }`,
    cellsOf(data) {
      const d = data as Demographics;
      return [
        d.census_year,
        d.sal?.code ?? null,
        d.sal?.name ?? null,
        d.sal?.population ?? null,
        d.sal?.median_age ?? null,
        d.sal?.median_household_income_weekly ?? null,
        d.sal?.median_rent_weekly ?? null,
        d.sa1?.code ?? null,
        d.sa1?.population ?? null,
        d.sa1?.median_household_income_weekly ?? null,
        d.sa1?.average_household_size ?? null,
      ];
    },
  },
  {
    name: 'market',
    description: "The suburb's market trends (suburb medians, growth, rents and yields); not the property's own sales.",
    scopes: ['locality.read'],
    columns: [
      'market_suburb',
      'market_latest_quarter',
      ...MARKET_TYPES.flatMap((type) => MARKET_FIGURES.map((figure) => `market_${type}_${figure}`)),
    ],
    field: 'market_trends',
    selection: `market_trends { ${CREDIT} data { suburb latest_quarter
      summary { property_type median_price_12m sales_12m growth_1y_pct growth_5y_pct median_weekly_rent gross_yield_pct } } }`,
    cellsOf(data) {
      const m = data as Market;
      const byType = new Map(m.summary.map((s) => [s.property_type, s]));
      return [
        m.suburb,
        m.latest_quarter,
        ...MARKET_TYPES.flatMap((type) => MARKET_FIGURES.map((figure) => byType.get(type)?.[figure] ?? null)),
      ];
    },
  },
  {
    name: 'roads',
    description: 'The roads the parcel fronts: the front road, its class and frontage, and how many roads it meets.',
    scopes: ['roads.read'],
    columns: ['roads_front_name', 'roads_front_class', 'roads_front_frontage_m', 'roads_count'],
    field: 'roads',
    selection: `roads { ${CREDIT} data { name road_class frontage_m front } }`,
    cellsOf(data) {
      const roads = list<Road>(data);
      const front = roads.find((r) => r.front) ?? roads[0];
      return [front?.name ?? null, front?.road_class ?? null, front?.frontage_m ?? null, roads.length];
    },
  },
  {
    name: 'soil',
    description: 'Indicative soil reactivity and AS 2870 site class of the lot.',
    scopes: ['soil.read'],
    columns: ['soil_site_class_indicative', 'soil_reactivity', 'soil_clay_percent', 'soil_ys_estimate_mm'],
    field: 'soil',
    selection: `soil { ${CREDIT} data { site_class_indicative reactivity clay_percent ys_estimate_mm } }`,
    cellsOf(data) {
      const s = data as Soil;
      return [s.site_class_indicative, s.reactivity, s.clay_percent, s.ys_estimate_mm];
    },
  },
  {
    name: 'land_values',
    description: "The valuer-general's land value of the parcel.",
    scopes: ['dossier.read'],
    columns: [
      'land_values_site_value',
      'land_values_capital_improved_value',
      'land_values_base_date',
      'land_values_valuer',
    ],
    field: 'land_value',
    selection: `land_value { ${CREDIT} data { site_value capital_improved_value base_date valuer } }`,
    cellsOf(data) {
      const v = data as LandValue;
      return [v.site_value, v.capital_improved_value, v.base_date, v.valuer];
    },
  },
  {
    name: 'buildings',
    description: 'Building footprints on the parcel: how many, and the tallest height and storeys recorded.',
    scopes: ['dossier.read'],
    columns: ['buildings_count', 'buildings_max_height_m', 'buildings_max_storeys'],
    field: 'buildings',
    selection: `buildings { ${CREDIT} data { height_m storeys } }`,
    cellsOf(data) {
      const buildings = list<Building>(data);
      return [buildings.length, maxOf(buildings.map((b) => b.height_m)), maxOf(buildings.map((b) => b.storeys))];
    },
  },
  {
    name: 'easements',
    description: 'Easements registered on the parcel: how many, their types and the widest.',
    scopes: ['easement.read'],
    columns: ['easements_count', 'easements_types', 'easements_max_width_m'],
    field: 'easements',
    selection: `easements { ${CREDIT} data { easement_type width_m } }`,
    cellsOf(data) {
      const easements = list<Easement>(data);
      return [easements.length, joined(easements.map((e) => e.easement_type)), maxOf(easements.map((e) => e.width_m))];
    },
  },
  {
    name: 'development_applications',
    description: 'Development applications against the parcel: how many, and the latest lodged.',
    scopes: ['development-applications.read', 'dossier.read'],
    columns: [
      'development_applications_count',
      'development_applications_latest_reference',
      'development_applications_latest_status',
      'development_applications_latest_category',
      'development_applications_latest_lodged_date',
    ],
    field: 'development_applications',
    selection: `development_applications { ${CREDIT} data { council_reference status category lodged_date } }`,
    cellsOf(data) {
      // the graph lists them newest lodged first
      const applications = list<Application>(data);
      const latest = applications[0];
      return [
        applications.length,
        latest?.council_reference ?? null,
        latest?.status ?? null,
        latest?.category ?? null,
        latest?.lodged_date ?? null,
      ];
    },
  },
];

export const BATCH_LAYER_NAMES: readonly string[] = BATCH_LAYERS.map((l) => l.name);

/**
 * Products that are never exported (spec 4.7), by the names a caller may ask for them, each
 * with the product it names in the refusal.
 */
export const NON_EXPORTABLE: Readonly<Record<string, string>> = {
  sales: 'sales history',
  sales_history: 'sales history',
  property_sales: 'sales history',
  comparable_sales: 'comparable sales',
  comparables: 'comparable sales',
  valuation: 'automated valuation',
  automated_valuation: 'automated valuation',
  avm: 'automated valuation',
  dwelling_attributes: 'dwelling attributes',
  dwellings: 'dwelling attributes',
  listings: 'on-market listings',
  on_market_listings: 'on-market listings',
  livability: 'Livability Rating',
  livability_rating: 'Livability Rating',
};

export function batchLayer(name: string): BatchLayer | undefined {
  return BATCH_LAYERS.find((l) => l.name === name);
}

/** Whether scopes open a layer: any one of its scopes. */
export function opensBatchLayer(scopes: readonly string[], layer: BatchLayer): boolean {
  return layer.scopes.some((s) => scopes.includes(s));
}

export const statusColumn = (layer: BatchLayer): string => `${layer.name}_status`;

/** The identity columns every row starts with (spec 4.7). */
export const IDENTITY_COLUMNS = [
  'gnaf_pid',
  'address',
  'locality',
  'state',
  'postcode',
  'latitude',
  'longitude',
] as const;

/** What the bulk operation selects on each Property beside its layers. */
export const IDENTITY_SELECTION = `gnaf_pid state address_point { lat lng }
  address { ${CREDIT} data { formatted_address locality postcode } }`;

/** The credit of a row's identity columns (the address data's publisher), for the manifest. */
export function identityCredit(property: GraphProperty | null): LayerCredit | null {
  const address = property?.address;
  if (!address) return null;
  return {
    source: address.source ?? null,
    attribution: address.attribution ?? null,
    license: address.license ?? null,
    freshness: address.freshness ?? null,
  };
}

/** A layer's columns in the file: its status, then its data. */
export function layerColumns(layer: BatchLayer): string[] {
  return [statusColumn(layer), ...layer.columns];
}

/** The header of a file of these layers, after any columns of the product's own (e.g. input_address). */
export function batchHeader(layers: readonly BatchLayer[], leading: readonly string[] = []): string[] {
  return [...leading, ...IDENTITY_COLUMNS, ...layers.flatMap(layerColumns)];
}

/** The status text in every data cell of a layer that is not ok (spec section 3: never blank). */
export function statusCells(layer: BatchLayer, status: RowStatus): LayerCells {
  return { status, cells: layer.columns.map(() => status) };
}

/**
 * One layer of one property. `property` null: the row has no identifier the graph knows (an
 * unmatched address, a PID not found), so no_identifier. `failed`: the graph reported an error
 * at this layer's field (its subgraph failed), so unavailable.
 */
export function layerCells(layer: BatchLayer, property: GraphProperty | null, failed = false): LayerCells {
  if (!property) return statusCells(layer, 'no_identifier');
  const answer = property[layer.field] as GraphLayer | null | undefined;
  if (failed || !answer) return statusCells(layer, 'unavailable');
  const status = ROW_STATUS_OF[answer.status] ?? 'unavailable';
  if (status !== 'ok') return statusCells(layer, status);
  if (answer.data === null || answer.data === undefined) return statusCells(layer, 'no_feature');
  return { status: 'ok', cells: layer.cellsOf(answer.data) };
}

/** The credit of a layer's answer for one property (null when the layer did not answer). */
export function layerCredit(layer: BatchLayer, property: GraphProperty | null): LayerCredit | null {
  const answer = property?.[layer.field] as GraphLayer | null | undefined;
  if (!answer) return null;
  return {
    source: answer.source ?? null,
    attribution: answer.attribution ?? null,
    license: answer.license ?? null,
    freshness: answer.freshness ?? null,
  };
}

/** The identity cells of a row: empty when the property is unknown (its layers then say no_identifier). */
export function identityCells(property: GraphProperty | null): Cell[] {
  const address = property?.address?.data ?? null;
  return [
    property?.gnaf_pid ?? null,
    address?.formatted_address ?? null,
    address?.locality ?? null,
    property?.state || null,
    address?.postcode ?? null,
    property?.address_point?.lat ?? null,
    property?.address_point?.lng ?? null,
  ];
}

/** One whole row in `batchHeader(layers)` order (without the product's leading columns). */
export function rowCells(
  layers: readonly BatchLayer[],
  property: GraphProperty | null,
  failedFields: ReadonlySet<string> = new Set(),
): { cells: Cell[]; statuses: Record<string, RowStatus> } {
  const cells = identityCells(property);
  const statuses: Record<string, RowStatus> = {};
  for (const layer of layers) {
    const answer = layerCells(layer, property, failedFields.has(layer.field));
    statuses[layer.name] = answer.status;
    cells.push(answer.status, ...answer.cells);
  }
  return { cells, statuses };
}

/**
 * A row whose property could not be read at all (its lookup failed or timed out, as opposed to
 * finding nothing): empty identity cells and unavailable in every layer.
 */
export function unavailableRow(layers: readonly BatchLayer[]): { cells: Cell[]; statuses: Record<string, RowStatus> } {
  const cells = identityCells(null);
  const statuses: Record<string, RowStatus> = {};
  for (const layer of layers) {
    statuses[layer.name] = 'unavailable';
    cells.push('unavailable', ...statusCells(layer, 'unavailable').cells);
  }
  return { cells, statuses };
}

/** The graph selection on Property for these layers and the identity columns. */
export function propertySelection(layers: readonly BatchLayer[]): string {
  return `${IDENTITY_SELECTION} ${layers.map((l) => l.selection).join(' ')}`;
}

/** The batch operation: up to MAX_PROPERTY_BATCH properties by G-NAF PID, in the order given. */
export function batchOperation(layers: readonly BatchLayer[]): string {
  return `query BulkRows($gnafPids: [ID!]!) { properties: propertiesByGnafPids(gnaf_pids: $gnafPids) { ${propertySelection(layers)} } }`;
}
