import { badRequest } from '../../../core/errors.ts';
import type { GeoJSONGeometry } from '../../../core/geojson.ts';
import { MAX_EXPORT_PROPERTIES, MAX_PROPERTY_BATCH, MAX_SELECTION_VERTICES } from '../../../core/limits.ts';
import { assertState } from '../../../core/validate.ts';
import type { AddressContext, AddressProperty } from '../data.ts';
import type { SelectionWhere } from '../sql.ts';
import { POLYGON_VALIDITY, SELECTION_COUNT, SELECTION_GNAF_PIDS } from '../sql.ts';
import { resolvePropertyByGnafPid } from './Property.ts';

const MAX_NAME = 100;

/** The batch root: every PID through the one loader, so the whole list costs one statement. */
export async function propertiesByGnafPids(gnafPids: readonly string[], ctx: AddressContext) {
  if (gnafPids.length > MAX_PROPERTY_BATCH)
    throw badRequest(`gnaf_pids holds ${gnafPids.length} PIDs; at most ${MAX_PROPERTY_BATCH} are read at once.`);
  return Promise.all(gnafPids.map((pid): Promise<AddressProperty | null> => resolvePropertyByGnafPid(pid, ctx)));
}

function selectionName(name: string | null | undefined, type: string): string {
  const text = name?.trim() ?? '';
  if (!text) throw badRequest(`A ${type} selection needs name.`);
  if (text.length > MAX_NAME) throw badRequest(`name must be at most ${MAX_NAME} characters.`);
  return text;
}

/** A single polygon of closed rings of at least four positions, within the vertex bound. */
async function polygonText(polygon: GeoJSONGeometry | null | undefined, ctx: AddressContext): Promise<string> {
  if (!polygon) throw badRequest('An area selection needs polygon (a GeoJSON Polygon).');
  if (polygon.type !== 'Polygon') throw badRequest(`polygon must be a GeoJSON Polygon, got ${polygon.type}.`);
  const rings = polygon.coordinates;
  if (rings.length === 0) throw badRequest('polygon has no rings.');
  let vertices = 0;
  for (const ring of rings) {
    vertices += ring.length;
    const first = ring[0];
    const last = ring[ring.length - 1];
    if (ring.length < 4 || !first || !last || first[0] !== last[0] || first[1] !== last[1])
      throw badRequest('Each ring of polygon must be closed (first position repeated last) with at least 4 positions.');
    for (const [lng, lat] of ring)
      if (lng! < -180 || lng! > 180 || lat! < -90 || lat! > 90)
        throw badRequest('polygon positions must be [lng, lat] in WGS84 degrees.');
  }
  if (vertices > MAX_SELECTION_VERTICES)
    throw badRequest(`polygon has ${vertices} positions; at most ${MAX_SELECTION_VERTICES}.`);
  const text = JSON.stringify({ type: 'Polygon', coordinates: rings });
  const [check] = await ctx.address.runSql<{ valid: boolean; reason: string }>(POLYGON_VALIDITY(text));
  if (!check?.valid) throw badRequest(`polygon is not a valid polygon: ${check?.reason ?? 'unreadable'}.`);
  return text;
}

type SelectionArgs = {
  type: 'suburb' | 'lga' | 'area';
  name?: string | null;
  state?: string | null;
  polygon?: GeoJSONGeometry | null;
  limit: number;
};

async function where(args: SelectionArgs, ctx: AddressContext): Promise<SelectionWhere> {
  if (args.type === 'area') return { type: 'area', polygon: await polygonText(args.polygon, ctx) };
  const name = selectionName(args.name, args.type);
  if (!args.state) throw badRequest(`A ${args.type} selection needs state.`);
  const state = assertState(args.state);
  // G-NAF names an LGA on its localities only where the state supplies it; of ours, Queensland (spec 4.7)
  if (args.type === 'lga' && state !== 'QLD')
    throw badRequest(`An lga selection is available in QLD only, not ${state}.`, 'Select by suburb or area elsewhere.');
  return { type: args.type, name, state };
}

/** Counts first: the PIDs are read only when the count is within `limit`. */
export async function propertySelection(args: SelectionArgs, ctx: AddressContext) {
  if (!Number.isInteger(args.limit) || args.limit < 1 || args.limit > MAX_EXPORT_PROPERTIES)
    throw badRequest(`limit must be a whole number from 1 to ${MAX_EXPORT_PROPERTIES}.`);
  const filter = await where(args, ctx);
  const [row] = await ctx.address.runSql<{ count: number }>(SELECTION_COUNT(ctx.dataset, filter));
  const count = Number(row?.count ?? 0);
  if (count > args.limit) return { count, gnaf_pids: null };
  const pids = await ctx.address.runSql<{ gnaf_pid: string }>(SELECTION_GNAF_PIDS(ctx.dataset, filter));
  return { count, gnaf_pids: pids.map((p) => p.gnaf_pid) };
}
