/** A road's category for the street-setback rules. */
export type RoadCategory = 'arterial' | 'collector' | 'local';

/**
 * The category a road layer's class name falls in, for the street-setback rules: 'arterial'
 * stands for a Road Zone Category 1 / declared road. Names vary by state (Vicmap Transport's
 * 'ARTERIAL', NSW 'Primary Road', QLD 'Access Street'); an unrecognised name is null.
 */
export function roadCategory(roadClass: string | null | undefined): RoadCategory | null {
  const name = (roadClass ?? '').toLowerCase();
  if (/sub.?arterial|collector|distributor|connector|secondary|tertiary|category 2|rdz ?2/.test(name))
    return 'collector';
  if (/freeway|motorway|highway|arterial|primary|trunk|main road|declared|category 1|rdz ?1/.test(name))
    return 'arterial';
  if (/local|access|minor|residential|street|court|place|service|unclassified|lane/.test(name)) return 'local';
  return null;
}
