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
  'webhooks.manage':
    "webhooks: register, list, rotate, test and delete the account's endpoints; read their delivery log",
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

/**
 * Narrow grants the facade adds to a caller's own scopes for one lookup a route needs but does
 * not sell (docs/decisions.md). No key can hold one (they are not in SCOPES, and keys.ts accepts
 * only those); each opens just the fields its lookup reads, and the route answers only what
 * the caller's own scopes allow.
 */
export const INTERNAL_GRANTS = {
  /** /v1/property/resolve: the parcel under a matched address point, for its parcel_pfi. */
  'internal:address-to-parcel': 'the parcel_pfi of the parcel under an address point',
  /** /v1/envelope-by-address: the parcel stage (pfi, state, area) of the envelope pipeline. */
  'internal:envelope-parcel-stage': 'the parcel under an address point, for the envelope it bounds',
  /**
   * The bulk products (export, enrich): a selection's addresses, the batch root, and each row's
   * identity columns (spec 4.7: every row has gnaf_pid, address, locality, state, postcode,
   * latitude, longitude). Layers stay behind the caller's own scopes.
   */
  'internal:bulk-rows': 'the addresses of a bulk selection and the identity columns of each row',
} as const;
export type InternalGrant = keyof typeof INTERNAL_GRANTS;
export type Grant = Scope | InternalGrant;

const PROPERTY_ENTRY_SCOPES: readonly Grant[] = [
  'property-graph.read',
  'cadastre.read',
  'planning.read',
  'planning.provisions.read',
  'envelope.read',
  'elevation.read',
  'soil.read',
  // the land layers are asked about a property by point, by parcel or by address
  'easement.read',
  'dossier.read',
  'risk.read',
  'risk.summary.read',
  // GET /api/ugb/at-point takes a parcel or an address as well as a point (spec 2.1.2)
  'ugb.read',
  // the DA lookups take pfi + state in place of lat/lng (spec 2.1.2)
  'development-applications.read',
  // SPEAR's lookups by point take pfi + state in place of lat/lng, and its lookup by PFI opens the parcel
  'spear.read',
  // the land-supply nearby lookups take pfi + state in place of lat/lng
  'land-supply.read',
  // the demographics of a point take pfi + state in place of lat/lng (spec 2.1.2)
  'locality.read',
  // the locality amenity lookups and the walking catchment take pfi + state in place of lat/lng
  'locality.read',
  'catchment.read',
  // an earthworks footprint is submitted on a lot named by pfi + state
  'siting.earthworks',
];

/**
 * The identity of a property (docs/decisions.md): a key receives an identity field only with a
 * scope whose own layer already carries the same fact. The address's identity (gnaf_pid and its
 * geocode) comes with the scopes of the address layer; the parcel's (parcel_pfi and the point
 * the property is analysed at) also with cadastre.read and with the lot products, which work on
 * the parcel's geometry and echo its parcel_pfi on REST. planning.read (a zone at a point) gets
 * neither.
 */
const ADDRESS_IDENTITY_SCOPES: readonly Grant[] = [
  'address.read',
  'property-graph.read',
  'locality.read',
  // the risk routes echo the identifiers they resolved (spec 2.1.2)
  'risk.read',
  'risk.summary.read',
];
const PARCEL_IDENTITY_SCOPES: readonly Grant[] = [
  ...ADDRESS_IDENTITY_SCOPES,
  'cadastre.read',
  'planning.provisions.read',
  'envelope.read',
  'envelope.by-address.read',
  'elevation.read',
  // easements and land values are recorded against the parcel: both carry its parcel_pfi
  'easement.read',
  'dossier.read',
  // DA records name the parcel they matched, and a lookup by parcel searches around its point
  'development-applications.read',
  // SPEAR applications name the lots they touch (parcel PFIs)
  'spear.read',
  // a land-supply lookup by parcel searches around the parcel's point
  'land-supply.read',
  // a walking catchment of a parcel walks from the parcel's point, echoing its pfi
  'catchment.read',
  'internal:address-to-parcel',
  'internal:envelope-parcel-stage',
];

/**
 * The graph fields a key needs a scope for: `Type.field` → the grants any one of which opens
 * it. Every field of Query and Property is here or in OPEN_FIELDS, and every other type is in
 * SCOPED_BY_PARENT: test/scopes.test.ts walks the composed supergraph and names any field that
 * is in none, so a new field is refused until someone decides who may read it.
 */
export const FIELD_SCOPES: Record<string, readonly Grant[]> = {
  'Query.propertyByGnafPid': [
    'property-graph.read',
    'address.read',
    'cadastre.read',
    'planning.read',
    'soil.read',
    'easement.read',
    'dossier.read',
    'risk.read',
    'risk.summary.read',
    // ugb.read opens only Property.ugb; envelope.read is not here: by address it is its own product
    'ugb.read',
    // GET /api/locality/demographics takes a gnaf_pid; locality.read opens only Property.demographics there
    'locality.read',
  ],
  'Query.matchAddress': [
    'cadastre.read',
    'address.read',
    'locality.read',
    'envelope.by-address.read',
    'internal:bulk-rows',
  ],
  // the bulk products' batch root and selection: never sold to a key, only granted by the export and enrich jobs
  'Query.propertiesByGnafPids': ['internal:bulk-rows'],
  'Query.propertySelection': ['internal:bulk-rows'],
  'Query.suggestAddresses': ['locality.read'],
  'Query.addressesOnParcel': ['cadastre.read', 'address.read'],
  // the entry points of every product asked about a property, by point or by parcel
  // internal:bulk-rows: an enrich row given as lat/lng is located at its point
  'Query.propertyAt': [...PROPERTY_ENTRY_SCOPES, 'internal:envelope-parcel-stage', 'internal:bulk-rows'],
  'Query.propertyByParcel': PROPERTY_ENTRY_SCOPES,
  'Query.parcelAt': ['cadastre.read', 'internal:address-to-parcel'],
  'Query.parcelByPfi': ['cadastre.read'],
  'Query.parcelsInBBox': ['cadastre.read'],
  'Query.parcelsByLotPlan': ['cadastre.read'],
  'Query.parseLotReference': ['cadastre.read'],
  'Query.planningAt': ['planning.read'],
  'Property.gnaf_pid': [...ADDRESS_IDENTITY_SCOPES, 'internal:bulk-rows'],
  'Property.address_point': [...ADDRESS_IDENTITY_SCOPES, 'internal:bulk-rows'],
  'Property.parcel_pfi': PARCEL_IDENTITY_SCOPES,
  'Property.location': PARCEL_IDENTITY_SCOPES,
  'Property.address': ['address.read', 'property-graph.read', 'locality.read', 'internal:bulk-rows'],
  'Property.cadastre': ['cadastre.read', 'internal:envelope-parcel-stage'],
  'Property.planning': ['planning.read'],
  'Property.parcel_geometry': [
    'cadastre.read',
    'envelope.read',
    'envelope.by-address.read',
    'planning.provisions.read',
    'elevation.read',
    // the fronting roads are measured against the parcel's boundary (subgraphs/roads)
    'roads.read',
    // building footprints are the ones standing on the parcel, found by its boundary
    'dossier.read',
    // an earthworks footprint must lie inside its lot, and its setbacks are measured to the lot's boundary
    'siting.earthworks',
  ],
  'Property.provisions': ['planning.provisions.read'],
  'Property.envelope': ['envelope.read', 'envelope.by-address.read'],
  'Property.climate_zone': ['envelope.read'],
  'Property.ugb': ['ugb.read'],
  'Property.terrain': ['elevation.read'],
  'Property.soil': ['soil.read'],
  'Query.soilAt': ['soil.read'],
  'Query.provisionsAt': ['planning.provisions.read'],
  'Query.ugbAt': ['ugb.read'],
  'Query.ugbInBBox': ['ugb.read'],
  'Query.climateZoneAt': ['envelope.read'],
  'Query.contours': ['envelope.read'],
  // POST /api/contours/terrain-stats sells the same answer under envelope.read
  'Query.terrainStats': ['envelope.read'],
  'Query.terrainOfBBox': ['elevation.read'],
  // the Siting group's async DEM earthworks (spec 4.11): the job reads earthworks, the submit step its checks
  'Query.earthworks': ['siting.earthworks'],
  'Query.earthworksSite': ['siting.earthworks'],
  'Query.roadsNear': ['roads.read'],
  'Property.roads': ['roads.read'],
  // the planning products take the centrelines through @requires: every scope of a product that reads them
  'Property.road_lines': ['roads.read', 'envelope.read', 'envelope.by-address.read', 'planning.provisions.read'],
  'Property.easements': ['easement.read'],
  'Property.buildings': ['dossier.read'],
  // land values are valuer-general records of a parcel, sold with property sales under dossier.read
  'Property.land_value': ['dossier.read'],
  'Query.easementsInBBox': ['easement.read'],
  'Query.buildingsInBBox': ['dossier.read'],
  'Query.buildingsAt': ['dossier.read'],
  // risk.summary.read reads the same hazards for /v1/risk-summary, and nothing else of the layer
  'Property.hazards': ['risk.read', 'risk.summary.read'],
  // the BAL's effective slope takes the ground profile through @requires: every scope of a product
  // that reads it. Not elevation.read: the profile reaches states the Elevation group does not serve
  'Property.ground_profile': ['risk.read', 'risk.summary.read'],
  'Query.hazardsAt': ['risk.read', 'risk.summary.read'],
  // a parcel's DA records are sold twice: as a development-applications lookup and in the dossier (spec 4.11)
  'Property.development_applications': ['development-applications.read', 'dossier.read'],
  'Query.developmentApplicationsNear': ['development-applications.read'],
  'Query.developmentApplicationsInLga': ['development-applications.read'],
  'Query.developmentApplicationStatistics': ['development-applications.read'],
  'Query.developmentApplicationFeed': ['development-applications.feed.read'],
  'Property.spear_applications': ['spear.read'],
  // a point (or a parcel's point) as a Place: the entity is only the point asked, each of its fields keeps its own scope
  'Query.placeAt': ['spear.read'],
  'Query.placeOfParcel': ['spear.read'],
  'Place.spear_applications_near': ['spear.read'],
  // the parcels under a place are the cadastre's: the planner reads them for spear_applications_near,
  // the gateway answers them to cadastre.read only (PLANNER_FIELDS)
  'Place.parcel_pfis': ['cadastre.read'],
  'Query.spearApplicationsInBBox': ['spear.read'],
  'Query.landSupplyEstatesNearby': ['land-supply.read'],
  'Query.landSupplyLotsNearby': ['land-supply.read'],
  'Query.landSupplySuburb': ['land-supply.read'],
  'Query.landSupplyEstate': ['land-supply.read'],
  'Query.landSupplyState': ['land-supply.read'],
  'Query.landSupplyStates': ['land-supply.read'],
  'Query.landSupplyLotTile': ['land-supply.read'],
  // Census 2021 demographics: the Locality group's demographic context (spec 4.11)
  'Property.demographics': ['locality.read'],
  'Query.demographicsAt': ['locality.read'],
  'Query.suburbDemographics': ['locality.read'],
  // property sales are dossier records (spec 4.11); suburb trends are locality.read, their series routes locality.suburb
  'Property.market_trends': ['locality.read'],
  'Property.comparable_sales': ['dossier.read'],
  // the sales recorded of the property itself: dossier records like every sale
  'Property.sales': ['dossier.read'],
  'Query.propertySales': ['dossier.read'],
  'Query.suburbAnalyticsBundle': ['suburb-analytics.read'],
  'Query.suburbAnalyticsList': ['suburb-analytics.read'],
  'Query.suburbAnalyticsTimeseries': ['suburb-analytics.read'],
  'Query.suburbAnalyticsScreen': ['suburb-analytics.read'],
  'Query.amenitiesNear': ['locality.read'],
  'Query.walkingCatchment': ['catchment.read'],
  // the same catchment asked of a property beside its other layers (its point from the cadastre)
  'Property.walking_catchment': ['catchment.read'],
  // a suburb by name: its amenity counts (inside its ABS SAL boundary, read through the graph)
  // (locality.suburb too: the suburb-trends routes ask its supply_pipeline; the entity itself is only the name asked)
  'Query.suburbByName': ['locality.read', 'locality.suburb'],
  'Suburb.amenities': ['locality.read'],
  // the boundary is the demographics layer's (locality.read), and the planner reads it for Suburb.amenities
  'Suburb.sal_boundary': ['locality.read'],
  // the hull of its addresses is the address layer's, and the planner reads it for Suburb.amenities too
  'Suburb.address_hull': ['locality.read'],
  // the supply pipeline (market) and the counts it requires of the development and supply layers
  'Suburb.supply_pipeline': ['locality.read', 'locality.suburb'],
  'Suburb.development_pipeline': ['locality.read', 'locality.suburb'],
  'Suburb.land_supply_pipeline': ['locality.read', 'locality.suburb'],
  // the suburb's market trends (market; /api/suburb-trends/*) and the G-NAF locality they require of the address layer
  'Suburb.market_trends': ['locality.read', 'locality.suburb'],
  'Suburb.gnaf_locality': ['locality.read', 'locality.suburb'],
};

/**
 * Fields every authenticated caller may read, each for a stated reason: `state` is given by
 * the caller at every entry point, and the planning-zone service's health, counters and
 * coverage are open routes on REST too (/api/planning-zones/*).
 */
export const OPEN_FIELDS: readonly string[] = [
  'Property.state',
  'Query.planningServiceHealth',
  'Query.planningServiceMetrics',
  'Query.planningCoverage',
];

/**
 * Value types: their fields carry no scope of their own because the only way to them is a
 * field above that has one (or is open). The test proves none of them leads back to Query or
 * Property, which would make them a way round the table.
 */
export const SCOPED_BY_PARENT: readonly string[] = [
  // market (Property.market_trends, Property.comparable_sales, Query.propertySales, Suburb.market_trends)
  'ApprovalPoint',
  'ComparableSale',
  'ComparableSales',
  'ComparableSalesLayer',
  'MarketQuarter',
  'MarketTrendsLayer',
  'MarketTypeSummary',
  'PropertySale',
  'PropertySales',
  // the bulk selection (Query.propertySelection)
  'PropertySelection',
  'SuburbMarket',
  'SupplyPipeline',
  'SupplyPipelineLayer',
  // rents by dwelling type and bedrooms (SuburbMarket.rents, MarketTypeSummary.rents_by_bedrooms)
  'RentQuarter',
  'BedroomRent',
  // Query.placeAt and Query.placeOfParcel (spear.read): the point asked, or the parcel's point
  // (Property.location, which spear.read reads); its fields carry their own entries too
  'Place',
  // Query.suburbByName (locality.read); its fields carry their own entries too
  'Suburb',
  'SalBoundary',
  'SuburbAddressHull',
  'SuburbLocality',
  'SuburbApplicationCounts',
  'SuburbLotCounts',
  'Address',
  'AgeBand',
  'DemographicProfile',
  'Demographics',
  'DemographicsLayer',
  'DwellingStructure',
  'FamilyComposition',
  'HouseholdComposition',
  'SuburbDemographicsLayer',
  'Tenure',
  'AddressLayer',
  'AmenitiesNearLayer',
  'Amenity',
  'AmenityTag',
  'AddressList',
  'AddressMatch',
  'AddressMatchResult',
  'AddressSuggestions',
  'AppliedRule',
  'Building',
  'BuildingCollection',
  'BuildingLayer',
  'BalEstimate',
  'BuildingEnvelope',
  'CadastreLayer',
  'ClassifiedBoundary',
  'ClimateZone',
  'ClimateZoneLayer',
  'ContourLine',
  'ContourSet',
  'Earthworks',
  'EarthworksLayer',
  'EarthworksSetback',
  'EarthworksSite',
  'EarthworksSiteLayer',
  'DevelopmentApplication',
  'DevelopmentApplicationLayer',
  'DevelopmentApplicationPage',
  'DevelopmentApplicationsNear',
  'DevelopmentCount',
  'DevelopmentCredit',
  'DevelopmentFeedPage',
  'DevelopmentMonth',
  'DevelopmentStatistics',
  'Easement',
  'EasementCollection',
  'EasementLayer',
  'EnvelopeLayer',
  'EnvelopeLevel',
  'Estate',
  'EstateSupply',
  'EstatesNearby',
  'FrontingRoad',
  'GeoPoint',
  'GroundProfile',
  'GroundProfileLayer',
  'GroundRay',
  'Hazard',
  'HazardEvidence',
  'Hazards',
  'HazardsLayer',
  'HeightRule',
  'LandValue',
  'LandValueLayer',
  'LatencyStats',
  'LiveLotRollup',
  'Lot',
  'LotCharacteristics',
  'LotEstate',
  'LotReference',
  'LotTile',
  'LotsNearby',
  'NearbyRoad',
  'NearbyRoadsLayer',
  'Overlay',
  'Parcel',
  'ParcelCollection',
  'ParsedAddressComponents',
  'PercentRule',
  'PlanningAdapterHealth',
  'PlanningAdapterMetrics',
  'PlanningCoverage',
  'PlanningCoverageSummary',
  'PlanningHealthSummary',
  'PlanningLayer',
  'PlanningProvisions',
  'PlanningResult',
  'PlanningServiceConfiguration',
  'PlanningServiceHealth',
  'PlanningServiceMetrics',
  'PlanningStateCoverage',
  'PlanningSystemMetrics',
  'ProvisionsLayer',
  'RoadLine',
  'RoadLinesLayer',
  'RoadsLayer',
  'SetbackRule',
  'SiteClassBand',
  'Soil',
  'SoilLayer',
  'SpearApplication',
  'SpearApplicationLayer',
  'SpearApplications',
  'StateLatest',
  'StateSupply',
  'StatesSupply',
  'SuburbAnalyticsBundle',
  'SuburbAnalyticsList',
  'SuburbAnalyticsListItem',
  'SuburbAnalyticsScreen',
  'SuburbAnalyticsTimeseries',
  'SuburbScreenRow',
  'SuburbSeriesPoint',
  'SuburbSupply',
  'SuburbAmenitiesLayer',
  'SuburbAmenityCount',
  'SupplyWeek',
  'TerrainLayer',
  'TerrainStats',
  'TerrainStatsLayer',
  'UgbAtPoint',
  'UgbCollection',
  'UgbFeature',
  'UgbPointData',
  'WalkingCatchment',
  'WallOnBoundaryRule',
  'Zone',
];

/**
 * Fields the query planner itself reads (entity keys and @requires): a subgraph cannot refuse
 * them without breaking the layers that build on them, so the gateway withholds them from the
 * composed answer instead (gateway/field-access.ts).
 */
export const PLANNER_FIELDS: readonly string[] = [
  'Property.gnaf_pid',
  'Property.parcel_pfi',
  'Property.location',
  // the soil layer reads the lot's boundary through @requires without selling it to soil.read
  'Property.parcel_geometry',
  // SPEAR's applications near a place require the parcels under it, which spear.read does not buy
  'Place.parcel_pfis',
];

/** The caller's scopes widened by one internal grant, for the one lookup it names. */
export function withGrant<T extends { scopes: readonly string[] | '*' }>(scope: T, grant: InternalGrant): T {
  return { ...scope, scopes: scope.scopes === '*' ? '*' : [...scope.scopes, grant] };
}

/** Read-only scopes of the public demo key (spec 1.6): lookups, no products. */
export const DEMO_SCOPES: readonly Scope[] = [
  'cadastre.read',
  'planning.read',
  'address.read',
  'locality.read',
  'property-graph.read',
];
