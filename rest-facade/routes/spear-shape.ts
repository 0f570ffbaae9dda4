import { LAYER_FIELDS } from './cadastre.ts';

/** What the SPEAR routes and the property graph select of an application and of its layer. */
export const SPEAR_FIELDS = `source spear_reference application_type responsible_authority council_reference lga_code
  state status description lodged_date decided_date parcel_pfis address location { lat lng } source_url attribution
  license updated_at`;
export const SPEAR_LAYER_FIELDS = `${LAYER_FIELDS} freshness`;
