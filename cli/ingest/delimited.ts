/**
 * Comma- or pipe-separated files with a header row, read as a stream: the layout the NSW
 * Valuer General publishes its bulk land values in (quoted fields, CRLF line ends). Fields
 * may be quoted with "", a doubled "" inside quotes is one quote, and a quoted field may run
 * over a line end. Columns are found by name, compared without regard to case or spacing.
 * No CSV package is in the dependencies and this much of RFC 4180 is all these files use.
 */
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { IngestError } from './gnaf-release.ts';
import { linesOf } from './psv.ts';

/** A column name as compared: upper case, single spaces ("Land value 1" is "LAND VALUE 1"). */
export const columnKey = (name: string): string => name.replace(/\s+/g, ' ').trim().toUpperCase();

/** The fields of one record, and whether a quote is still open at its end (the record goes on). */
function splitRecord(text: string, delimiter: string): { fields: string[]; open: boolean } {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === delimiter) {
      fields.push(field);
      field = '';
    } else field += c;
  }
  fields.push(field);
  return { fields, open: quoted };
}

export interface DelimitedRecord {
  /** Line number of the record's first line (the header is line 1). */
  readonly line: number;
  /** The field of a column by name (see columnKey); null when blank or the file lacks the column. */
  get(column: string): string | null;
}

export interface DelimitedFile extends AsyncIterable<DelimitedRecord> {
  readonly name: string;
  readonly delimiter: ',' | '|';
  /** The header's column names as compared (columnKey). */
  readonly columns: readonly string[];
}

/**
 * Opens `path`, tells its delimiter from the header and checks every `required` column is
 * there, else an IngestError names the missing ones. A record with another number of fields
 * than the header stops the run naming its line.
 */
export async function openDelimited(path: string, required: readonly string[]): Promise<DelimitedFile> {
  const name = basename(path);
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 });
  const lines = linesOf(stream as AsyncIterable<string>);
  const first = await lines.next();
  const headerLine = first.done ? '' : first.value.replace(/^\uFEFF/, '');
  const delimiter = headerLine.split('|').length > headerLine.split(',').length ? '|' : ',';
  const columns = splitRecord(headerLine, delimiter).fields.map(columnKey);
  const missing = required.map(columnKey).filter((c) => !columns.includes(c));
  if (headerLine.trim() === '' || missing.length > 0) {
    stream.destroy();
    throw new IngestError(
      `${name} is missing column${missing.length === 1 ? '' : 's'} ${missing.join(', ')} (its header is "${headerLine.slice(0, 300)}")`,
    );
  }
  const index = new Map(columns.map((c, i) => [c, i] as const));

  async function* records(): AsyncGenerator<DelimitedRecord> {
    let lineNumber = 1;
    try {
      for (let next = await lines.next(); !next.done; next = await lines.next()) {
        lineNumber += 1;
        const start = lineNumber;
        let text = next.value;
        let split = splitRecord(text, delimiter);
        while (split.open) {
          const more = await lines.next();
          if (more.done) throw new IngestError(`${name} line ${start}: a quoted field is never closed`);
          lineNumber += 1;
          text += `\n${more.value}`;
          split = splitRecord(text, delimiter);
        }
        if (text.trim() === '') continue;
        const { fields } = split;
        if (fields.length !== columns.length) {
          throw new IngestError(
            `${name} line ${start} has ${fields.length} fields where its header has ${columns.length}`,
          );
        }
        yield {
          line: start,
          get: (column) => {
            const at = index.get(columnKey(column));
            const value = at === undefined ? undefined : fields[at]?.trim();
            return value === undefined || value === '' ? null : value;
          },
        };
      }
    } finally {
      stream.destroy();
    }
  }
  return { name, delimiter, columns, [Symbol.asyncIterator]: records };
}
