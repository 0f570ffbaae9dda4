/**
 * The second way a sale reaches its G-NAF address: by the address text the Valuer General
 * publishes (unit, house number, street, locality, postcode), for the sales the legal description
 * did not tie to an address (no parcel of its lot/plan held, several lots, or no address on the
 * parcel with its number). The text goes through the address layer's own matcher
 * (subgraphs/address/matching), with its statements run straight on the ingest's database: the
 * same reading of numbers, street types, locality aliases and misspellings as
 * /api/address/match, and no second matcher to drift from it.
 *
 * Only a confident match is taken (SALE_TEXT_MATCH_CONFIDENCE), and never one that puts the sale
 * on another parcel than its legal description named.
 */
import type { Database } from '../../core/db.ts';
import type { Prisma } from '../../generated/prisma/client.ts';
import { AddressMatcher, LocalityDirectory, type StageRunner } from '../../subgraphs/address/matching/match.ts';
import type { FeatureNote } from './planning-load.ts';

/**
 * The least confidence a text match needs to become the sale's address: the strict pass (1) and
 * tolerant matches that only left out what the record does not carry; a guessed street spelling
 * or a postcode that disagrees scores lower and is left unmatched.
 */
export const SALE_TEXT_MATCH_CONFIDENCE = 0.9;

/** A loaded sale the legal description did not tie to an address. */
export type SaleWithoutAddress = {
  file: string;
  line: number;
  source_record_id: string;
  address: string;
  house_number: string | null;
  unit_number: string | null;
  postcode: string | null;
  /** The parcel its legal description reached, if any. */
  parcel_pfi: string | null;
};

export type SaleTextMatch = { source_record_id: string; gnaf_pid: string };

/** Matches each sale's address text in the dataset's G-NAF; the taken matches, and why the others were not. */
export async function matchSalesByAddressText(
  db: Database,
  dataset: string,
  sales: readonly SaleWithoutAddress[],
): Promise<{ matches: SaleTextMatch[]; notes: FeatureNote[] }> {
  const matches: SaleTextMatch[] = [];
  const notes: FeatureNote[] = [];
  const worth = sales.filter((s) => s.house_number !== null);
  if (worth.length === 0) return { matches, notes };
  const run: StageRunner = <T>(_stage: string, sql: Prisma.Sql) => db.sql<T>(sql);
  // one directory of locality names for the whole file, not one per sale
  const directory = LocalityDirectory.load(run, dataset);
  const matcher = new AddressMatcher(run, dataset, () => directory);
  for (const sale of worth) {
    const note = (reason: string) =>
      notes.push({ file: sale.file, feature: sale.line, key: sale.source_record_id, reason });
    const outcome = await matcher.match(sale.address, {
      state: 'NSW',
      postcode: sale.postcode,
      near: null,
      // knowing the address is enough: the sale is placed at its point whatever its grade
      anyGrade: true,
    });
    if (outcome.status !== 'matched') {
      note(`address text not matched: ${outcome.message}`);
      continue;
    }
    const { row, confidence } = outcome.match;
    if (confidence < SALE_TEXT_MATCH_CONFIDENCE) {
      note(`address text matched ${row.gnaf_pid} with confidence ${confidence.toFixed(2)} only: not taken`);
    } else if (sale.parcel_pfi && row.parcel_pfi && row.parcel_pfi !== sale.parcel_pfi) {
      note(`address text names ${row.gnaf_pid} on parcel ${row.parcel_pfi}, not the sale's lot (${sale.parcel_pfi})`);
    } else {
      matches.push({ source_record_id: sale.source_record_id, gnaf_pid: row.gnaf_pid });
    }
  }
  return { matches, notes };
}
