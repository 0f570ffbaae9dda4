import type { QueryResolvers } from '../generated/resolvers-types.ts';
import type { AddressContext } from '../data.ts';
import { resolvePropertyByGnafPid } from './Property.ts';

export const Query: QueryResolvers<AddressContext> = {
  propertyByGnafPid: (_parent, { gnaf_pid }, ctx) => resolvePropertyByGnafPid(gnaf_pid, ctx),
};
