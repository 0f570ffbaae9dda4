/**
 * The rows of a workbook's first sheet (.xlsx: a zip of SpreadsheetML parts), read with fflate
 * and saxes, the zip and XML readers already in the tree. Publishers that offer XLSX only (NSW
 * Fair Trading's rental bond workbooks) are read as published, not through a hand-made CSV export.
 *
 * Enough for a sheet of values: shared strings (rich text runs joined), inline strings, numbers
 * and booleans as their text, formulas as their cached value. Dates stay the day serials Excel
 * stores (the callers read serials). The whole sheet is held in memory: a month of bond
 * lodgements is about 6 MB of XML.
 */
import { readFileSync } from 'node:fs';
import { basename, posix } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { SaxesParser } from 'saxes';
import { IngestError } from './gnaf-release.ts';

export interface SheetRow {
  /** The row's number in the sheet (1 is the first), as the workbook numbers it. */
  readonly row: number;
  /** Cell text by column (A is 0); a missing cell is undefined. */
  readonly cells: readonly (string | undefined)[];
}

export interface Sheet {
  readonly name: string;
  readonly rows: readonly SheetRow[];
}

/** The zero-based column of a cell reference ("C17" is 2, "AA1" is 26). */
export function columnOf(ref: string): number {
  const letters = /^[A-Z]+/.exec(ref)?.[0] ?? '';
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

function parseXml(xml: string, on: (parser: SaxesParser) => void): void {
  const parser = new SaxesParser();
  on(parser);
  parser.write(xml).close();
}

/** The workbook's shared strings, each the text of its runs joined. */
function sharedStrings(xml: string | undefined): string[] {
  if (xml === undefined) return [];
  const strings: string[] = [];
  let current: string | null = null;
  let inText = false;
  // a phonetic run (rPh) repeats the reading of East Asian text: not part of the value
  let inPhonetic = false;
  parseXml(xml, (p) => {
    p.on('opentag', (tag) => {
      if (tag.name === 'si') current = '';
      else if (tag.name === 'rPh') inPhonetic = true;
      else if (tag.name === 't' && !inPhonetic) inText = true;
    });
    p.on('text', (text) => {
      if (inText && current !== null) current += text;
    });
    p.on('closetag', (tag) => {
      if (tag.name === 't') inText = false;
      else if (tag.name === 'rPh') inPhonetic = false;
      else if (tag.name === 'si') {
        strings.push(current ?? '');
        current = null;
      }
    });
  });
  return strings;
}

/** The part of the first sheet, by the workbook's own order and relationships. */
function firstSheetPart(files: Record<string, Uint8Array>): { part: string; name: string } {
  const text = (path: string) => (files[path] ? strFromU8(files[path]) : undefined);
  const workbook = text('xl/workbook.xml');
  const rels = text('xl/_rels/workbook.xml.rels');
  let first: { id: string; name: string } | null = null;
  if (workbook) {
    parseXml(workbook, (p) =>
      p.on('opentag', (tag) => {
        const a = tag.attributes as Record<string, string>;
        if (tag.name === 'sheet' && !first) first = { id: a['r:id'] ?? '', name: a.name ?? '' };
      }),
    );
  }
  const found = first as { id: string; name: string } | null;
  let target: string | undefined;
  if (found && rels) {
    parseXml(rels, (p) =>
      p.on('opentag', (tag) => {
        const a = tag.attributes as Record<string, string>;
        if (tag.name === 'Relationship' && a.Id === found.id) target = a.Target;
      }),
    );
  }
  const part = target
    ? target.startsWith('/')
      ? target.slice(1)
      : posix.normalize(posix.join('xl', target))
    : 'xl/worksheets/sheet1.xml';
  return { part, name: found?.name ?? 'sheet1' };
}

/** Reads the first sheet of the workbook at `path`; not a workbook is an IngestError naming the file. */
export function readFirstSheet(path: string): Sheet {
  const file = basename(path);
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(readFileSync(path));
  } catch (error) {
    throw new IngestError(`${file} is not a readable .xlsx workbook (${(error as Error).message})`);
  }
  const { part, name } = firstSheetPart(files);
  const sheetXml = files[part];
  if (!sheetXml) throw new IngestError(`${file} is not an .xlsx workbook (no ${part})`);
  const strings = sharedStrings(files['xl/sharedStrings.xml'] ? strFromU8(files['xl/sharedStrings.xml']) : undefined);

  const rows: SheetRow[] = [];
  let cells: (string | undefined)[] = [];
  let rowNumber = 0;
  let cell: { column: number; type: string; value: string; inText: boolean; inValue: boolean } | null = null;
  try {
    parseXml(strFromU8(sheetXml), (p) => {
      p.on('opentag', (tag) => {
        const a = tag.attributes as Record<string, string>;
        if (tag.name === 'row') {
          rowNumber = a.r ? Number(a.r) : rowNumber + 1;
          cells = [];
        } else if (tag.name === 'c') {
          cell = {
            column: a.r ? columnOf(a.r) : cells.length,
            type: a.t ?? 'n',
            value: '',
            inText: false,
            inValue: false,
          };
        } else if (cell && tag.name === 'v') cell.inValue = true;
        else if (cell && tag.name === 't') cell.inText = true;
      });
      p.on('text', (text) => {
        if (cell && (cell.inValue || cell.inText)) cell.value += text;
      });
      p.on('closetag', (tag) => {
        if (!cell) {
          if (tag.name === 'row') rows.push({ row: rowNumber, cells });
          return;
        }
        if (tag.name === 'v') cell.inValue = false;
        else if (tag.name === 't') cell.inText = false;
        else if (tag.name === 'c') {
          const { column, type, value } = cell;
          if (type === 's') {
            const shared = strings[Number(value)];
            if (shared === undefined) throw new Error(`cell ${column + 1} of row ${rowNumber} names no shared string`);
            cells[column] = shared;
          } else if (type === 'b') cells[column] = value === '1' ? 'TRUE' : 'FALSE';
          else if (value !== '') cells[column] = value;
          cell = null;
        }
      });
    });
  } catch (error) {
    throw new IngestError(`${file}: its sheet "${name}" could not be read (${(error as Error).message})`);
  }
  return { name, rows };
}
