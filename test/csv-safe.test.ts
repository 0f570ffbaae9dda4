/** The formula-injection guard both CSV writers share (platform/batch/csv-safe.ts). */
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { SAFE_CSV_OPTIONS, safeCsvCell, safeCsvRecord, safeCsvText } from '../platform/batch/csv-safe.ts';

describe('safeCsvText', () => {
  it('prefixes a quote to text a spreadsheet would run as a formula', () => {
    for (const hostile of [
      '=1+2',
      '=HYPERLINK("http://evil.example","x")',
      '+61 3 9999 0000',
      "-2+3+cmd|' /C calc'!A0",
      '@SUM(A1:A9)',
      '\t=1+1',
      '\r=1+1',
      '-',
      '+',
      '\uFF1D1+1',
      '\uFF20SUM(A1)',
    ]) {
      expect(safeCsvText(hostile), JSON.stringify(hostile)).toBe(`'${hostile}`);
    }
  });

  it('leaves plain numbers numeric: a latitude or a negative amount is not a formula', () => {
    for (const number of ['-37.81', '-12.5', '+5', '-0', '-.5', '-1.2e-3', '144.96', '0', '1E6']) {
      expect(safeCsvText(number), number).toBe(number);
    }
  });

  it('leaves ordinary text alone, a formula character past the first included', () => {
    for (const text of ['', '12 Smith St', 'no_feature', "O'Brien", 'A-1', 'x=1', ' =1+1', "'=already"]) {
      expect(safeCsvText(text), text).toBe(text);
    }
  });

  it('passes numbers and empty cells through as they are, for records of any cell type', () => {
    expect(safeCsvCell(-37.81)).toBe(-37.81);
    expect(safeCsvCell(null)).toBeNull();
    expect(safeCsvRecord(['=1', -1, null, '-1'])).toEqual(["'=1", -1, null, '-1']);
  });

  it('quotes a cell holding ";" so a ";"-separated spreadsheet cannot split a formula out of it', () => {
    const text = stringify([safeCsvRecord(['ok;=1+1', 'plain'])], SAFE_CSV_OPTIONS);
    expect(text).toBe('"ok;=1+1",plain\n');
  });
});
