/**
 * The states' own hazard layers, beside the Vicmap Planning overlays (hazards-layout.ts): each
 * a polygon layer whose every feature is one hazard area, told apart from the others of its
 * state by its attribute names (or named with --layout), and read into the code, description
 * and severity the sandbox and the hazards scale use (docs/decisions.md "Hazard severity
 * scale"). Attribute names are matched without case or underscores, under every spelling the
 * publishers' downloads and services were seen to use; docs/p6-notes-hazard-ingest.md lists
 * which were confirmed and which are assumed.
 */
import type { VegetationClass } from '../../subgraphs/hazards/bal.ts';
import type { HazardKind, Severity } from '../../subgraphs/hazards/sql.ts';
import type { StateCode } from '../../core/geo.ts';
import { IngestError } from './gnaf-release.ts';

/** A feature whose attributes do not say which hazard it is; the message is the reason. */
export class RefusedArea extends Error {}

/** What one feature of a state layer is on the hazards layer. */
export type HazardArea = {
  readonly kind: HazardKind;
  readonly code: string;
  readonly description: string;
  readonly severity: Severity;
  /** The AS 3959 class this area's vegetation counts as for the BAL, where the layer classifies fuel. */
  readonly vegetation?: VegetationClass;
};

type Credit = { readonly attribution: string; readonly license: string };

export interface StateHazardLayout {
  /** The --layout name. */
  readonly id: string;
  readonly state: StateCode;
  /** The layer, as messages and the summary name it. */
  readonly title: string;
  /** The evidence's source, as answers give it (the sandbox's names). */
  readonly source: string;
  readonly credit: Credit;
  /** The kinds the layer can hold, for refusals of --kind. */
  readonly kinds: readonly HazardKind[];
  /** The attribute names (squashed) any one of which marks a file as this layer. */
  readonly marks: readonly string[];
  /** Another layer's file of the same state can hold the marks too: detection also needs the file name. */
  readonly fileName?: RegExp;
  /** The hazard a feature is; throws RefusedArea for one the layer's values do not allow. */
  classify(properties: Readonly<Record<string, unknown>>): HazardArea;
  /** The feature's own identifier, when the layer carries one. */
  readonly idFields: readonly string[];
  /** The attribute naming the area (LGA) a feature's coverage belongs to, when the layer has one. */
  readonly areaFields: readonly string[];
}

export const squash = (name: string) => name.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** A property by any of its spellings (squashed names), as trimmed text; undefined when blank or absent. */
export function valueOf(properties: Readonly<Record<string, unknown>>, names: readonly string[]): string | undefined {
  for (const [key, value] of Object.entries(properties)) {
    if (!names.includes(squash(key))) continue;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'bigint') continue;
    const text = String(value).trim();
    if (text !== '') return text;
  }
  return undefined;
}

const text = (value: string | undefined): string => value ?? '';

const VICMAP_PLANNING: Credit = {
  attribution: 'Vicmap Planning © State of Victoria (Department of Transport and Planning), CC BY 4.0',
  license: 'CC BY 4.0',
};

/** VIC Designated Bushfire Prone Area (Vicmap Planning BUSHFIRE_PRONE_AREA): every polygon is BPA. */
const VIC_BPA: StateHazardLayout = {
  id: 'vic-bpa',
  state: 'VIC',
  title: 'Designated Bushfire Prone Area (BUSHFIRE_PRONE_AREA)',
  source: 'Vicmap Planning BPA',
  credit: VICMAP_PLANNING,
  kinds: ['bushfire'],
  // The layer's attributes are not published in a form found (see the notes): its file name tells it.
  marks: [],
  fileName: /BUSHFIRE_PRONE_AREA|(^|[^A-Z])BPA([^A-Z]|$)/i,
  classify: () => ({ kind: 'bushfire', code: 'BPA', description: 'Bushfire Prone Area', severity: 'medium' }),
  idFields: ['PFI', 'UFI'],
  areaFields: ['LGA', 'LGANAME'],
};

/**
 * NSW RFS Bush Fire Prone Land: d_Category names the category ("Vegetation Category 1", 2, 3,
 * "Vegetation Buffer"), Category holds its number. Category 1 is forest-type fuel, 2 rainforest
 * and lower-risk remnants, 3 grassland-type; the buffer is land near fuel, not fuel.
 */
const BFPL_CATEGORIES: Readonly<Record<string, HazardArea>> = {
  '1': {
    kind: 'bushfire',
    code: 'BFPL_CAT1',
    description: 'Bush fire prone land: vegetation category 1',
    severity: 'high',
    vegetation: 'forest',
  },
  '2': {
    kind: 'bushfire',
    code: 'BFPL_CAT2',
    description: 'Bush fire prone land: vegetation category 2',
    severity: 'medium',
    vegetation: 'rainforest',
  },
  '3': {
    kind: 'bushfire',
    code: 'BFPL_CAT3',
    description: 'Bush fire prone land: vegetation category 3',
    severity: 'medium',
    vegetation: 'grassland',
  },
  buffer: {
    kind: 'bushfire',
    code: 'BFPL_BUFFER',
    description: 'Bush fire prone land: vegetation buffer',
    severity: 'low',
  },
};

const BFPL_TEXT = ['DCATEGORY', 'DCATEGOR', 'CATEGORYDESC', 'CATDESC'];
const BFPL_NUMBER = ['CATEGORY', 'BFPLCATEGORY', 'CAT'];

const NSW_BFPL: StateHazardLayout = {
  id: 'nsw-bfpl',
  state: 'NSW',
  title: 'NSW RFS Bush Fire Prone Land',
  source: 'NSW RFS Bush Fire Prone Land',
  credit: {
    attribution: 'NSW Bush Fire Prone Land © State Government of NSW and NSW Rural Fire Service, CC BY 4.0',
    license: 'CC BY 4.0',
  },
  kinds: ['bushfire'],
  marks: [...BFPL_TEXT, ...BFPL_NUMBER, 'GUIDELINE', 'DGUIDELIN'],
  classify(properties) {
    const described = text(valueOf(properties, BFPL_TEXT));
    const numbered = text(valueOf(properties, BFPL_NUMBER)).replace(/\.0+$/, '');
    if (described) {
      if (/buffer/i.test(described)) return BFPL_CATEGORIES.buffer!;
      const n = /category\s*([123])\b/i.exec(described)?.[1];
      if (n) return BFPL_CATEGORIES[n]!;
      throw new RefusedArea(`its d_Category "${described}" is not a vegetation category (1, 2, 3) or buffer`);
    }
    if (numbered === '1' || numbered === '2' || numbered === '3') return BFPL_CATEGORIES[numbered]!;
    throw new RefusedArea(
      numbered
        ? `its Category ${numbered} is not 1, 2 or 3 and it has no d_Category to say what it is`
        : 'its d_Category and Category are blank',
    );
  },
  idFields: ['OBJECTID', 'FID'],
  areaFields: ['LGA', 'LGANAME'],
};

/**
 * NSW EPI Flood Planning layer (ePlanning "Flood Planning Map", LEP maps): LAY_CLASS names the
 * class ("Flood Planning Area", "Flood Planning Land", ...). The EPI layers (zoning, heritage,
 * height...) share these attributes, so the file name or --layout must say it is the flood one.
 */
const NSW_FPA: StateHazardLayout = {
  id: 'nsw-flood-planning',
  state: 'NSW',
  title: 'NSW EPI Flood Planning layer',
  source: 'NSW Flood Planning Areas',
  credit: {
    attribution:
      'NSW EPI Flood Planning © State of New South Wales (Department of Planning, Housing and Infrastructure), CC BY 4.0',
    license: 'CC BY 4.0',
  },
  kinds: ['flood'],
  marks: ['LAYCLASS', 'EPINAME'],
  fileName: /flood|fpa|fpl/i,
  classify(properties) {
    const layClass = text(valueOf(properties, ['LAYCLASS', 'LAYNAME', 'CLASS']));
    const epi = text(valueOf(properties, ['EPINAME']));
    const description = [layClass || 'Flood Planning Area', epi && `(${epi})`].filter(Boolean).join(' ');
    // The flood planning area (1% AEP flood plus freeboard) is the planning control's land;
    // the probable maximum flood reaches farther and rarer, so it rates lower.
    const severity: Severity = /probable maximum|\bPMF\b/i.test(layClass)
      ? 'low'
      : /high hazard|floodway|flood storage/i.test(layClass)
        ? 'high'
        : 'medium';
    return { kind: 'flood', code: 'FPA', description, severity };
  },
  idFields: ['OBJECTID', 'FID'],
  areaFields: ['LGANAME', 'LGA'],
};

/** QLD SPP Bushfire prone area: CLASS is the potential bushfire intensity or the impact buffer. */
const QLD_BPA_CLASSES: readonly [RegExp, HazardArea][] = [
  [
    /very\s*high/i,
    {
      kind: 'bushfire',
      code: 'BPA_VERY_HIGH',
      description: 'Bushfire prone area: very high potential intensity',
      severity: 'extreme',
    },
  ],
  [
    /high/i,
    {
      kind: 'bushfire',
      code: 'BPA_HIGH',
      description: 'Bushfire prone area: high potential intensity',
      severity: 'high',
    },
  ],
  [
    /medium/i,
    {
      kind: 'bushfire',
      code: 'BPA_MEDIUM',
      description: 'Bushfire prone area: medium potential intensity',
      severity: 'medium',
    },
  ],
  [
    /buffer/i,
    {
      kind: 'bushfire',
      code: 'BPA_BUFFER',
      description: 'Bushfire prone area: potential impact buffer',
      severity: 'low',
    },
  ],
];

const QLD_CREDIT_LICENSE = 'CC BY 4.0';

const QLD_BPA: StateHazardLayout = {
  id: 'qld-bushfire-prone-area',
  state: 'QLD',
  title: 'QLD SPP Bushfire prone area',
  source: 'QLD SPP bushfire prone area',
  credit: {
    attribution: 'Bushfire prone area - Queensland © State of Queensland (Queensland Fire Department), CC BY 4.0',
    license: QLD_CREDIT_LICENSE,
  },
  kinds: ['bushfire'],
  marks: ['CLASS', 'BPACLASS', 'INTENSITY'],
  classify(properties) {
    const value = text(valueOf(properties, ['CLASS', 'BPACLASS', 'INTENSITY', 'DESCRIPTION']));
    const found = QLD_BPA_CLASSES.find(([pattern]) => pattern.test(value));
    if (!found) {
      throw new RefusedArea(
        value
          ? `its CLASS "${value}" is not a potential bushfire intensity (very high, high, medium) or the impact buffer`
          : 'its CLASS is blank',
      );
    }
    return found[1];
  },
  idFields: ['OBJECTID', 'FID'],
  areaFields: ['LGA', 'LGANAME'],
};

/**
 * QLD SPP Flood hazard area, Level 1: the Queensland floodplain assessment overlay (QFAO), an
 * estimate of the floodplain by drainage sub-basin. It grades no hazard, so every polygon is
 * the medium band: it says land may flood, not how deep or fast.
 */
const QLD_FLOOD: StateHazardLayout = {
  id: 'qld-flood-hazard',
  state: 'QLD',
  title: 'QLD SPP Flood hazard area (Level 1 Queensland floodplain assessment overlay)',
  source: 'QLD SPP flood hazard area',
  credit: {
    attribution:
      'Queensland floodplain assessment overlay © State of Queensland (Department of Natural Resources and Mines, Manufacturing and Regional and Rural Development), CC BY 4.0',
    license: QLD_CREDIT_LICENSE,
  },
  kinds: ['flood'],
  marks: ['SUBNAME', 'SUBNUMBER', 'SUBNAME2', 'QRASUPPLY'],
  classify(properties) {
    const basin = text(valueOf(properties, ['SUBNAME', 'SUBNAME2', 'SUBNUMBER']));
    return {
      kind: 'flood',
      code: 'FLOOD_HAZARD_MEDIUM',
      description: `Flood hazard area: Level 1 Queensland floodplain assessment overlay${basin ? ` (${basin})` : ''}`,
      severity: 'medium',
    };
  },
  idFields: ['OBJECTID', 'FID'],
  areaFields: ['LGA', 'LGANAME'],
};

export const STATE_HAZARD_LAYOUTS: readonly StateHazardLayout[] = [VIC_BPA, NSW_BFPL, NSW_FPA, QLD_BPA, QLD_FLOOD];

/** The --layout of the Vicmap Planning PLAN_OVERLAY file (hazards-layout.ts reads it). */
export const VIC_PLANNING_OVERLAY_LAYOUT = 'vic-planning-overlay';

export const LAYOUT_NAMES: readonly string[] = [VIC_PLANNING_OVERLAY_LAYOUT, ...STATE_HAZARD_LAYOUTS.map((l) => l.id)];

/** The layouts a state's files may be in, for messages. */
function layoutsOf(state: StateCode): string[] {
  return [
    ...(state === 'VIC' ? [VIC_PLANNING_OVERLAY_LAYOUT] : []),
    ...STATE_HAZARD_LAYOUTS.filter((l) => l.state === state).map((l) => l.id),
  ];
}

/**
 * Which layout a file is in: the one --layout names, else the one of the state whose
 * attribute names (and, where layers share them, file name) it carries. Undefined means the
 * Vicmap Planning PLAN_OVERLAY layout (VIC, ZONE_CODE). Throws IngestError where the file is
 * none of them or more than one could be meant.
 */
export function chooseLayout(
  state: StateCode,
  file: string,
  fields: readonly string[],
  layout: string | undefined,
): StateHazardLayout | undefined {
  if (layout !== undefined) {
    const wanted = layout.trim().toLowerCase();
    if (wanted === VIC_PLANNING_OVERLAY_LAYOUT) {
      if (state !== 'VIC') throw new IngestError(`--layout ${wanted} is Victoria's; give --state VIC`);
      return undefined;
    }
    const named = STATE_HAZARD_LAYOUTS.find((l) => l.id === wanted);
    if (!named) throw new IngestError(`unknown --layout "${layout}": one of ${LAYOUT_NAMES.join(', ')}`);
    if (named.state !== state)
      throw new IngestError(`--layout ${named.id} is ${named.state}'s; give --state ${named.state}`);
    return named;
  }
  const squashed = fields.map(squash);
  if (state === 'VIC' && squashed.includes('ZONECODE')) return undefined;
  const candidates = STATE_HAZARD_LAYOUTS.filter((l) => l.state === state).filter((l) => {
    const marked = l.marks.length === 0 || l.marks.some((m) => squashed.includes(m));
    return l.fileName ? marked && l.fileName.test(file) : l.marks.length > 0 && marked;
  });
  const [only, ...others] = candidates;
  if (only && others.length === 0) return only;
  const options = layoutsOf(state).join(', ');
  if (candidates.length > 1) {
    throw new IngestError(
      `${file} could be in more than one ${state} hazard layout (${candidates.map((c) => c.id).join(', ')}): name it with --layout`,
    );
  }
  if (state === 'NSW' && ['LAYCLASS', 'EPINAME'].some((m) => squashed.includes(m))) {
    throw new IngestError(
      `${file} has the attributes of a NSW EPI layer (EPI_NAME, LAY_CLASS), which zoning, heritage and flood planning share: if it is the Flood Planning layer, say so with --layout nsw-flood-planning`,
    );
  }
  throw new IngestError(
    `${file} is in no ${state} hazard layout this reader knows (its attributes: ${fields.join(', ') || 'none'}); the layouts for ${state}: ${options || 'none'}${
      state === 'VIC' ? ' (a BUSHFIRE_PRONE_AREA file is told by its name, or --layout vic-bpa)' : ''
    }`,
  );
}
