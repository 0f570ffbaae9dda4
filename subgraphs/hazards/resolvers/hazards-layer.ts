import { DatabaseUnavailableError } from '../../../core/errors.ts';
import type { LayerResult, Provenance } from '../../../core/layer.ts';
import { guardLayer, layerEmpty } from '../../../core/layer.ts';
import { logger } from '../../../core/logger.ts';
import { SourceError } from '../../../core/sources/errors.ts';
import { BAL_SEVERITY, balAt } from '../bushfire.ts';
import type {
  HazardEvidenceModel,
  HazardModel,
  HazardSeverity,
  HazardsContext,
  HazardsLayerModel,
  HazardsModel,
  HazardsProperty,
} from '../data.ts';
import type { RequiredGroundProfile } from '../slope.ts';
import type { LiveHazardService } from '../sources/live.ts';
import type { HazardKind, HazardRow, HazardsRow } from '../sql.ts';
import { hazardRowOf } from '../sql.ts';

export const HAZARD_KINDS: readonly HazardKind[] = ['flood', 'bushfire', 'contamination'];

const SEVERITY_ORDER: readonly HazardSeverity[] = ['none', 'low', 'medium', 'high', 'extreme'];

/** A register site this close is taken to be on or beside the property. */
const SITE_ADJACENT_M = 50;

const worst = (severities: HazardSeverity[]): HazardSeverity =>
  severities.reduce<HazardSeverity>((a, b) => (SEVERITY_ORDER.indexOf(b) > SEVERITY_ORDER.indexOf(a) ? b : a), 'none');

function notMapped(kind: HazardKind, state: string): HazardModel {
  return {
    severity: null,
    coverage: 'not_mapped',
    freshness: null,
    evidence: [],
    message: `The ${kind} datasets held for ${state} do not reach this point: no finding either way.`,
    bal: null,
  };
}

/** One hazard's answer at a point from its source's row. */
export function assessHazard(
  kind: HazardKind,
  state: string,
  row: Omit<HazardRow, 'i'> | null,
  ground: RequiredGroundProfile | null = null,
): HazardModel {
  if (!row?.snapshot_date) return notMapped(kind, state);
  const evidence: HazardEvidenceModel[] = row.overlays.map((o) => ({
    type: 'overlay',
    code: o.code,
    description: o.description,
    severity: o.severity,
    source: o.source,
    distance_m: 0,
    status: null,
    snapshot_date: o.snapshot_date,
  }));
  for (const site of row.sites) {
    evidence.push({
      type: 'register',
      code: null,
      description: site.name,
      severity: site.distance_m <= SITE_ADJACENT_M ? 'high' : 'medium',
      source: site.register,
      distance_m: site.distance_m,
      status: site.status,
      snapshot_date: site.snapshot_date,
    });
  }
  const bal = kind === 'bushfire' ? balAt(state, row.vegetation, ground) : null;
  const balSeverity = bal ? BAL_SEVERITY[bal.rating] : null;
  if (bal && balSeverity && bal.vegetation_class && bal.distance_m !== null) {
    evidence.push({
      type: 'vegetation',
      code: null,
      description: `Classified ${bal.vegetation_class} vegetation ${bal.distance_m} m away (${bal.rating})`,
      severity: balSeverity,
      source: 'Classified bushfire vegetation',
      distance_m: bal.distance_m,
      status: null,
      snapshot_date: row.snapshot_date,
    });
  }
  return {
    severity: worst(evidence.map((e) => e.severity)),
    coverage: evidence.length > 0 ? 'found' : 'clear',
    freshness: row.snapshot_date,
    evidence,
    message: null,
    bal,
  };
}

function unavailable(message: string): HazardModel {
  return { severity: null, coverage: 'unavailable', freshness: null, evidence: [], message, bal: null };
}

type Located = HazardsProperty & { location: { lat: number; lng: number } };

/** Which source answered a hazard (or failed to): the mirror, a live service, or none (not mapped). */
type Answered = { hazard: HazardModel; from: 'mirror' | LiveHazardService | null };

/**
 * One hazard from the state's live service for it. The service's failure stays inside the
 * hazards it speaks for: they are `unavailable`, the others answer.
 */
async function liveHazard(
  kind: HazardKind,
  service: LiveHazardService,
  property: Located,
  ctx: HazardsContext,
): Promise<Answered> {
  const resolution = await ctx.hazards.liveAtPoint.load({ state: property.state, ...property.location, service });
  if (resolution.status === 'error') {
    const { error } = resolution;
    logger.warn(`hazard source failed: ${service.label}`, { kind, error: (error as Error).message });
    const what = error instanceof SourceError ? error.message : `The ${service.label} failed.`;
    return {
      hazard: unavailable(
        `${what} The ${kind} source failed for this request; the other hazards are unaffected. Retry later.`,
      ),
      from: service,
    };
  }
  const { answer } = resolution;
  // The service reaches the whole state: checked as of the moment it answered.
  const row = hazardRowOf(
    { coverage: { [kind]: answer.asOf }, overlays: answer.overlays, vegetation: [], sites: [] },
    kind,
  );
  // A live service publishes overlays, not the classified vegetation a BAL is rated from.
  return { hazard: { ...assessHazard(kind, property.state, row), bal: null }, from: service };
}

/**
 * Each hazard at the point: from the mirror where its coverage reaches (one statement for every
 * hazard of every point of the request), else from the state's live service for that hazard
 * (live keys only), else not mapped. The statement failing makes every hazard `unavailable` (the
 * layer `error`); a live service failing makes only its own hazards `unavailable`.
 */
async function hazardsAt(
  property: Located,
  provenance: Provenance | undefined,
  live: LiveHazardService[],
  ctx: HazardsContext,
): Promise<Record<HazardKind, Answered>> {
  let mirror: Omit<HazardsRow, 'i'> | null = null;
  if (provenance) {
    try {
      mirror = await ctx.hazards.atPoint.load({ state: property.state, ...property.location });
    } catch (error) {
      if (error instanceof DatabaseUnavailableError) throw error;
      logger.error('hazards statement failed', { error: (error as Error).message });
      const failed = (kind: HazardKind): Answered => ({
        hazard: unavailable(
          `The ${kind} source failed for this request; the other hazards are unaffected. Retry later.`,
        ),
        from: 'mirror',
      });
      return { flood: failed('flood'), bushfire: failed('bushfire'), contamination: failed('contamination') };
    }
  }
  const one = async (kind: HazardKind): Promise<Answered> => {
    const row = mirror ? hazardRowOf(mirror, kind) : null;
    if (row?.snapshot_date) {
      return { hazard: assessHazard(kind, property.state, row, property.ground_profile ?? null), from: 'mirror' };
    }
    const service = live.find((s) => s.kinds.includes(kind));
    if (service) return liveHazard(kind, service, property, ctx);
    return { hazard: notMapped(kind, property.state), from: null };
  };
  const [flood, bushfire, contamination] = await Promise.all(HAZARD_KINDS.map(one));
  return { flood: flood!, bushfire: bushfire!, contamination: contamination! };
}

/** A live service's credit, as the layer carries it. */
const liveProvenance = (service: LiveHazardService): Provenance => ({
  source: `live:${service.state.toLowerCase()}/hazards`,
  attribution: service.profile.attribution,
  license: service.profile.license,
});

/** The live source a hazard came from, by its layer source name; null for the mirror or none. */
const sourceOf = (from: Answered['from']): string | null =>
  from === 'mirror' || from === null ? null : liveProvenance(from).source;

/**
 * The layer's credit: the mirror's where it answered a hazard, the live publisher's where a live
 * service did, both where both did (attributions and licences joined, each once). The source
 * names the mirror's snapshot whenever the mirror answered, else the live service.
 */
function creditOf(all: Answered[], mirror: Provenance | undefined): Provenance | undefined {
  const answered = all.filter((a) => a.hazard.coverage !== 'unavailable');
  const fromMirror = answered.some((a) => a.from === 'mirror');
  const live = answered.flatMap((a) => (a.from && a.from !== 'mirror' ? [liveProvenance(a.from)] : []));
  const parts = [...(fromMirror || live.length === 0 ? (mirror ? [mirror] : []) : []), ...live];
  if (parts.length === 0) return undefined;
  const distinct = (values: string[]) => [...new Set(values)].join('; ');
  return {
    source: parts[0]!.source,
    attribution: distinct(parts.map((p) => p.attribution)),
    license: distinct(parts.map((p) => p.license)),
  };
}

/**
 * Flood, bushfire and contamination at the property's point. The layer is `ok` where a hazard
 * is found, `no_data` (its data still listing each hazard's coverage) where every hazard checked
 * is clear, `not_covered` where no hazard's datasets reach the point, and `error` only where
 * every hazard's source failed.
 */
export async function hazardsLayer(property: HazardsProperty, ctx: HazardsContext): Promise<HazardsLayerModel> {
  // a failed lookup comes back from guardLayer without the freshness its layers carry
  const layer: LayerResult<HazardsModel> & { freshness?: string | null } = await guardLayer('hazards', async () => {
    const { state, location } = property;
    const provenance = await ctx.hazards.provenance(state);
    const live = ctx.hazards.liveServices(state);
    const bare = (layer: ReturnType<typeof layerEmpty<HazardsModel>>): HazardsLayerModel => ({
      ...layer,
      freshness: null,
    });
    if (!provenance && live.length === 0) {
      return bare(layerEmpty('not_covered', `Hazard data does not cover ${state || 'this state'} yet.`));
    }
    if (!location) return bare(layerEmpty('skipped', 'The property has no point to look hazards up at.', provenance));
    const answered = await hazardsAt({ ...property, location }, provenance, live, ctx);
    const data: HazardsModel = {
      flood: answered.flood.hazard,
      bushfire: answered.bushfire.hazard,
      contamination: answered.contamination.hazard,
    };
    const all = Object.values(data);
    const failed = HAZARD_KINDS.filter((kind) => data[kind].coverage === 'unavailable');
    if (failed.length === HAZARD_KINDS.length) {
      return {
        status: 'error',
        data: null,
        freshness: null,
        message: 'Every hazard source failed for this property; other layers are unaffected. Retry later.',
        // the source that failed first in hazard order is named
        source: sourceOf(answered.flood.from) ?? provenance?.source ?? null,
        attribution: null,
        license: null,
      };
    }
    const credit = creditOf(Object.values(answered), provenance);
    const checked = all.filter((h) => h.coverage === 'found' || h.coverage === 'clear');
    if (checked.length === 0 && failed.length === 0) {
      return bare(layerEmpty('not_covered', `The ${state} hazard datasets do not reach this point.`, credit));
    }
    const freshness = checked.map((h) => h.freshness!).sort()[0] ?? null;
    const partial = failed.length > 0 ? `The ${failed.join(' and ')} source failed; the other hazards answered.` : null;
    const found = all.some((h) => h.coverage === 'found');
    return {
      status: found ? 'ok' : 'no_data',
      data,
      message: partial ?? (found ? null : 'Every hazard checked here is clear.'),
      source: credit?.source ?? null,
      attribution: credit?.attribution ?? null,
      license: credit?.license ?? null,
      // the hazards date their own snapshots: the catalog's load date does not stand in for them
      freshness,
    };
  });
  return { ...layer, freshness: layer.freshness ?? null };
}
