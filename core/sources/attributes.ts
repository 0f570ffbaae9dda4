/** A feature's attributes as a service publishes them (ArcGIS `attributes`, GeoJSON `properties`). */
export type Attributes = Record<string, unknown>;

/** The first of `names` the attributes carry (services differ in case), as a trimmed string. */
export function field(attributes: Attributes, ...names: string[]): string | null {
  const wanted = names.map((n) => n.toLowerCase());
  for (const name of wanted) {
    const key = Object.keys(attributes).find((k) => k.toLowerCase() === name);
    const value = key === undefined ? undefined : attributes[key];
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return null;
}
