/**
 * Comma-separated files as registers publish them (RFC 4180: fields quoted when they hold a
 * comma, quote or line break, a quote inside doubled), read with csv-parse. G-NAF's reader
 * (psv.ts) splits on every separator, which a quoted address ("12 Smith St, Bendigo") breaks.
 * Registers run to thousands of rows, so the file is read whole.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { CsvError, parse } from 'csv-parse/sync';
import { IngestError } from './gnaf-release.ts';

export interface CsvTable {
  readonly header: readonly string[];
  /** Records with their 1-based line number in the file (of the record's first line). */
  readonly rows: ReadonlyArray<{ readonly line: number; readonly fields: readonly string[] }>;
}

type ParsedRecord = { record: string[]; info: { lines: number }; raw: string };

export function readCsv(path: string): CsvTable {
  const name = basename(path);
  let records: ParsedRecord[];
  try {
    records = parse(readFileSync(path, 'utf8'), {
      bom: true,
      info: true,
      raw: true,
      skip_empty_lines: true,
    }) as unknown as ParsedRecord[];
  } catch (error) {
    if (error instanceof CsvError) {
      const line = (error as CsvError & { lines?: number }).lines;
      throw new IngestError(`${name}: ${line ? `line ${line}: ` : ''}${error.message}`);
    }
    throw error;
  }
  // info.lines is the line a record ends on; a quoted line break inside it started it earlier
  const rows = records.map(({ record, info, raw }) => ({
    line: info.lines - (raw.replace(/\r?\n$/, '').match(/\n/g)?.length ?? 0),
    fields: record,
  }));
  const [head, ...body] = rows;
  if (!head) throw new IngestError(`${name} is empty`);
  return { header: head.fields.map((h) => h.trim()), rows: body };
}
