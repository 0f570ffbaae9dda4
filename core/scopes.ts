/**
 * The scope table of spec 5.6, as data in one place: every scope a key can hold, what it
 * grants, and which graph fields need it. Routes name their scope in the route table
 * (rest-facade/routes); the graph's field scopes are below and enforced in every subgraph.
 */
export const SCOPES = {
  'cadastre.read': 'lot boundaries, parcel attributes, PFI lookups',
  'planning.read': 'zone resolution, overlays, schedule references',
  'envelope.read': 'building envelope, setbacks, cut/fill, contours, climate zone',
  'locality.read': 'schools, amenities, suburb trends, demographics, address',
  'locality.suburb': 'suburb trend series under /api/suburb-trends/*',
  'dossier.read': 'property sales, DA records, building footprints, suitability',
  'catalog.read': 'home design and builder catalogue',
  'ai-vision.read': 'AI-generated vision data',
  'siting.read': 'siting',
  'siting.fit': 'siting: footprint fit',
  'siting.earthworks': 'siting: earthworks',
  'spear.read': 'SPEAR (Victorian planning applications)',
  'risk.read': 'risk overlays',
  'soil.read': 'soil',
  'valuation.compute': 'valuation calculators',
  'image-access.read': 'image and object access',
  'basemap.read': 'basemap',
  'elevation.read': 'elevation',
  'roads.read': 'roads',
  'ugb.read': 'urban growth boundary',
  'easement.read': 'easements',
  'address.read': '/v1/property/resolve',
  'property-graph.read': '/v1/property/graph',
  'risk.summary.read': '/v1/risk-summary',
  'suburb-analytics.read': 'suburb analytics',
  'catchment.read': 'walking catchment',
  'land-supply.read': 'land supply',
  'development-applications.read': 'development-application lookups and statistics',
  'development-applications.feed.read': 'development-application change feed',
  'planning.provisions.read': 'planning provisions',
  'envelope.by-address.read': 'envelope by address',
  'ai-analyst.ask': 'AI analyst',
  'enrich.submit': 'enrich: submit and approve jobs',
  'enrich.read': 'enrich: job status and results',
  'livability.rating.read': 'Livability Rating',
  'pii.scan': 'PII scan',
  'pii.mask': 'PII mask',
  'pii.anonymize': 'PII anonymize and restore',
} as const;

export type Scope = keyof typeof SCOPES;
export const ALL_SCOPES = Object.keys(SCOPES) as Scope[];

export function isScope(value: string): value is Scope {
  return value in SCOPES;
}

/** Capabilities are key flags beyond scopes; each is denied unless granted. */
export const CAPABILITIES = { bulk_export: 'bulk property export (separate agreement)' } as const;
export type Capability = keyof typeof CAPABILITIES;
export function isCapability(value: string): value is Capability {
  return value in CAPABILITIES;
}

const PROPERTY_ENTRY_SCOPES: readonly Scope[] = [
  'property-graph.read',
  'cadastre.read',
  'planning.read',
  'planning.provisions.read',
  'envelope.read',
  'elevation.read',
];

/**
 * The graph fields a key needs a scope for: `Type.field` → the scopes any one of which grants
 * it. A field not listed here is open to every authenticated caller (identity, health).
 */
export const FIELD_SCOPES: Record<string, readonly Scope[]> = {
  'Query.propertyByGnafPid': ['property-graph.read', 'address.read', 'cadastre.read', 'planning.read'],
  'Query.matchAddress': ['cadastre.read', 'address.read', 'locality.read', 'envelope.by-address.read'],
  'Query.suggestAddresses': ['locality.read'],
  'Query.addressesOnParcel': ['cadastre.read', 'address.read'],
  // the entry points of every product asked about a property, by point or by parcel
  'Query.propertyAt': PROPERTY_ENTRY_SCOPES,
  'Query.propertyByParcel': PROPERTY_ENTRY_SCOPES,
  'Query.parcelAt': ['cadastre.read'],
  'Query.parcelByPfi': ['cadastre.read'],
  'Query.parcelsInBBox': ['cadastre.read'],
  'Query.parcelsByLotPlan': ['cadastre.read'],
  'Query.parseLotReference': ['cadastre.read'],
  'Query.planningAt': ['planning.read'],
  'Property.address': ['address.read', 'property-graph.read', 'locality.read'],
  'Property.cadastre': ['cadastre.read'],
  'Property.planning': ['planning.read'],
  'Property.parcel_geometry': [
    'cadastre.read',
    'envelope.read',
    'envelope.by-address.read',
    'planning.provisions.read',
    'elevation.read',
  ],
  'Property.provisions': ['planning.provisions.read'],
  'Property.envelope': ['envelope.read', 'envelope.by-address.read'],
  'Property.climate_zone': ['envelope.read'],
  'Property.terrain': ['elevation.read'],
  'Query.provisionsAt': ['planning.provisions.read'],
  'Query.ugbAt': ['ugb.read'],
  'Query.ugbInBBox': ['ugb.read'],
  'Query.climateZoneAt': ['envelope.read'],
  'Query.contours': ['envelope.read'],
  'Query.terrainStats': ['envelope.read', 'elevation.read'],
  'Query.terrainOfBBox': ['elevation.read'],
};

/** Read-only scopes of the public demo key (spec 1.6): lookups, no products. */
export const DEMO_SCOPES: readonly Scope[] = [
  'cadastre.read',
  'planning.read',
  'address.read',
  'locality.read',
  'property-graph.read',
];
