/**
 * G-NAF's pipe-separated files, read as a stream: a header row of column names, then one
 * record a line, `|` between fields, CRLF or LF line ends. G-NAF never quotes or escapes a
 * field (no value contains a pipe), so a line splits on every pipe. A blank field reads as null.
 * Only one line is held at a time, so a file of millions of rows costs no more memory than one.
 */
import { createReadStream, statSync } from 'node:fs';
import { basename } from 'node:path';

/** A record with the columns asked for; a blank field, or an optional column the file lacks, is null. */
export type PsvRecord<C extends string> = { readonly [K in C]: string | null };

export class PsvError extends Error {}

export interface PsvFile<C extends string> extends AsyncIterable<PsvRecord<C>> {
  readonly path: string;
  /** Every column of the file's header, in order. */
  readonly header: readonly string[];
  /** File size in bytes, for progress. */
  readonly size: number;
  /** Bytes read so far (the reader reads ahead, so this runs a little before the records). */
  bytesRead(): number;
  /** 1-based line number of the record last yielded (the header is line 1). */
  line(): number;
  /** Stops reading; for a file opened only to check its header. */
  close(): void;
}

const BOM = '\uFEFF';

/**
 * The lines of a stream, LF or CRLF ended. Iterating the stream itself keeps its backpressure:
 * nothing is read ahead of the consumer but the current chunk.
 */
export async function* linesOf(stream: AsyncIterable<string>): AsyncGenerator<string> {
  let rest = '';
  for await (const chunk of stream) {
    const text = rest + chunk;
    let start = 0;
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
      yield text.charCodeAt(end - 1) === 13 && end > start ? text.slice(start, end - 1) : text.slice(start, end);
      start = end + 1;
    }
    rest = text.slice(start);
  }
  if (rest) yield rest.endsWith('\r') ? rest.slice(0, -1) : rest;
}

/**
 * Opens `path` and checks its header: every `required` column must be there (in any order;
 * columns are found by name, never by position), else a PsvError names the missing ones.
 * Iterating reads the records; a line with more or fewer fields than the header is an error.
 */
export async function openPsv<R extends string, O extends string = never>(
  path: string,
  required: readonly R[],
  optional: readonly O[] = [],
): Promise<PsvFile<R | O>> {
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 });
  const lines = linesOf(stream as AsyncIterable<string>);
  const first = await lines.next();
  const headerLine = first.done ? '' : first.value.replace(BOM, '');
  const header = headerLine.split('|').map((name) => name.trim());
  const missing = required.filter((column) => !header.includes(column));
  if (!headerLine || missing.length > 0) {
    stream.destroy();
    throw new PsvError(
      `${basename(path)} is missing column${missing.length === 1 ? '' : 's'} ${missing.join(', ')}` +
        ` (its header is "${headerLine}")`,
    );
  }
  const wanted: Array<[R | O, number]> = [...required, ...optional].map((column) => [column, header.indexOf(column)]);
  let lineNumber = 1;

  async function* records(): AsyncGenerator<PsvRecord<R | O>> {
    try {
      for (let next = await lines.next(); !next.done; next = await lines.next()) {
        lineNumber += 1;
        const raw = next.value;
        if (raw === '') continue;
        const fields = raw.split('|');
        if (fields.length !== header.length) {
          throw new PsvError(
            `${basename(path)} line ${lineNumber} has ${fields.length} fields where its header has ${header.length}`,
          );
        }
        const record: Record<string, string | null> = {};
        for (const [column, index] of wanted) record[column] = index < 0 ? null : fields[index] || null;
        yield record as PsvRecord<R | O>;
      }
    } finally {
      stream.destroy();
    }
  }

  return {
    path,
    header,
    size: statSync(path).size,
    bytesRead: () => stream.bytesRead,
    line: () => lineNumber,
    close: () => stream.destroy(),
    [Symbol.asyncIterator]: records,
  };
}
