/**
 * Webhook event kinds, named `<product>.<noun>.<verb>` (DESIGN.md §4), and the filter an endpoint
 * may put on `development_application.updated`. Later products publish their own kinds through
 * publishEvent (platform/webhooks/publish.ts); a kind must be listed here to be subscribed to.
 */
export const EVENT_TYPES = {
  'export.job.completed': 'a bulk export finished; its CSV can be downloaded',
  'export.job.failed': 'a bulk export failed',
  'enrich.job.awaiting_approval': 'an enrich upload is mapped and waits for approval',
  'enrich.job.completed': 'an enrich job finished',
  'earthworks.job.completed': 'an earthworks computation finished',
  'development_application.updated': 'a development application was added or changed (filter by lga_code or bbox)',
  'webhook.endpoint.test': 'the test event of POST /v1/webhooks/endpoints/{id}/test',
} as const;

export type EventType = keyof typeof EVENT_TYPES;
export const ALL_EVENT_TYPES = Object.keys(EVENT_TYPES) as EventType[];

export function isEventType(value: string): value is EventType {
  return Object.hasOwn(EVENT_TYPES, value);
}

/** The events that take an lga_code / bbox filter. */
export const FILTERABLE_EVENTS: readonly EventType[] = ['development_application.updated'];

/** [west, south, east, north] in degrees. */
export type BBox = [number, number, number, number];

export type EndpointFilters = { lga_code?: string; bbox?: BBox };

/** What an event says about itself for filtering: the DA's LGA and point. */
export type EventAttributes = { lga_code?: string | null; lng?: number | null; lat?: number | null };

/** Whether an event with `attributes` passes an endpoint's filters (no filter passes everything). */
export function filtersMatch(filters: EndpointFilters, attributes: EventAttributes): boolean {
  if (filters.lga_code !== undefined && filters.lga_code !== attributes.lga_code) return false;
  if (filters.bbox) {
    const [west, south, east, north] = filters.bbox;
    const { lng, lat } = attributes;
    if (typeof lng !== 'number' || typeof lat !== 'number') return false;
    if (lng < west || lng > east || lat < south || lat > north) return false;
  }
  return true;
}
