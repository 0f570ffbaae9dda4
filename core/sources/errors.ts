/**
 * How a source behind a layer failed, in one vocabulary for every subgraph: the layer turns it
 * into status `error` naming the source (the REST facade answers 502), and the resilience around
 * each live call reads `retryable` to decide whether another attempt could help (the service's
 * trouble: timeouts, 5xx, dropped connections) or not (our request or its answer is wrong: 4xx,
 * refusals, bodies that are not the protocol's shape). Messages say which source failed and
 * how, in words a caller can act on.
 */
export type SourceFailure =
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
  /** Features without the fields the state's adapter maps: the service's schema has changed. */
  | 'schema'
  /** A local store (the object-store mirror) could not be read. */
  | 'storage'
  /** Refused here without asking: the service's circuit is open. */
  | 'circuit-open';

export type SourceErrorDetails = {
  /** The HTTP status of the answer. */
  status?: number;
  /** The code an ArcGIS error body carries (its own HTTP-like status). */
  arcgisCode?: number;
  /** The OGC exception code (InvalidParameterValue, OperationProcessingFailed, ...). */
  exceptionCode?: string;
  cause?: unknown;
};

const isServerStatus = (status: number | undefined) => status !== undefined && status >= 500 && status <= 599;

function retryableFailure(failure: SourceFailure, details: SourceErrorDetails): boolean {
  switch (failure) {
    case 'timeout':
    case 'unreachable':
      return true;
    case 'http':
    case 'ows':
      return isServerStatus(details.status);
    // An ArcGIS server reports its own trouble as HTTP 200 with a 5xx code in the body.
    case 'arcgis':
      return isServerStatus(details.arcgisCode ?? details.status);
    default:
      return false;
  }
}

export class SourceError extends Error {
  readonly retryable: boolean;

  constructor(
    readonly failure: SourceFailure,
    message: string,
    readonly details: SourceErrorDetails = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'SourceError';
    this.retryable = retryableFailure(failure, details);
  }
}
