import type { NearbyRoadResolvers, RoadLineResolvers } from '../generated/resolvers-types.ts';
import type { RoadsContext } from '../data.ts';

// The centreline rows keep their coordinates as the classifier reads them; the graph shows a LineString.
export const RoadLine: RoadLineResolvers<RoadsContext> = {
  geometry: (line) => ({ type: 'LineString', coordinates: line.coordinates }),
};

export const NearbyRoad: NearbyRoadResolvers<RoadsContext> = {
  geometry: (road) => ({ type: 'LineString', coordinates: road.coordinates }),
};
