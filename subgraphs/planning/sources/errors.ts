import { CadastreSourceError } from '../../cadastre/sources/errors.ts';

/**
 * How a live planning service failed. The planning layer turns it into status `error` naming
 * the source; the resilience around each call reads `retryable` to decide whether another
 * attempt could help (the service's trouble: timeouts, 5xx, dropped connections) or not (our
 * request or its answer is wrong: 4xx, refusals, bodies that are not the protocol's shape).
 */
export type PlanningFailure =
  /** No answer within the attempt's budget. */
  | 'timeout'
  /** The connection failed: refused, reset, DNS. */
  | 'unreachable'
  /** An HTTP status other than 2xx, without a protocol error body. */
  | 'http'
  /** HTTP 200 carrying an ArcGIS `{"error": {...}}` body. */
  | 'arcgis'
  /** An OGC `ows:ExceptionReport` (WFS). */
  | 'ows'
  /** Not JSON, or JSON not in the protocol's shape. */
  | 'malformed'
  /** Features without the fields the state's profile maps: the service's schema has changed. */
  | 'schema'
  /** Refused here without asking: the service's circuit is open. */
  | 'circuit-open';

export type PlanningErrorDetails = {
  /** The HTTP status, or the code an ArcGIS error body carries. */
  status?: number;
  /** The OGC exception code (InvalidParameterValue, OperationProcessingFailed, ...). */
  exceptionCode?: string;
  cause?: unknown;
};

function retryableFailure(failure: PlanningFailure, status: number | undefined): boolean {
  switch (failure) {
    case 'timeout':
    case 'unreachable':
      return true;
    case 'http':
    case 'arcgis':
    case 'ows':
      return status !== undefined && status >= 500 && status <= 599;
    default:
      return false;
  }
}

export class PlanningSourceError extends Error {
  readonly retryable: boolean;

  constructor(
    readonly failure: PlanningFailure,
    message: string,
    readonly details: PlanningErrorDetails = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'PlanningSourceError';
    this.retryable = retryableFailure(failure, details.status);
  }
}

/**
 * The ArcGIS client is the cadastre's (one protocol client for both subgraphs); its failures are
 * read into planning's vocabulary here. Anything else passes through unchanged: a bug, or the
 * caller's own abort, is nothing a retry should touch.
 */
export function asPlanningError(error: unknown): unknown {
  if (!(error instanceof CadastreSourceError)) return error;
  const { status, arcgisCode, cause } = error.details;
  switch (error.failure) {
    case 'timeout':
    case 'unreachable':
    case 'http':
    case 'arcgis':
    case 'malformed':
    case 'schema':
      return new PlanningSourceError(error.failure, error.message, { status: status ?? arcgisCode, cause });
    case 'storage':
      return new PlanningSourceError('unreachable', error.message, { cause });
  }
}
