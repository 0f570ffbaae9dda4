import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CompositionFailed, composeSupergraph } from '../gateway/compose.ts';
import { SUPERGRAPH_FILE } from '../cli/main.ts';
import { subgraphSchemaUrl } from '../subgraphs/index.ts';

describe('supergraph composition', () => {
  it('composes the checked-in subgraph schemas with Property keyed by gnaf_pid and by parcel_pfi + state', () => {
    const supergraph = composeSupergraph();
    expect(supergraph).toMatch(/type Property\s[^{]*@join__type\(graph: ADDRESS, key: "gnaf_pid"\)/);
    expect(supergraph).toMatch(/@join__type\(graph: ADDRESS, key: "parcel_pfi state"\)/);
    expect(supergraph).toMatch(/@join__type\(graph: CADASTRE, key: "parcel_pfi state"\)/);
    expect(supergraph).toMatch(
      /planning: PlanningLayer @join__field\(graph: PLANNING, requires: "location \{ lat lng \}"\)/,
    );
  });

  it('composes the roads subgraph: its layers on Property take the parcel from the cadastre', () => {
    const supergraph = composeSupergraph();
    expect(supergraph).toMatch(/@join__type\(graph: ROADS, key: "parcel_pfi state"\)/);
    expect(supergraph).toMatch(/roads: RoadsLayer @join__field\(graph: ROADS, requires: "parcel_geometry"\)/);
    expect(supergraph).toMatch(/roadsNear\([^)]*\): NearbyRoadsLayer @join__field\(graph: ROADS\)/);
  });

  it("composes the BAL's slope through the graph: hazards requires the terrain's ground profile", () => {
    const supergraph = composeSupergraph();
    expect(supergraph).toMatch(
      /ground_profile: GroundProfileLayer @join__field\(graph: HAZARDS, external: true\) @join__field\(graph: TERRAIN, requires: "location \{ lat lng \}"\)/,
    );
    expect(supergraph).toMatch(
      /hazards: HazardsLayer @join__field\(graph: HAZARDS, requires: "location \{ lat lng \} ground_profile \{ status source message data \{ step_m origin_m rays \{ bearing_deg heights_m \} \} \}"\)/,
    );
  });

  it('matches the committed gateway/supergraph.graphql (run `npm run compose` after a schema change)', () => {
    expect(readFileSync(SUPERGRAPH_FILE, 'utf8')).toBe(composeSupergraph());
  });

  it('fails when a subgraph change breaks composition', () => {
    const planning = readFileSync(subgraphSchemaUrl('planning'), 'utf8');
    // Planning redeclares the cadastre-owned field with another type: a real composition error.
    const broken = planning.replace('state: String!', 'state: Int!');
    expect(() => composeSupergraph({ sdlOverrides: { planning: broken } })).toThrow(CompositionFailed);
    expect(() => composeSupergraph({ sdlOverrides: { planning: broken } })).toThrow(/state/);
  });
});
