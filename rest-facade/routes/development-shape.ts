import { LAYER_FIELDS } from './cadastre.ts';

/** What the DA routes and the property graph select of an application and of its layer. */
export const DA_FIELDS = `source authority council_reference state lga_code lga_name suburb address gnaf_pid parcel_pfi
  location { lat lng } description category status lodged_date decided_date estimated_cost dwellings_proposed
  source_url attribution license updated_at received_at`;
export const DA_LAYER_FIELDS = `${LAYER_FIELDS} freshness`;
