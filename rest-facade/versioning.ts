import type { RouteDefinition } from './route.ts';

export const CHANGELOG_PATH = '/changelog';

/**
 * The headers of a deprecated route (spec 9.2): `Deprecation` as an RFC 9745 date
 * (`@<epoch seconds>`), `Sunset` as an HTTP date (RFC 8594), and a Link to the changelog.
 */
export function deprecationHeaders(route: Pick<RouteDefinition, 'deprecated'>): Record<string, string> {
  if (!route.deprecated) return {};
  const since = Date.parse(route.deprecated.since);
  const sunset = Date.parse(route.deprecated.sunset);
  if (Number.isNaN(since) || Number.isNaN(sunset)) throw new Error('deprecated.since and .sunset must be ISO dates');
  return {
    Deprecation: `@${Math.floor(since / 1000)}`,
    Sunset: new Date(sunset).toUTCString(),
    Link: `<${CHANGELOG_PATH}>; rel="deprecation"; type="text/markdown"`,
  };
}
