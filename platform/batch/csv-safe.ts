/**
 * Formula injection (OWASP "CSV Injection"): a spreadsheet opening a CSV runs a cell that begins
 * with `=`, `+`, `-` or `@` as a formula (a tab or carriage return first only hides one), and the
 * cells the batch products write carry text nobody here controls: an enrich upload's own cells
 * and header, an export's input addresses, and source data (street names, planning text). Both
 * CSV writers pass every cell through here. csv-stringify's own `escape_formulas` is not used:
 * it would prefix `-37.81` written as text, and an enrich upload's coordinates are always text.
 */

/** The four ASCII starts, tab and carriage return, and their full-width forms (Apple Numbers normalises those). */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** A plain decimal number (`-37.81`, `+5`, `-1.2e-3`): a spreadsheet reads it as a number, never a formula. */
const PLAIN_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A text cell as it may be written: one a spreadsheet would run gains a leading `'`, which shows it as text. */
export function safeCsvText(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/** A cell of any type: text is neutralised, numbers and empty cells pass as they are. */
export function safeCsvCell<T>(cell: T): T | string {
  return typeof cell === 'string' ? safeCsvText(cell) : cell;
}

export function safeCsvRecord(cells: readonly unknown[]): unknown[] {
  return cells.map(safeCsvCell);
}

/**
 * csv-stringify options both writers add: a cell holding `;` is quoted as well, because a
 * spreadsheet in a locale whose list separator is `;` would otherwise split it there and could
 * start a formula after the split (`x;=cmd`).
 */
export const SAFE_CSV_OPTIONS = { quoted_match: ';' } as const;
