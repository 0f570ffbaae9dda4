import type { RouteDefinition } from '../route.ts';
import { addressAutocomplete, addressValidate, cadastreByAddress, propertyResolve } from './address.ts';
import { cadastreBBox, cadastreLookup } from './cadastre.ts';
import { cadastreLotDetail, cadastreParseLot } from './lots.ts';
import { health } from './health.ts';
import { changelog, usage } from './platform.ts';
import { propertyGraph } from './property.ts';

/** The route table: every REST route of the facade, in the order the OpenAPI document lists them. */
export const ROUTES: RouteDefinition[] = [
  health,
  changelog,
  usage,
  cadastreLookup,
  cadastreBBox,
  cadastreByAddress,
  cadastreParseLot,
  cadastreLotDetail,
  propertyResolve,
  propertyGraph,
  addressAutocomplete,
  addressValidate,
] as RouteDefinition[];
