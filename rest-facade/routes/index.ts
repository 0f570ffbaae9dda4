import type { RouteDefinition } from '../route.ts';
import { addressAutocomplete, addressValidate, cadastreByAddress, propertyResolve } from './address.ts';
import { cadastreBBox, cadastreLookup } from './cadastre.ts';
import { cadastreLotDetail, cadastreParseLot } from './lots.ts';
import { health } from './health.ts';
import { buildings, easements, landValues } from './land-features.ts';
import { planningZonesCoverage, planningZonesHealth, planningZonesMetrics } from './planning-zones.ts';
import { changelog, usage } from './platform.ts';
import { propertyGraph } from './property.ts';
import { hazardsRoute, riskSummary } from './risk.ts';
import { contoursTerrainStats, contoursVector, elevationTerrain } from './terrain.ts';
import { buildingEnvelope, envelopeByAddress } from './envelope.ts';
import { planningProvisions } from './provisions.ts';
import { roadsFronting, roadsNearest } from './roads.ts';
import { soil } from './soil.ts';
import { localityDemographics, localitySuburbDemographics } from './demographics.ts';
import {
  developmentApplicationStatistics,
  developmentApplicationsFeed,
  developmentApplicationsNearby,
  developmentApplicationsOfLga,
  developmentApplicationsOfParcel,
  dossierDevelopmentApplications,
} from './development.ts';
import { spearBBox, spearNearby, spearOfParcel } from './spear.ts';
import {
  landSupplyEstate,
  landSupplyEstatesNearby,
  landSupplyLotsNearby,
  landSupplyLotTiles,
  landSupplyState,
  landSupplyStates,
  landSupplySuburb,
} from './supply.ts';
import {
  suburbAnalyticsBundle,
  suburbAnalyticsList,
  suburbAnalyticsScreen,
  suburbAnalyticsSuburb,
  suburbAnalyticsTimeseries,
} from './suburb-analytics.ts';
import { climateZone, ugbAtPoint, ugbVector } from './ugb.ts';
import {
  propertySales,
  propertySalesComparables,
  suburbTrendPrices,
  suburbTrendRents,
  suburbTrends,
} from './market.ts';
import {
  catchmentWalking,
  localityChildcare,
  localitySchools,
  localitySuburbAmenities,
  localitySupermarkets,
  localityTransportStops,
} from './locality.ts';
import { jobCancel, jobList, jobStatus } from './jobs.ts';
import { earthworksResult, earthworksSubmit } from './siting.ts';
import { exportLayers, exportManifest, exportResult, exportStatus, exportSubmit, exportUsage } from './exports.ts';
import { enrichApprove, enrichJobResult, enrichJobStatus, enrichSubmit } from './enrich.ts';
import {
  webhookEndpointCreate,
  webhookEndpointDelete,
  webhookEndpointDeliveries,
  webhookEndpointList,
  webhookEndpointRotate,
  webhookEndpointShow,
  webhookEndpointTest,
} from './webhooks.ts';

/** The route table: every REST route of the facade, in the order the OpenAPI document lists them. */
export const ROUTES: RouteDefinition[] = [
  health,
  planningZonesHealth,
  planningZonesMetrics,
  planningZonesCoverage,
  changelog,
  usage,
  cadastreLookup,
  cadastreBBox,
  cadastreByAddress,
  cadastreParseLot,
  cadastreLotDetail,
  propertyResolve,
  propertyGraph,
  riskSummary,
  addressAutocomplete,
  addressValidate,
  contoursVector,
  contoursTerrainStats,
  elevationTerrain,
  planningProvisions,
  envelopeByAddress,
  buildingEnvelope,
  ugbVector,
  ugbAtPoint,
  climateZone,
  roadsNearest,
  roadsFronting,
  soil,
  easements,
  buildings,
  landValues,
  hazardsRoute,
  developmentApplicationsNearby,
  developmentApplicationsOfParcel,
  developmentApplicationsOfLga,
  developmentApplicationStatistics,
  developmentApplicationsFeed,
  dossierDevelopmentApplications,
  spearNearby,
  spearBBox,
  spearOfParcel,
  landSupplyEstatesNearby,
  landSupplyLotsNearby,
  landSupplySuburb,
  landSupplyEstate,
  landSupplyState,
  landSupplyStates,
  landSupplyLotTiles,
  localityDemographics,
  localitySuburbDemographics,
  propertySales,
  propertySalesComparables,
  suburbTrends,
  suburbTrendPrices,
  suburbTrendRents,
  // the fixed paths before /{state}, which would take 'bundle', 'timeseries' or 'screen' for a state
  suburbAnalyticsBundle,
  suburbAnalyticsTimeseries,
  suburbAnalyticsScreen,
  suburbAnalyticsList,
  suburbAnalyticsSuburb,
  localitySchools,
  localityChildcare,
  localitySupermarkets,
  localityTransportStops,
  localitySuburbAmenities,
  catchmentWalking,
  earthworksSubmit,
  earthworksResult,
  jobList,
  jobStatus,
  jobCancel,
  webhookEndpointCreate,
  webhookEndpointList,
  webhookEndpointShow,
  webhookEndpointDelete,
  webhookEndpointRotate,
  webhookEndpointTest,
  webhookEndpointDeliveries,
  // the fixed paths before /{id}, which would take 'layers' or 'usage' for a job id
  exportLayers,
  exportUsage,
  exportSubmit,
  exportStatus,
  exportResult,
  exportManifest,
  enrichSubmit,
  enrichApprove,
  enrichJobStatus,
  enrichJobResult,
] as RouteDefinition[];
