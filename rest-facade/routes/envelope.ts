import { z } from 'zod';
import { stageBudget, withinBudget } from '../../core/budget.ts';
import { AppError } from '../../core/errors.ts';
import { withGrant } from '../../core/scopes.ts';
import { unwrap } from '../graph-result.ts';
import { stateParam, textParam } from '../params.ts';
import type { Credit, RouteResponse } from '../route.ts';
import { defineRoute } from '../route.ts';
import type { MatchResult } from './address.ts';
import { matchAddress, matchCredit, postcodeParam, timeoutParam } from './address.ts';
import type { LayerFields } from './cadastre.ts';
import { LAYER_FIELDS, creditOf } from './cadastre.ts';
import { landLayer, landQuery } from './land.ts';
import { combineCredits } from './property.ts';
import type { EnvelopeLayerFields, LotInput } from './provisions-shape.ts';
import { ENVELOPE_FIELDS, LOT_PARAMS, envelopeToRest, lotVariable, provisionsToRest } from './provisions-shape.ts';

/** Why an envelope could not be drawn, as the REST caller hears it. */
function envelopeUnavailable(envelope: EnvelopeLayerFields): AppError {
  if (envelope.status === 'error') {
    return new AppError(
      'UPSTREAM_UNAVAILABLE',
      envelope.message ?? 'A planning source failed.',
      'A planning source failed; retry shortly.',
    );
  }
  return new AppError(
    'UNPROCESSABLE',
    envelope.message ?? 'No envelope can be drawn for this parcel.',
    'The envelope formula has no answer for this parcel; /v1/planning-provisions still gives its rules.',
  );
}

export const buildingEnvelope = defineRoute({
  method: 'get',
  path: '/api/envelope',
  tag: 'Envelope',
  summary: 'The building envelope of a lot: the parcel shrunk by its per-boundary setbacks, with the height limit.',
  access: { scope: 'envelope.read' },
  query: landQuery,
  errorStyle: 'plain',
  async handle(q, { graph, scope }) {
    const { property, query } = await landLayer<EnvelopeLayerFields>(
      graph,
      scope,
      q,
      `envelope(lot: $lot) { ${ENVELOPE_FIELDS} }`,
    );
    const envelope = property.layer;
    if (!property.parcel_pfi) {
      throw new AppError(
        'NOT_FOUND',
        'No parcel lies at this point, so there is no envelope.',
        'Ask at a point inside a lot, or by pfi and state.',
      );
    }
    if (!envelope.data || envelope.gap) throw envelopeUnavailable(envelope);
    const credit = creditOf(envelope);
    return {
      body: {
        success: true,
        query,
        property: { parcel_pfi: property.parcel_pfi, state: property.state },
        status: envelope.status,
        source: envelope.source,
        message: envelope.message,
        envelope: envelopeToRest(envelope.data),
        provisions: provisionsToRest(envelope.data.provisions),
        attribution: credit?.attribution ?? null,
        license: credit?.license ?? null,
      },
      credit,
    };
  },
});

const PARCEL_AND_ENVELOPE = `query EnvelopeAtAddressPoint($lat: Float!, $lng: Float!, $state: String!, $lot: LotCharacteristicsInput) {
  property: propertyAt(lat: $lat, lng: $lng, state: $state) {
    parcel_pfi state
    cadastre { ${LAYER_FIELDS} data { parcel_pfi state area_m2 } }
    envelope(lot: $lot) { ${ENVELOPE_FIELDS} }
  }
}`;

type ParcelStage = LayerFields & { data: { parcel_pfi: string; state: string; area_m2: number } | null };
type EnvelopeProperty = {
  parcel_pfi: string | null;
  state: string;
  cadastre: ParcelStage;
  envelope: EnvelopeLayerFields;
};

type StageName = 'address' | 'parcel' | 'envelope';
type StageRecord = {
  stage: StageName;
  status: 'ok' | 'failed';
  source: string | null;
  attribution: string | null;
  license: string | null;
  detail: Record<string, unknown>;
};

const envelopeQuery = z.object({
  address: textParam('address', 300),
  state: stateParam.optional(),
  postcode: postcodeParam.optional(),
  timeout_ms: timeoutParam,
  ...LOT_PARAMS,
});

const stageCredit = (s: StageRecord): Credit | null =>
  s.attribution && s.license ? { attribution: s.attribution, license: s.license } : null;

/** A failed stage of the pipeline: its own status code (DESIGN.md §4), with the stages before it. */
function stageFailure(
  status: number,
  stage: StageName,
  retryable: boolean,
  error: string,
  hint: string | null,
  stages: StageRecord[],
  failure?: AppError,
): RouteResponse {
  const credit = combineCredits(stages.map(stageCredit));
  const body = { success: false, error, hint, stage, retryable, stages };
  return {
    status,
    body: { ...body, attribution: credit?.attribution ?? null, license: credit?.license ?? null },
    credit,
    ...(failure ? { failure } : {}),
  };
}

const stageOf = (stage: StageName, layer: LayerFields, detail: Record<string, unknown>): StageRecord => ({
  stage,
  status: layer.status === 'ok' ? 'ok' : 'failed',
  source: layer.source,
  attribution: layer.attribution,
  license: layer.license,
  detail,
});

async function addressStage(
  run: () => Promise<MatchResult>,
): Promise<{ result: MatchResult } | { failure: RouteResponse }> {
  try {
    return { result: await run() };
  } catch (error) {
    // A retryable failure keeps its own status: 502 when a source failed, 503 when we could not answer.
    if (error instanceof AppError && error.retryable) {
      return { failure: stageFailure(error.status, 'address', true, error.message, error.hint ?? null, [], error) };
    }
    throw error;
  }
}

export const envelopeByAddress = defineRoute({
  method: 'get',
  path: '/v1/envelope-by-address',
  tag: 'Envelope',
  summary: 'Address to address point to parcel to building envelope, with provenance for every stage.',
  access: { scope: 'envelope.by-address.read' },
  query: envelopeQuery,
  errorStyle: 'plain',
  async handle(q, { graph, scope }) {
    const budget = stageBudget(q.timeout_ms);
    const matched = await addressStage(() =>
      matchAddress(graph, scope, { q: q.address, state: q.state, postcode: q.postcode, timeout_ms: q.timeout_ms }),
    );
    if ('failure' in matched) return matched.failure;
    const { result } = matched;
    if (result.status !== 'matched' || !result.match) {
      return stageFailure(404, 'address', false, result.message ?? 'No address matches.', result.hint, []);
    }
    const match = result.match;
    const { lat, lng } = match.address.location;
    const addressCredit = matchCredit(result);
    const stages: StageRecord[] = [
      {
        stage: 'address',
        status: 'ok',
        source: result.source,
        attribution: addressCredit?.attribution ?? null,
        license: addressCredit?.license ?? null,
        detail: {
          gnaf_pid: match.address.gnaf_pid,
          formatted_address: match.address.formatted_address,
          similarity: match.similarity,
          confidence: match.confidence,
          geocodeType: match.geocode_type,
          location: { lat, lng },
        },
      },
    ];
    // The key pays for the envelope, not for the cadastre layer: a grant opens just the parcel stage.
    let property: EnvelopeProperty;
    try {
      property = unwrap(
        await withinBudget(
          'cadastre',
          budget,
          graph.execute<{ property: EnvelopeProperty }>(
            PARCEL_AND_ENVELOPE,
            { lat, lng, state: match.address.state, lot: lotVariable(q as LotInput) },
            withGrant(scope, 'internal:envelope-parcel-stage'),
          ),
        ),
      ).property;
    } catch (error) {
      if (error instanceof AppError && error.retryable) {
        return stageFailure(error.status, 'parcel', true, error.message, error.hint ?? null, stages, error);
      }
      throw error;
    }
    const parcel = property.cadastre;
    stages.push(
      stageOf(
        'parcel',
        parcel,
        parcel.data ? { ...parcel.data, message: parcel.message } : { message: parcel.message },
      ),
    );
    if (parcel.status === 'error') {
      const error = `${match.address.formatted_address} was matched, but the cadastre source failed for its point.`;
      const failure = new AppError('UPSTREAM_UNAVAILABLE', error, parcel.message ?? undefined);
      return stageFailure(failure.status, 'parcel', true, error, parcel.message ?? 'Retry shortly.', stages, failure);
    }
    if (parcel.status !== 'ok' || !parcel.data) {
      const error = `${match.address.formatted_address} was matched, but no parcel lies under its point.`;
      return stageFailure(404, 'parcel', false, error, parcel.message, stages);
    }
    const envelope = property.envelope;
    stages.push(stageOf('envelope', envelope, { gap: envelope.gap, message: envelope.message }));
    if (envelope.status === 'error') {
      const error = 'A planning source failed while the envelope was worked out.';
      const failure = new AppError('UPSTREAM_UNAVAILABLE', error, envelope.message ?? undefined);
      return stageFailure(
        failure.status,
        'envelope',
        true,
        error,
        envelope.message ?? 'Retry shortly.',
        stages,
        failure,
      );
    }
    if (!envelope.data || envelope.gap) {
      const error = envelope.message ?? 'No envelope can be drawn for this parcel.';
      const hint = 'The envelope formula has no answer for this parcel; /v1/planning-provisions still gives its rules.';
      return stageFailure(422, 'envelope', false, error, hint, stages);
    }
    const credit = combineCredits([addressCredit, creditOf(parcel), creditOf(envelope)]);
    return {
      body: {
        success: true,
        query: { address: q.address, ...(q.state ? { state: q.state } : {}) },
        property: { gnaf_pid: match.address.gnaf_pid, parcel_pfi: parcel.data.parcel_pfi, state: parcel.data.state },
        envelope: envelopeToRest(envelope.data),
        provisions: provisionsToRest(envelope.data.provisions),
        stages,
        attribution: credit?.attribution ?? null,
        license: credit?.license ?? null,
      },
      credit,
    };
  },
});
