import type { LotReferenceResolvers } from '../generated/resolvers-types.ts';
import type { CadastreContext } from '../data.ts';

export const LotReference: LotReferenceResolvers<CadastreContext> = {
  plan_type: (ref) => ref.planType,
  plan_number: (ref) => ref.planNumber,
};
