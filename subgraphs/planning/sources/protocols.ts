import type { ArcGisLayerClient } from '../../../core/sources/arcgis.ts';
import type { ParcelGeometry } from '../../../core/polygons.ts';
import { areaM2, containsPoint } from '../../../core/polygons.ts';
import type { BBox } from '../../../core/geo.ts';
import { field } from '../../../core/sources/attributes.ts';
import type { ZoneRow } from '../sql.ts';
import { SourceError } from '../../../core/sources/errors.ts';
import type { ControlFields, PlanningProfile } from './profiles.ts';
import { readControl } from './profiles.ts';
import type { WfsClient } from '../../../core/sources/wfs.ts';

/** A live service's answer at a point, in the mirror's terms. */
export type LivePlanningAnswer = {
  zone: ZoneRow | null;
  overlays: ZoneRow[];
  /** False where the service publishes zones only (an ArcGIS zoning layer): overlays were not asked. */
  overlaysAsked: boolean;
};

export type ServiceType = 'arcgis-rest' | 'wfs';

/** An urban growth boundary polygon as a live service publishes it, in the mirror's terms. */
export type LiveUgbFeature = {
  id: string;
  lga_code: string | null;
  lga_name: string;
  gaic_applies: boolean;
  geometry: ParcelGeometry;
};

/** One protocol's way of asking a state's service for the planning at a point. */
export interface PlanningProtocol {
  readonly serviceType: ServiceType;
  lookup(lng: number, lat: number): Promise<LivePlanningAnswer>;
  /** A cheap request that proves the service answers its protocol. */
  probe(): Promise<void>;
  /** Urban growth boundary polygons intersecting a window; absent where the service publishes none. */
  ugbInBBox?(bbox: BBox): Promise<LiveUgbFeature[]>;
}

const TRUE_FLAGS = new Set(['Y', 'YES', 'T', 'TRUE', '1']);

type Polygonal = { attributes: Record<string, unknown>; geometry: ParcelGeometry | null };

/** Half a centimetre: the box a point query asks for, so a service's index answers it. */
const POINT_BOX = 5e-8;

/** The window a point query asks a service for. */
export const pointBox = (lng: number, lat: number): BBox => ({
  west: lng - POINT_BOX,
  south: lat - POINT_BOX,
  east: lng + POINT_BOX,
  north: lat + POINT_BOX,
});

/**
 * The controls under a point, held to the mirror's rules: only polygons that really contain it
 * (services match by bounding box or tolerance), and of overlapping zones the smallest.
 */
function controlsAt(
  features: Polygonal[],
  lng: number,
  lat: number,
  fields: ControlFields,
  profile: PlanningProfile,
  label: string,
): Array<{ control: ZoneRow; area: number }> {
  const found: Array<{ control: ZoneRow; area: number }> = [];
  for (const feature of features) {
    if (!feature.geometry || !containsPoint(feature.geometry, lng, lat)) continue;
    const control = readControl(feature.attributes, fields, profile.schedules);
    if (!control) {
      throw new SourceError(
        'schema',
        `The ${label} answered a feature without ${fields.code.join(' or ')}: its schema may have changed.`,
      );
    }
    found.push({ control, area: areaM2(feature.geometry) });
  }
  return found;
}

const smallest = (found: Array<{ control: ZoneRow; area: number }>) =>
  [...found].sort((a, b) => a.area - b.area || a.control.code.localeCompare(b.control.code))[0]?.control ?? null;

function distinctByCode(found: Array<{ control: ZoneRow }>): ZoneRow[] {
  const byCode = new Map(found.map(({ control }) => [control.code, control]));
  return [...byCode.values()].sort((a, b) => a.code.localeCompare(b.code));
}

/** Vicmap Planning's zones and overlays as two WFS feature types, asked side by side. */
export class WfsPlanning implements PlanningProtocol {
  readonly serviceType = 'wfs';

  constructor(
    private readonly client: WfsClient,
    private readonly profile: PlanningProfile & { wfs: NonNullable<PlanningProfile['wfs']> },
  ) {}

  async lookup(lng: number, lat: number): Promise<LivePlanningAnswer> {
    const { zoneType, overlayType, fields } = this.profile.wfs;
    const bbox = pointBox(lng, lat);
    const [zones, overlays] = await Promise.all([
      this.client.getFeatures({ typeName: zoneType, bbox }),
      overlayType ? this.client.getFeatures({ typeName: overlayType, bbox }) : Promise.resolve([]),
    ]);
    const polygonal = (features: typeof zones): Polygonal[] =>
      features.map((f) => ({ attributes: f.properties, geometry: f.geometry }));
    const label = this.client.label;
    return {
      zone: smallest(controlsAt(polygonal(zones), lng, lat, fields, this.profile, label)),
      overlays: distinctByCode(controlsAt(polygonal(overlays), lng, lat, fields, this.profile, label)),
      overlaysAsked: overlayType !== null,
    };
  }

  async probe(): Promise<void> {
    await this.client.getFeatures({ typeName: this.profile.wfs.zoneType, count: 1 });
  }

  /** Vicmap's UGB polygons in a window (whole, as the service returns them); ids from the feature or its PFI. */
  async ugbInBBox(bbox: BBox): Promise<LiveUgbFeature[]> {
    const typeName = this.profile.wfs.ugbType;
    if (!typeName) return [];
    const features = await this.client.getFeatures({ typeName, bbox });
    return features.flatMap((f, i): LiveUgbFeature[] => {
      if (!f.geometry) return [];
      const a = f.properties;
      return [
        {
          id: f.id ?? field(a, 'PFI', 'UFI') ?? `ugb-${i}`,
          lga_code: field(a, 'LGA_CODE'),
          lga_name: field(a, 'LGA', 'LGA_NAME') ?? 'UNKNOWN',
          gaic_applies: TRUE_FLAGS.has((field(a, 'GAIC', 'GAIC_APPLIES', 'GAIC_AREA') ?? '').toUpperCase()),
          geometry: f.geometry,
        },
      ];
    });
  }
}

/** A state's zoning layer of an ArcGIS REST service, asked with a point query. */
export class ArcGisPlanning implements PlanningProtocol {
  readonly serviceType = 'arcgis-rest';

  constructor(
    private readonly client: ArcGisLayerClient,
    private readonly profile: PlanningProfile & { arcgis: NonNullable<PlanningProfile['arcgis']> },
  ) {}

  async lookup(lng: number, lat: number): Promise<LivePlanningAnswer> {
    const features = await this.client.query({ filter: { kind: 'point', lng, lat } });
    const found = controlsAt(features, lng, lat, this.profile.arcgis.fields, this.profile, this.client.label);
    return { zone: smallest(found), overlays: [], overlaysAsked: false };
  }

  /** `where 1=0` asks the layer's query operation for nothing: it answers at once when it is up. */
  async probe(): Promise<void> {
    await this.client.query({ where: '1=0' });
  }
}
