import { DatabaseUnavailableError } from '../../../core/errors.ts';
import type { LayerResult } from '../../../core/layer.ts';
import { guardLayer, layerEmpty } from '../../../core/layer.ts';
import { logger } from '../../../core/logger.ts';
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
import type { HazardKind, HazardRow } from '../sql.ts';

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

/** One hazard, its source's failure kept inside it: the other hazards still answer. */
async function hazardAt(
  kind: HazardKind,
  property: HazardsProperty & { location: { lat: number; lng: number } },
  ctx: HazardsContext,
): Promise<HazardModel> {
  try {
    const row = await ctx.hazards.atPoint[kind].load({ state: property.state, ...property.location });
    return assessHazard(kind, property.state, row, property.ground_profile ?? null);
  } catch (error) {
    if (error instanceof DatabaseUnavailableError) throw error;
    logger.error(`hazard source ${kind} failed`, { error: (error as Error).message });
    return {
      severity: null,
      coverage: 'unavailable',
      freshness: null,
      evidence: [],
      message: `The ${kind} source failed for this request; the other hazards are unaffected. Retry later.`,
      bal: null,
    };
  }
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
    const bare = (layer: ReturnType<typeof layerEmpty<HazardsModel>>): HazardsLayerModel => ({
      ...layer,
      freshness: null,
    });
    if (!provenance) return bare(layerEmpty('not_covered', `Hazard data does not cover ${state || 'this state'} yet.`));
    if (!location) return bare(layerEmpty('skipped', 'The property has no point to look hazards up at.', provenance));
    const located = { ...property, location };
    const [flood, bushfire, contamination] = await Promise.all(
      HAZARD_KINDS.map((kind) => hazardAt(kind, located, ctx)),
    );
    const data: HazardsModel = { flood: flood!, bushfire: bushfire!, contamination: contamination! };
    const all = Object.values(data);
    const failed = HAZARD_KINDS.filter((kind) => data[kind].coverage === 'unavailable');
    if (failed.length === HAZARD_KINDS.length) {
      return {
        status: 'error',
        data: null,
        freshness: null,
        message: 'Every hazard source failed for this property; other layers are unaffected. Retry later.',
        source: provenance.source,
        attribution: null,
        license: null,
      };
    }
    const checked = all.filter((h) => h.coverage === 'found' || h.coverage === 'clear');
    if (checked.length === 0 && failed.length === 0) {
      return bare(layerEmpty('not_covered', `The ${state} hazard datasets do not reach this point.`, provenance));
    }
    const freshness = checked.map((h) => h.freshness!).sort()[0] ?? null;
    const partial = failed.length > 0 ? `The ${failed.join(' and ')} source failed; the other hazards answered.` : null;
    const found = all.some((h) => h.coverage === 'found');
    return {
      status: found ? 'ok' : 'no_data',
      data,
      message: partial ?? (found ? null : 'Every hazard checked here is clear.'),
      ...provenance,
      // the hazards date their own snapshots: the catalog's load date does not stand in for them
      freshness,
    };
  });
  return { ...layer, freshness: layer.freshness ?? null };
}
