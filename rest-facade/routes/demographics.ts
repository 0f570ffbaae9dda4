import { z } from 'zod';
import { AppError } from '../../core/errors.ts';
import { detectState } from '../../core/geo.ts';
import { assertPoint } from '../../core/validate.ts';
import { unwrap } from '../graph-result.ts';
import { stateParam, textParam } from '../params.ts';
import { defineRoute } from '../route.ts';
import { pointParcelOrAddressQuery, propertyByParcelOrAddress } from './parcel-point.ts';
import type { LayerFields } from './cadastre.ts';
import { LAYER_FIELDS, creditOf } from './cadastre.ts';

/** One area's figures: the selection the routes and the property graph share. */
export const PROFILE_FIELDS = `geography code name state area_km2 population males females density_per_km2
  age_groups { band from_age to_age persons } median_age median_personal_income_weekly median_family_income_weekly
  median_household_income_weekly median_rent_weekly median_mortgage_monthly average_household_size
  average_persons_per_bedroom families { couple_no_children couple_with_children one_parent other total }
  households { family lone_person group total }
  tenure { owned_outright owned_with_mortgage rented other not_stated total owner_occupied_pct rented_pct }
  dwellings { separate_house semi_detached flat_apartment other not_stated occupied unoccupied total } tables`;

/** The demographics layer's selection for GET /api/locality/demographics: every figure of both areas. */
export const DEMOGRAPHICS_FIELDS = `${LAYER_FIELDS} freshness data { census_year sa1 { ${PROFILE_FIELDS} } sal { ${PROFILE_FIELDS} } }`;

/**
 * The headline figures of one area, as the property graph carries them: the whole profile of
 * both areas would take a fifth of an operation's field budget (core/operation-limits.ts), and
 * GET /api/locality/demographics serves it in full.
 */
const PROFILE_SUMMARY_FIELDS = `geography code name population median_age median_household_income_weekly
  median_rent_weekly median_mortgage_monthly average_household_size tenure { owner_occupied_pct rented_pct }`;

/** The demographics layer's selection in /v1/property/graph. */
export const DEMOGRAPHICS_SUMMARY_FIELDS = `${LAYER_FIELDS} freshness data { census_year
  sa1 { ${PROFILE_SUMMARY_FIELDS} } sal { ${PROFILE_SUMMARY_FIELDS} } }`;

type DemographicsLayerFields = LayerFields & { freshness: string | null; data: Record<string, unknown> | null };

const DEMOGRAPHICS_AT = `query DemographicsAt($lat: Float!, $lng: Float!, $state: String!) {
  demographicsAt(lat: $lat, lng: $lng, state: $state) { ${DEMOGRAPHICS_FIELDS} }
}`;
// Identity fields beyond state are not selected: the caller gave them.
const DEMOGRAPHICS_OF_PARCEL = `query DemographicsOfParcel($pfi: String!, $state: String!) {
  property: propertyByParcel(parcel_pfi: $pfi, state: $state) { state demographics { ${DEMOGRAPHICS_FIELDS} } }
}`;
const DEMOGRAPHICS_OF_ADDRESS = `query DemographicsOfAddress($gnafPid: ID!) {
  property: propertyByGnafPid(gnaf_pid: $gnafPid) { state demographics { ${DEMOGRAPHICS_FIELDS} } }
}`;
const SUBURB_DEMOGRAPHICS = `query SuburbDemographics($state: String!, $suburb: String!) {
  suburbDemographics(state: $state, suburb: $suburb) { ${LAYER_FIELDS} freshness data { ${PROFILE_FIELDS} } }
}`;

/** lat and lng, or pfi and state, or gnaf_pid (spec 2.1.2): exactly one. */
export const demographicsQuery = pointParcelOrAddressQuery;

const failed = (layer: LayerFields) =>
  new AppError('UPSTREAM_UNAVAILABLE', layer.message ?? 'The demographics source failed.', 'Retry shortly.');

export const localityDemographics = defineRoute({
  method: 'get',
  path: '/api/locality/demographics',
  tag: 'Demographics',
  summary: 'Census 2021 figures of the SA1 and the suburb (SAL) at a point, parcel or address.',
  access: { scope: 'locality.read' },
  query: demographicsQuery,
  errorStyle: 'plain',
  async handle(q, { graph, scope }) {
    let layer: DemographicsLayerFields;
    let query: Record<string, unknown>;
    let property: Record<string, unknown> | null = null;
    if (q.lat !== undefined && q.lng !== undefined) {
      assertPoint(q.lat, q.lng);
      const state = q.state ?? detectState(q.lng, q.lat) ?? 'VIC';
      query = { lat: q.lat, lng: q.lng, state };
      layer = unwrap(
        await graph.execute<{ demographicsAt: DemographicsLayerFields }>(
          DEMOGRAPHICS_AT,
          { lat: q.lat, lng: q.lng, state },
          scope,
        ),
      ).demographicsAt;
    } else {
      const answer = await propertyByParcelOrAddress<{ state: string; demographics: DemographicsLayerFields }>(
        graph,
        scope,
        q,
        { ofParcel: DEMOGRAPHICS_OF_PARCEL, ofAddress: DEMOGRAPHICS_OF_ADDRESS },
        'the place',
      );
      ({ query, property } = answer);
      layer = answer.found.demographics;
    }
    if (layer.status === 'error') throw failed(layer);
    const credit = creditOf(layer);
    return {
      body: {
        success: true,
        query,
        ...(property ? { property } : {}),
        status: layer.status,
        message: layer.message,
        source: layer.source,
        freshness: layer.freshness,
        data: layer.data,
        attribution: credit?.attribution ?? null,
        license: credit?.license ?? null,
      },
      credit,
    };
  },
});

export const suburbDemographicsQuery = z.object({
  state: stateParam,
  suburb: textParam('suburb', 80),
});

type SuburbLayerFields = LayerFields & { freshness: string | null; data: Record<string, unknown>[] | null };

export const localitySuburbDemographics = defineRoute({
  method: 'get',
  path: '/api/locality/demographics/suburb',
  tag: 'Demographics',
  summary: 'Census 2021 figures of a suburb or locality (SAL) by its name in a state.',
  access: { scope: 'locality.read' },
  query: suburbDemographicsQuery,
  errorStyle: 'plain',
  async handle(q, { graph, scope }) {
    const layer = unwrap(
      await graph.execute<{ suburbDemographics: SuburbLayerFields }>(
        SUBURB_DEMOGRAPHICS,
        { state: q.state, suburb: q.suburb },
        scope,
      ),
    ).suburbDemographics;
    if (layer.status === 'error') throw failed(layer);
    if (layer.status === 'no_data') {
      throw new AppError(
        'NOT_FOUND',
        layer.message ?? `No suburb or locality named ${q.suburb} in ${q.state}.`,
        'Give the suburb as the ABS names it (SAL), e.g. suburb=Richmond; its state suffix may be left off.',
      );
    }
    const credit = creditOf(layer);
    const [first, ...others] = layer.data ?? [];
    return {
      body: {
        success: true,
        query: { state: q.state, suburb: q.suburb },
        status: layer.status,
        message: layer.message,
        source: layer.source,
        freshness: layer.freshness,
        census_year: 2021,
        // the most populous SAL of the name; others of the same name in the state follow it
        data: first ?? null,
        others,
        attribution: credit?.attribution ?? null,
        license: credit?.license ?? null,
      },
      credit,
    };
  },
});
