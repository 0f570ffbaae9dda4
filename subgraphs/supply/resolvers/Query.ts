import { badRequest } from '../../../core/errors.ts';
import {
  DEFAULT_SUPPLY_ESTATE_RADIUS_KM,
  DEFAULT_SUPPLY_LOT_RADIUS_KM,
  DEFAULT_SUPPLY_WEEKS,
  MAX_SUPPLY_ESTATE_RADIUS_KM,
  MAX_SUPPLY_LOT_RADIUS_KM,
  MAX_SUPPLY_NEAR,
  MAX_SUPPLY_TILE_ZOOM,
  MAX_SUPPLY_WEEKS,
  MIN_SUPPLY_TILE_ZOOM,
} from '../../../core/limits.ts';
import { assertPoint, assertState } from '../../../core/validate.ts';
import type { Credit, SupplyContext } from '../data.ts';
import type { QueryResolvers } from '../generated/resolvers-types.ts';
import type { TileFeature, TileGeometry } from '../mvt.ts';
import { encodeTile } from '../mvt.ts';
import { TILE_EXTENT } from '../sql.ts';

const SOURCE = 'land-supply';

type Header = {
  status: 'ok' | 'no_data' | 'not_covered';
  message: string | null;
  source: string | null;
  attribution: string | null;
  license: string | null;
};

/** The credit of the states an answer draws on: each state's own, joined where it mixes states. */
function header(credits: Credit[], states: readonly string[], empty: string | null): Header {
  const picked = credits.filter((c) => states.includes(c.state));
  if (empty !== null || picked.length === 0) {
    return {
      status: picked.length === 0 && empty === null ? 'not_covered' : 'no_data',
      message: empty ?? 'The land-supply layer does not cover this place yet.',
      source: picked.length ? SOURCE : null,
      attribution: picked.length ? join(picked.map((c) => c.attribution)) : null,
      license: picked.length ? join(picked.map((c) => c.license)) : null,
    };
  }
  return {
    status: 'ok',
    message: null,
    source: SOURCE,
    attribution: join(picked.map((c) => c.attribution)),
    license: join(picked.map((c) => c.license)),
  };
}

const join = (values: string[]) => [...new Set(values)].join(' | ');

function radius(name: string, value: number | null | undefined, fallback: number, max: number): number {
  const r = value ?? fallback;
  if (!Number.isFinite(r) || r <= 0 || r > max) {
    throw badRequest(`${name} must be more than 0 and at most ${max} km.`, 'Ask a smaller circle.');
  }
  return r;
}

function weeksOf(value: number | null | undefined): number {
  const n = value ?? DEFAULT_SUPPLY_WEEKS;
  if (!Number.isInteger(n) || n < 1 || n > MAX_SUPPLY_WEEKS) {
    throw badRequest(
      `weeks must be a whole number from 1 to ${MAX_SUPPLY_WEEKS}.`,
      `Omit it for ${DEFAULT_SUPPLY_WEEKS}.`,
    );
  }
  return n;
}

function text(name: string, value: string, max = 64): string {
  const t = value.trim();
  if (t === '' || t.length > max) throw badRequest(`${name} must be 1 to ${max} characters.`);
  return t;
}

/** Kilometres to a degree box around a point that holds the whole radius (1% to spare). */
function boxAround(lng: number, lat: number, km: number) {
  const dLat = ((km * 1000) / 111_320) * 1.01;
  const dLng = ((km * 1000) / (111_320 * Math.max(Math.cos((lat * Math.PI) / 180), 0.01))) * 1.01;
  return { west: lng - dLng, south: lat - dLat, east: lng + dLng, north: lat + dLat };
}

function tooMany(what: string, km: number): never {
  throw badRequest(
    `More than ${MAX_SUPPLY_NEAR} ${what} lie within ${km} km of this point.`,
    'Ask a smaller radius_km; results are never truncated.',
  );
}

export const Query: QueryResolvers<SupplyContext> = {
  async landSupplyEstatesNearby(_parent, args, ctx) {
    assertPoint(args.lat, args.lng);
    const km = radius('radius_km', args.radius_km, DEFAULT_SUPPLY_ESTATE_RADIUS_KM, MAX_SUPPLY_ESTATE_RADIUS_KM);
    const [rows, credits] = await Promise.all([
      ctx.supply.estatesNear(args.lng, args.lat, km * 1000, boxAround(args.lng, args.lat, km), MAX_SUPPLY_NEAR),
      ctx.supply.credits(),
    ]);
    if (rows.length > MAX_SUPPLY_NEAR) tooMany('estates', km);
    const states = [...new Set(rows.map((r) => r.state))];
    const empty = rows.length === 0 ? `No estate is recorded within ${km} km of this point.` : null;
    return {
      ...header(credits, states, empty),
      radius_km: km,
      estates: rows,
    };
  },

  async landSupplyLotsNearby(_parent, args, ctx) {
    assertPoint(args.lat, args.lng);
    const km = radius('radius_km', args.radius_km, DEFAULT_SUPPLY_LOT_RADIUS_KM, MAX_SUPPLY_LOT_RADIUS_KM);
    const availableOnly = args.available ?? false;
    const [rows, credits] = await Promise.all([
      ctx.supply.lotsNear(
        args.lng,
        args.lat,
        km * 1000,
        boxAround(args.lng, args.lat, km),
        availableOnly,
        MAX_SUPPLY_NEAR,
      ),
      ctx.supply.credits(),
    ]);
    if (rows.length > MAX_SUPPLY_NEAR) tooMany('lots', km);
    const states = [...new Set(rows.map((r) => r.state))];
    const empty =
      rows.length === 0
        ? `No ${availableOnly ? 'available ' : ''}lot is recorded within ${km} km of this point.`
        : null;
    return {
      ...header(credits, states, empty),
      radius_km: km,
      available_only: availableOnly,
      lots: rows,
    };
  },

  async landSupplySuburb(_parent, args, ctx) {
    const state = assertState(args.state);
    const suburb = text('suburb', args.suburb).toUpperCase();
    const weeks = weeksOf(args.weeks);
    const [place, credits, series, stateSeries, selling] = await Promise.all([
      ctx.supply.placeKnown({ state, suburb }),
      ctx.supply.credits(),
      ctx.supply.series('suburb', `${state}/${suburb}`, weeks),
      ctx.supply.series('state', state, weeks),
      ctx.supply.estates({ state, suburb, selling: true }),
    ]);
    const empty = place.known ? null : `No estate is recorded in ${suburb}, ${state}.`;
    return {
      ...header(credits, [state], empty),
      state,
      suburb,
      weeks: place.known ? series : [],
      state_weeks: stateSeries,
      estates_selling: selling,
    };
  },

  async landSupplyEstate(_parent, args, ctx) {
    const estateId = text('estate_id', args.estate_id, 100);
    const weeks = weeksOf(args.weeks);
    const [[estate], credits, series] = await Promise.all([
      ctx.supply.estates({ estateId }),
      ctx.supply.credits(),
      ctx.supply.series('estate', estateId, weeks),
    ]);
    if (!estate) {
      return { ...header(credits, [], `No estate has the id ${estateId}.`), estate: null, weeks: [] };
    }
    return { ...header(credits, [estate.state], null), estate, weeks: series };
  },

  async landSupplyState(_parent, args, ctx) {
    const state = assertState(args.state);
    const weeks = weeksOf(args.weeks);
    const [place, credits, series] = await Promise.all([
      ctx.supply.placeKnown({ state }),
      ctx.supply.credits(),
      ctx.supply.series('state', state, weeks),
    ]);
    const covered = credits.some((c) => c.state === state);
    const empty = covered && !place.known ? `No estate is recorded in ${state}.` : null;
    return { ...header(credits, [state], empty), state, weeks: place.known ? series : [] };
  },

  async landSupplyStates(_parent, _args, ctx) {
    const [rows, credits] = await Promise.all([ctx.supply.statesLatest(), ctx.supply.credits()]);
    const byState = new Map(credits.map((c) => [c.state, c]));
    const states = rows.flatMap((r) => {
      const credit = byState.get(r.state);
      return credit ? [{ ...r, attribution: credit.attribution, license: credit.license }] : [];
    });
    const empty = states.length === 0 ? 'No state has a weekly land-supply rollup yet.' : null;
    return {
      ...header(
        credits,
        states.map((s) => s.state),
        empty,
      ),
      states,
    };
  },

  async landSupplyLotTile(_parent, { z, x, y }, ctx) {
    if (!Number.isInteger(z) || z < MIN_SUPPLY_TILE_ZOOM || z > MAX_SUPPLY_TILE_ZOOM) {
      throw badRequest(
        `z must be a zoom from ${MIN_SUPPLY_TILE_ZOOM} to ${MAX_SUPPLY_TILE_ZOOM}.`,
        'Lots are too small to draw below zoom 10; zoom in.',
      );
    }
    const n = 2 ** z;
    if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || x >= n || y >= n) {
      throw badRequest(`x and y must be whole numbers from 0 to ${n - 1} at zoom ${z}.`);
    }
    const credits = await ctx.supply.credits();
    const credit = credits.length
      ? header(
          credits,
          credits.map((c) => c.state),
          null,
        )
      : null;
    let bytes: Uint8Array;
    let features: number;
    let encoder: string;
    if (ctx.supply.kind === 'postgres') {
      ({ mvt: bytes, features } = await ctx.supply.tileByPostgis(z, x, y));
      encoder = 'postgis';
    } else {
      const rows = await ctx.supply.tileFeatures(z, x, y);
      const tileFeatures: TileFeature[] = rows.map(({ geometry, ...properties }) => ({
        geometry: JSON.parse(geometry) as TileGeometry,
        properties,
      }));
      bytes = encodeTile('lots', TILE_EXTENT, tileFeatures);
      features = tileFeatures.length;
      encoder = 'landgraph';
    }
    return {
      z,
      x,
      y,
      encoder,
      features,
      mvt_base64: Buffer.from(bytes).toString('base64'),
      // an empty tile carries no one's data, so no credit
      attribution: features > 0 ? (credit?.attribution ?? null) : null,
      license: features > 0 ? (credit?.license ?? null) : null,
    };
  },
};
