/**
 * Comma- or pipe-separated files with a header row, read as a stream with csv-parse: the layout
 * the NSW Valuer General publishes its bulk land values in (quoted fields, CRLF line ends, a
 * quoted field may run over a line end). Columns are found by name, compared without regard to
 * case or spacing.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { CsvError, parse } from 'csv-parse';
import { IngestError } from './gnaf-release.ts';

/** A column name as compared: upper case, single spaces ("Land value 1" is "LAND VALUE 1"). */
export const columnKey = (name: string): string => name.replace(/\s+/g, ' ').trim().toUpperCase();

/** The header line, read from the head of the file alone, so the delimiter is known before parsing. */
function headerLineOf(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return (buffer.subarray(0, read).toString('utf8').split(/\r?\n/)[0] ?? '').replace(/^\uFEFF/, '');
  } finally {
    closeSync(fd);
  }
}

type ParsedRecord = { record: string[]; info: { lines: number }; raw: string };

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
 * than the header, or a quote never closed, stops the run naming its line.
 */
export async function openDelimited(path: string, required: readonly string[]): Promise<DelimitedFile> {
  const name = basename(path);
  const headerLine = headerLineOf(path);
  const delimiter = headerLine.split('|').length > headerLine.split(',').length ? '|' : ',';
  const parser = parse({ delimiter, bom: true, info: true, raw: true, skip_empty_lines: true });
  createReadStream(path).pipe(parser);
  const iterator = (parser as AsyncIterable<ParsedRecord>)[Symbol.asyncIterator]();
  const first = await iterator.next().catch((error: unknown) => {
    parser.destroy();
    throw asIngestError(name, error);
  });
  const columns = first.done ? [] : first.value.record.map(columnKey);
  const missing = required.map(columnKey).filter((c) => !columns.includes(c));
  if (headerLine.trim() === '' || missing.length > 0) {
    parser.destroy();
    throw new IngestError(
      `${name} is missing column${missing.length === 1 ? '' : 's'} ${missing.join(', ')} (its header is "${headerLine.slice(0, 300)}")`,
    );
  }
  const index = new Map(columns.map((c, i) => [c, i] as const));

  async function* records(): AsyncGenerator<DelimitedRecord> {
    try {
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        const { record: fields, info, raw } = next.value;
        // info.lines is the line a record ends on; a quoted line break inside it started it earlier
        const line = info.lines - (raw.replace(/\r?\n$/, '').match(/\n/g)?.length ?? 0);
        yield {
          line,
          get: (column) => {
            const at = index.get(columnKey(column));
            const value = at === undefined ? undefined : fields[at]?.trim();
            return value === undefined || value === '' ? null : value;
          },
        };
      }
    } catch (error) {
      throw asIngestError(name, error, columns.length);
    } finally {
      parser.destroy();
    }
  }
  return { name, delimiter, columns, [Symbol.asyncIterator]: records };
}

/** csv-parse's refusals (a ragged record, a quote never closed) in the ingest's words, with the file and line. */
function asIngestError(name: string, error: unknown, headerFields?: number): unknown {
  if (!(error instanceof CsvError)) return error;
  const { lines: line, record } = error as CsvError & { lines?: number; record?: unknown[] };
  if (error.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH' && record && headerFields !== undefined) {
    return new IngestError(`${name} line ${line} has ${record.length} fields where its header has ${headerFields}`);
  }
  return new IngestError(`${name}${line ? ` line ${line}` : ''}: ${error.message}`);
}
