/**
 * Loads ASGS SA2 names by code from the ABS allocation file (SA2_2021_AUST.csv of the ASGS
 * Edition 3 allocation files, or the same columns of another edition: SA2_CODE_<year> or
 * SA2_MAINCODE_<year>, SA2_NAME_<year>, and STATE_CODE_<year> where given), so approvals from a
 * code-only ABS Data Explorer export are named and tied to suburbs as a labelled export's are.
 * A rerun, or a later edition, replaces a code's name.
 */
import type { Database } from '../../core/db.ts';
import { type DelimitedRecord, openDelimited } from './delimited.ts';
import { IngestError } from './gnaf-release.ts';
import * as MARKET from './market-sql.ts';
import { stateOfSa2 } from './market-stats.ts';
import { checkDataset } from './planning.ts';
import type { FeatureNote } from './planning-load.ts';

export const ABS_ASGS_CREDIT = {
  attribution: 'Australian Statistical Geography Standard (ASGS) © Australian Bureau of Statistics, CC BY 4.0',
  license: 'CC BY 4.0',
};

export interface Sa2NamesIngestOptions {
  file: string;
  dataset?: string;
}

export interface Sa2NamesIngestResult {
  readonly dataset: string;
  readonly file: string;
  readonly edition: string;
  readonly read: number;
  readonly loaded: number;
  readonly refused: readonly FeatureNote[];
  readonly ms: number;
}

/** The code and name columns of the header and the edition (year) they name; null when it has none. */
export function sa2Columns(columns: readonly string[]): { code: string; name: string; edition: string } | null {
  for (const column of columns) {
    const m = /^SA2_(?:MAIN)?CODE_?(\d{4})$/.exec(column);
    const name = m ? columns.find((c) => c === `SA2_NAME_${m[1]}` || c === `SA2_NAME${m[1]}`) : undefined;
    if (m && name) return { code: column, name, edition: m[1]! };
  }
  return null;
}

export async function ingestSa2Names(db: Database, options: Sa2NamesIngestOptions): Promise<Sa2NamesIngestResult> {
  const started = performance.now();
  const dataset = checkDataset(options.dataset ?? 'live');
  const file = await openDelimited(options.file, []);
  const columns = sa2Columns(file.columns);
  if (!columns) {
    throw new IngestError(
      `${file.name} is not an ASGS SA2 allocation file: it lacks SA2_CODE_<year> and SA2_NAME_<year> columns (its columns: ${file.columns.join(', ')})`,
    );
  }
  const refused: FeatureNote[] = [];
  const rows: Array<{ sa2_code: string; sa2_name: string; state: string }> = [];
  let read = 0;
  const field = (record: DelimitedRecord, column: string) => record.get(column);
  for await (const record of file) {
    read += 1;
    const code = field(record, columns.code) ?? '';
    const name = field(record, columns.name);
    const state = stateOfSa2(code);
    const refuse = (reason: string) => refused.push({ file: file.name, feature: record.line, key: code, reason });
    if (!/^\d{9}$/.test(code) || !state) refuse(`"${code}" is not a nine-digit SA2 code of a state`);
    else if (!name) refuse('no SA2 name');
    else rows.push({ sa2_code: code, sa2_name: name, state });
  }
  if (rows.length === 0) throw new IngestError(`${file.name}: no SA2 name could be read`);
  await db.transaction(async (query) => {
    for (let at = 0; at < rows.length; at += 2000) {
      await query(MARKET.UPSERT_SA2_NAMES, [
        dataset,
        columns.edition,
        ABS_ASGS_CREDIT.attribution,
        ABS_ASGS_CREDIT.license,
        JSON.stringify(rows.slice(at, at + 2000)),
      ]);
    }
  });
  return {
    dataset,
    file: file.name,
    edition: columns.edition,
    read,
    loaded: rows.length,
    refused,
    ms: performance.now() - started,
  };
}
