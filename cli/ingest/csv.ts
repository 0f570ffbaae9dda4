/**
 * Comma-separated files as registers publish them (RFC 4180): fields quoted when they hold a
 * comma, quote or line break, a quote inside doubled. No CSV parser is installed and G-NAF's
 * reader (psv.ts) splits on every separator, which a quoted address ("12 Smith St, Bendigo")
 * breaks, hence this small one. Registers run to thousands of rows, so the file is read whole.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { IngestError } from './gnaf-release.ts';

export interface CsvTable {
  readonly header: readonly string[];
  /** Records with their 1-based line number in the file (of the record's first line). */
  readonly rows: ReadonlyArray<{ readonly line: number; readonly fields: readonly string[] }>;
}

export function readCsv(path: string): CsvTable {
  const name = basename(path);
  const text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
  const records: Array<{ line: number; fields: string[] }> = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  let i = 0;
  const endField = () => {
    fields.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    // A blank line is no record; a trailing newline leaves one.
    if (fields.length > 1 || fields[0] !== '') records.push({ line: start, fields });
    fields = [];
    start = line;
  };
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else {
        if (c === '\n') line += 1;
        field += c;
      }
      i += 1;
      continue;
    }
    if (c === '"' && field === '') quoted = true;
    else if (c === ',') endField();
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      line += 1;
      endRecord();
    } else field += c;
    i += 1;
  }
  if (quoted) throw new IngestError(`${name}: a quoted field opened on line ${start} is never closed`);
  if (field !== '' || fields.length > 0) endRecord();
  const [head, ...rows] = records;
  if (!head) throw new IngestError(`${name} is empty`);
  const header = head.fields.map((h) => h.trim());
  for (const row of rows) {
    if (row.fields.length !== header.length) {
      throw new IngestError(
        `${name}: line ${row.line} has ${row.fields.length} fields where the header has ${header.length}`,
      );
    }
  }
  return { header, rows };
}
