/**
 * How a source behind the database mirror failed. The subgraph turns it into a layer with
 * status `error` (lookups) or a collection with status `error` (windows), which the REST
 * facade answers as 502; the message says which source failed and how, in words a caller can act on.
 */
export type SourceFailure =
  /** No answer within the call's budget. */
  | 'timeout'
  /** The connection failed: refused, reset, DNS. */
  | 'unreachable'
  /** An HTTP status other than 2xx. */
  | 'http'
  /** HTTP 200 carrying an ArcGIS `{"error": {...}}` body. */
  | 'arcgis'
  /** Not JSON, or JSON not in the protocol's shape. */
  | 'malformed'
  /** Features without the fields the state's adapter maps: the service's schema has changed. */
  | 'schema'
  /** The object store could not be read. */
  | 'storage';

export class CadastreSourceError extends Error {
  constructor(
    readonly failure: SourceFailure,
    message: string,
    readonly details: { status?: number; arcgisCode?: number; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'CadastreSourceError';
  }
}
