import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { AppError } from '../../core/errors.ts';
import { SAFE_CSV_OPTIONS, safeCsvText } from '../batch/csv-safe.ts';

/** Spec §8: an enrich job takes at most 2,000 rows and 2 MB; more is refused, never truncated. */
export const MAX_ENRICH_ROWS = 2_000;
export const MAX_ENRICH_BYTES = 2 * 1024 * 1024;
/** Columns a file may have; a wider one is not an address list. */
export const MAX_ENRICH_COLUMNS = 200;

/** An uploaded CSV as the job keeps it: its header and its data rows, every cell a string. */
export type Upload = { columns: string[]; rows: string[][] };

const LIMIT_HINT = `Split the file into jobs of at most ${MAX_ENRICH_ROWS} rows and 2 MB each.`;

type CsvParseError = Error & { code?: string; lines?: number };

/** csv-parse's message without its own line wording, which we replace with the spec's "line N". */
function describeParseError(error: CsvParseError): string {
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted field is never closed';
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'a closing quote is followed by more text (quote the whole field, doubling quotes inside it)';
    case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH':
      return error.message
        .replace(/ on line \d+.*$/s, '')
        .replace(/^Invalid Record Length: /, 'wrong number of fields: ');
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return 'text after a closing quote';
    default:
      return error.message.replace(/ at line \d+.*$/s, '');
  }
}

/**
 * Reads an upload: comma-separated, RFC 4180 quoting, a header row, an optional UTF-8 BOM, CRLF or
 * LF. Over 2 MB or 2,000 data rows is a 413 (counted before anything is kept); a malformed file
 * is a 400 naming the line (1 is the header).
 */
export function readUpload(csv: string): Upload {
  const bytes = Buffer.byteLength(csv, 'utf8');
  if (bytes > MAX_ENRICH_BYTES) {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `The CSV is ${(bytes / 1024 / 1024).toFixed(2)} MB; an enrich job takes at most 2 MB.`,
      LIMIT_HINT,
    );
  }
  let records: string[][];
  try {
    records = parse(csv, { bom: true, skip_empty_lines: true, relax_column_count: false });
  } catch (error) {
    const e = error as CsvParseError;
    const line = typeof e.lines === 'number' ? e.lines : undefined;
    throw new AppError(
      'BAD_REQUEST',
      `The CSV is malformed${line === undefined ? '' : ` at line ${line}`}: ${describeParseError(e)}.`,
      'Send comma-separated text with a header row; quote fields holding commas, quotes or line breaks.',
    );
  }
  const [header, ...rows] = records;
  if (!header || header.every((name) => name.trim() === '')) {
    throw new AppError('BAD_REQUEST', 'The CSV is empty: send a header row and at least one data row.');
  }
  if (header.length > MAX_ENRICH_COLUMNS) {
    throw new AppError('BAD_REQUEST', `The CSV has ${header.length} columns; at most ${MAX_ENRICH_COLUMNS} are read.`);
  }
  const columns = header.map((name) => name.trim());
  const seen = new Map<string, number>();
  columns.forEach((name, index) => {
    if (name === '') {
      throw new AppError(
        'BAD_REQUEST',
        `Column ${index + 1} of the header (line 1) has no name.`,
        'Name every column.',
      );
    }
    const first = seen.get(name.toLowerCase());
    if (first !== undefined) {
      throw new AppError(
        'BAD_REQUEST',
        `The header (line 1) names column '${name}' twice (columns ${first + 1} and ${index + 1}).`,
        'A mapping names columns by their header, so each name must be unique.',
      );
    }
    seen.set(name.toLowerCase(), index);
  });
  if (rows.length === 0) throw new AppError('BAD_REQUEST', 'The CSV has a header but no data rows.');
  if (rows.length > MAX_ENRICH_ROWS) {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `The CSV has ${rows.length} data rows; an enrich job takes at most ${MAX_ENRICH_ROWS}.`,
      LIMIT_HINT,
    );
  }
  return { columns, rows };
}

/**
 * The enriched file: a header and rows, quoted where needed (csv-stringify), CRLF as RFC 4180 asks;
 * every cell, the upload's own header and cells included, neutralised against formula injection.
 */
export function writeCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const records = [header, ...rows].map((cells) => cells.map(safeCsvText));
  return stringify(records, { record_delimiter: 'windows', ...SAFE_CSV_OPTIONS });
}
