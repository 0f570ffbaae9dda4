// tiny-osmpbf ships no types: the slice of its API cli/ingest/osm-read.ts uses.
declare module 'tiny-osmpbf' {
  export type OsmPbfElement =
    | { type: 'node'; id: number; lat: number; lon: number; tags?: Record<string, string> }
    | { type: 'way'; id: number; nodes: number[]; tags?: Record<string, string> }
    | { type: 'relation'; id: number; tags?: Record<string, string> };
  function tinyosmpbf(data: Uint8Array, handler?: (element: OsmPbfElement) => void): unknown;
  export default tinyosmpbf;
}
