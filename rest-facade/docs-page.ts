import { createHash } from 'node:crypto';
import type { RouteDefinition } from './route.ts';
import { routeScope } from './route.ts';
import { ROUTES } from './routes/index.ts';
import { pagePolicy } from './security-headers.ts';

/**
 * Redoc's standalone bundle, pinned and checked by its hash: the browser fetches it from the
 * CDN, never our server. The integrity value is the sha384 of bundles/redoc.standalone.js in
 * the npm tarball of this version.
 */
export const REDOC_SCRIPT = {
  src: 'https://cdn.jsdelivr.net/npm/redoc@2.5.4/bundles/redoc.standalone.js',
  integrity: 'sha384-w447zOpYfw/1Tv/5AK9NfHTlQIqE3RVR6KY62jCyy9zNDgO64cMwGGP1Fj0zJVf5',
};

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A JSON value safe inside an inline <script>: no `</script>` or `<!--` can close it early. */
const scriptJson = (value: string): string => JSON.stringify(value).replace(/</g, '\\u003c');

function scopeCell(route: RouteDefinition): string {
  const scope = routeScope(route);
  if (scope) return `<code>${escapeHtml(scope)}</code>`;
  return route.access === 'key' ? 'any key' : 'none (open)';
}

/** The routes as a plain HTML table (method, path, scope, summary), readable without JavaScript. */
export function docsRouteList(routes: readonly RouteDefinition[]): string {
  const rows = routes
    .map(
      (route) =>
        `<tr><td><code>${route.method.toUpperCase()}</code></td><td><code>${escapeHtml(route.path)}</code></td>` +
        `<td>${scopeCell(route)}</td>` +
        `<td>${escapeHtml(route.summary)}</td></tr>`,
    )
    .join('\n        ');
  return `<table>
      <thead><tr><th>Method</th><th>Path</th><th>Scope</th><th>Summary</th></tr></thead>
      <tbody>
        ${rows}
      </tbody>
    </table>`;
}

/** The page's one inline script: starts Redoc on the document once the bundle has loaded. */
function initScript(openApiUrl: string): string {
  return `
      if (window.Redoc) {
        window.Redoc.init(${scriptJson(openApiUrl)}, { hideDownloadButton: false }, document.getElementById('reference'));
      }
    `;
}

/**
 * What the /docs page loads, and nothing more: the pinned Redoc bundle (by its full URL) and the
 * page's inline start-up script (by its hash), the OpenAPI document from this origin, and what
 * Redoc does once running: it injects its styles at run time (styled-components, hence inline
 * styles), runs its search index in a blob: worker and draws icons as data: images.
 */
export function docsPagePolicy(openApiUrl: string): string {
  const hash = createHash('sha256').update(initScript(openApiUrl)).digest('base64');
  return pagePolicy([
    `script-src ${REDOC_SCRIPT.src} 'sha256-${hash}'`,
    "style-src 'unsafe-inline'",
    "connect-src 'self'",
    'worker-src blob:',
    "img-src 'self' data:",
  ]);
}

/**
 * The /docs page: Redoc renders the full reference from the OpenAPI document; until it loads,
 * or when scripts are off or the CDN is out of reach, the page still lists every route.
 */
export function docsPageHtml(openApiUrl: string, routes: readonly RouteDefinition[] = ROUTES): string {
  const url = escapeHtml(openApiUrl);
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Landgraph API reference</title>
    <style>
      body { margin: 0; font-family: system-ui, sans-serif; }
      #reference > section { max-width: 60rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; }
      table { border-collapse: collapse; width: 100%; }
      td code { white-space: nowrap; }
      th, td { text-align: left; vertical-align: top; padding: 0.4rem 0.6rem; border-bottom: 1px solid #ddd; }
    </style>
  </head>
  <body>
    <div id="reference">
      <section>
        <h1>Landgraph API reference</h1>
        <p>
          The full reference is the OpenAPI 3.1 document at <a href="${url}">${url}</a>.
          Send <code>Authorization: Bearer &lt;API key&gt;</code> on every route but the open ones.
        </p>
        <noscript>
          <p>Scripts are off: the interactive reference needs them. Read <a href="${url}">the OpenAPI document</a> directly.</p>
        </noscript>
        <h2>Routes</h2>
    ${docsRouteList(routes)}
      </section>
    </div>
    <script src="${REDOC_SCRIPT.src}" integrity="${REDOC_SCRIPT.integrity}" crossorigin="anonymous"></script>
    <script>${initScript(openApiUrl)}</script>
  </body>
</html>
`;
}
