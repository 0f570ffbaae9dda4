import type { StateCode } from '../../../core/geo.ts';
import type { Attributes } from '../../../core/sources/attributes.ts';
import { field } from '../../../core/sources/attributes.ts';
import { hazardOfOverlay } from '../overlay-codes.ts';
import type { HazardKind, Severity } from '../sql.ts';

/** A published feature read as hazard evidence: the kind, code and severity it stands for. */
export type HazardReading = { kind: HazardKind; code: string; description: string; severity: Severity };

/**
 * One published service of a state's hazard mapping: its protocol, the layer or feature type,
 * the hazards it speaks for, and how its attributes read as evidence. `read` answers null for a
 * feature that is not a hazard (a WFS overlay type holds every planning overlay), which is skipped.
 */
export type HazardServiceProfile = {
  /** Names the service in LANDGRAPH_HAZARDS_LIVE_URLS (`VIC.overlays`) and in messages. */
  name: string;
  protocol: 'wfs' | 'arcgis';
  /** The published endpoint: the WFS service URL, or the ArcGIS layer URL. */
  url: string;
  /** WFS only: the feature type asked for. */
  typeName?: string;
  kinds: readonly HazardKind[];
  /** The dataset's name on each piece of evidence (the mirror's `source_name`). */
  dataset: string;
  read(attributes: Attributes): HazardReading | null;
};

/** A state's live hazard services and the credit their publishers' licences ask on every answer. */
export type HazardProfile = {
  state: StateCode;
  attribution: string;
  license: string;
  services: readonly HazardServiceProfile[];
};

/**
 * Vicmap Planning's PLAN_OVERLAY on the state's GeoServer (the planning live source's service):
 * only the hazard overlays count (FO, LSIO, SBO flood; BMO bushfire; EAO contamination), read
 * by scheme code with the mirror's table. Attribute names are lower case on the GeoServer and
 * upper case in the shapefile release; `field` reads either.
 */
const VIC_OVERLAYS: HazardServiceProfile = {
  name: 'overlays',
  protocol: 'wfs',
  url: 'https://opendata.maps.vic.gov.au/geoserver/wfs',
  typeName: 'open-data-platform:plan_overlay',
  kinds: ['flood', 'bushfire', 'contamination'],
  dataset: 'Vicmap Planning',
  read(attributes) {
    const code = field(attributes, 'ZONE_CODE');
    const hazard = code ? hazardOfOverlay(code) : undefined;
    if (!code || !hazard) return null;
    return {
      kind: hazard.kind,
      code,
      description: field(attributes, 'ZONE_DESCRIPTION', 'ZONE_DESCR') ?? hazard.name,
      severity: hazard.severity,
    };
  },
};

/**
 * NSW Bush Fire Prone Land (NSW RFS, certified under s 10.3 EP&A Act) as the Planning Portal's
 * hazard service publishes it: `d_Category` names the category ("Vegetation Category 1",
 * "Vegetation Buffer"), `Category` carries its number. Category 1 is high, 2 and 3 medium, the
 * buffer low (docs/decisions.md "Hazard severity scale").
 */
const NSW_BUSHFIRE: HazardServiceProfile = {
  name: 'bushfire',
  protocol: 'arcgis',
  url: 'https://mapprod3.environment.nsw.gov.au/arcgis/rest/services/ePlanning/Planning_Portal_Hazard/MapServer/229',
  kinds: ['bushfire'],
  dataset: 'NSW RFS Bush Fire Prone Land',
  read(attributes) {
    const named = field(attributes, 'd_Category', 'CATEGORY_DESC', 'DESCRIPTION');
    const text = (named ?? `Vegetation Category ${field(attributes, 'Category') ?? ''}`).trim();
    const description = `Bush fire prone land: ${text.toLowerCase()}`;
    if (/buffer/i.test(text)) return { kind: 'bushfire', code: 'BFPL_BUFFER', description, severity: 'low' };
    const category = /category\s*([123])/i.exec(text)?.[1];
    if (category) {
      return {
        kind: 'bushfire',
        code: `BFPL_CAT${category}`,
        description,
        severity: category === '1' ? 'high' : 'medium',
      };
    }
    // Mapped as bush fire prone, in a category this reading does not know: prone all the same.
    return { kind: 'bushfire', code: 'BFPL', description: 'Bush fire prone land', severity: 'medium' };
  },
};

/** NSW flood planning areas of the local plans, from the same Planning Portal hazard service. */
const NSW_FLOOD: HazardServiceProfile = {
  name: 'flood',
  protocol: 'arcgis',
  url: 'https://mapprod3.environment.nsw.gov.au/arcgis/rest/services/ePlanning/Planning_Portal_Hazard/MapServer/230',
  kinds: ['flood'],
  dataset: 'NSW Flood Planning Areas',
  read(attributes) {
    const description = field(attributes, 'LAY_CLASS', 'DESCRIPTION') ?? 'Flood Planning Area';
    return { kind: 'flood', code: 'FPA', description, severity: /high/i.test(description) ? 'high' : 'medium' };
  },
};

/** How a Queensland hazard class reads on the scale: the words the SPP mapping uses. */
function qldSeverity(text: string): Severity {
  if (/very\s*high/i.test(text)) return 'extreme';
  if (/high/i.test(text)) return 'high';
  if (/buffer|low/i.test(text)) return 'low';
  return 'medium';
}
const codeOf = (prefix: string, text: string) =>
  `${prefix}_${
    text
      .toUpperCase()
      .replace(/POTENTIAL|BUSHFIRE|INTENSITY|HAZARD|AREA|FLOOD/g, '')
      .trim()
      .replace(/[^A-Z0-9]+/g, '_')
      .replace(/^_|_$/g, '') || 'MAPPED'
  }`;

/**
 * Queensland's State Planning Policy hazard mapping (natural hazards, risk and resilience) on
 * the state's ArcGIS server: the bushfire prone area by potential intensity (very high, high,
 * medium, potential impact buffer) and the flood hazard area (the Queensland floodplain
 * assessment overlay where councils hold no study). The default layer URLs are the published
 * ones as far as we could find them; set LANDGRAPH_HAZARDS_LIVE_URLS to the layer the
 * deployment has checked (docs/p6-notes-hazards-data.md).
 */
const QLD_BUSHFIRE: HazardServiceProfile = {
  name: 'bushfire',
  protocol: 'arcgis',
  url: 'https://spatial-gis.information.qld.gov.au/arcgis/rest/services/PlanningCadastre/SPPBushfireProneArea/MapServer/0',
  kinds: ['bushfire'],
  dataset: 'QLD SPP bushfire prone area',
  read(attributes) {
    const text =
      field(attributes, 'CLASS', 'BPA_CLASS', 'DESCRIPTION', 'INTENSITY', 'SUB_NAME') ?? 'Bushfire prone area';
    return {
      kind: 'bushfire',
      code: codeOf('BPA', text),
      description: `Bushfire prone area: ${text.toLowerCase()}`,
      severity: qldSeverity(text),
    };
  },
};

const QLD_FLOOD: HazardServiceProfile = {
  name: 'flood',
  protocol: 'arcgis',
  url: 'https://spatial-gis.information.qld.gov.au/arcgis/rest/services/PlanningCadastre/SPPFloodHazardArea/MapServer/0',
  kinds: ['flood'],
  dataset: 'QLD SPP flood hazard area',
  read(attributes) {
    const text = field(attributes, 'CLASS', 'DESCRIPTION', 'LAYER_NAME', 'SUB_NAME', 'NAME') ?? 'Flood hazard area';
    return {
      kind: 'flood',
      code: codeOf('FLOOD_HAZARD', text),
      description: `Flood hazard overlay: ${text.toLowerCase()}`,
      severity: qldSeverity(text),
    };
  },
};

/** The states with live hazard services; LANDGRAPH_HAZARDS_LIVE may name only these. */
export const HAZARD_PROFILES: Partial<Record<StateCode, HazardProfile>> = {
  VIC: {
    state: 'VIC',
    attribution: 'Vicmap Planning © State of Victoria (Department of Transport and Planning)',
    license: 'CC BY 4.0',
    services: [VIC_OVERLAYS],
  },
  NSW: {
    state: 'NSW',
    attribution:
      '© State Government of NSW and NSW Rural Fire Service; © State of New South Wales (Department of Planning, Housing and Infrastructure)',
    license: 'CC BY 4.0',
    services: [NSW_BUSHFIRE, NSW_FLOOD],
  },
  QLD: {
    state: 'QLD',
    attribution: '© State of Queensland (Department of State Development, Infrastructure and Planning)',
    license: 'CC BY 4.0',
    services: [QLD_FLOOD, QLD_BUSHFIRE],
  },
};
