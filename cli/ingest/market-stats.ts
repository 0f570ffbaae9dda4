/**
 * Loads NSW Fair Trading's rental bond data and the ABS building approvals by SA2.
 *
 * Rental bonds. Fair Trading publishes a workbook (XLSX) a month of new bond lodgements (one row
 * a bond: Lodgement Date, Postcode, Dwelling Type, Bedrooms, Weekly Rent) and one of bonds held
 * (a count per Postcode, Dwelling Type and Bedrooms at the month's end). The workbook is read as
 * published (its first sheet; the title rows above the header row are skipped, dates are Excel
 * day serials), and so is a CSV export of the sheet with its header row first. Dwelling types:
 * F flat/unit, H house, T terrace/townhouse/semi-detached, O other, U unknown; a Bedrooms or
 * Weekly Rent of U is unknown (the workbook's Definitions sheet), kept as a lodgement without
 * that figure. Lodgements are kept one a row (a rerun of a file replaces that file's rows) and
 * rolled up to quarterly medians and counts per postcode; holdings become the quarter's bonds
 * held.
 *
 * Building approvals. The ABS Data Explorer's CSV of the BA_SA2 dataflow: DATAFLOW, MEASURE,
 * SECTOR, WORK_TYPE, BUILDING_TYPE, REGION_TYPE, REGION, FREQ, TIME_PERIOD, OBS_VALUE, ... in
 * either of its forms: codes only ("1"), or codes with labels ("1: Number of dwelling units",
 * headers "MEASURE: Measure"). Rows of REGION_TYPE SA2 are loaded; a row is keyed by SA2, period
 * and its breakdown, so a rerun upserts.
 */
import { basename } from 'node:path';
import type { Database } from '../../core/db.ts';
import { columnKey, type DelimitedFile, type DelimitedRecord, openDelimited } from './delimited.ts';
import { IngestError } from './gnaf-release.ts';
import * as MARKET from './market-sql.ts';
import { checkDataset, snapshotId } from './planning.ts';
import type { FeatureNote } from './planning-load.ts';
import * as PLANNING from './planning-sql.ts';
import { readFirstSheet } from './xlsx.ts';

export const NSW_BONDS_SOURCE = 'nsw-fair-trading';
export const NSW_BONDS_CREDIT = {
  attribution: 'Rental bond data © State of New South Wales (NSW Fair Trading), CC BY 4.0',
  license: 'CC BY 4.0',
};
export const ABS_APPROVALS_SOURCE = 'abs-ba-sa2';
export const ABS_APPROVALS_CREDIT = {
  attribution: 'Building Approvals, Australia (SA2) © Australian Bureau of Statistics, CC BY 4.0',
  license: 'CC BY 4.0',
};

/** A quarter's median rent needs this many lodgements with a rent (docs/p8-notes-market.md). */
export const MIN_LODGEMENTS_FOR_MEDIAN = 5;

/** The columns read, each with the other names the published sheets have used for it. */
export const LODGEMENT_COLUMNS = {
  date: ['Lodgement Date', 'Lodgement date'],
  postcode: ['Postcode'],
  dwelling: ['Dwelling Type', 'Dwelling type'],
  bedrooms: ['Bedrooms', 'Number Of Bedrooms', 'Number of Bedrooms'],
  rent: ['Weekly Rent', 'Weekly rent'],
} as const;
export const HOLDING_COLUMNS = {
  postcode: ['Postcode'],
  dwelling: ['Dwelling Type', 'Dwelling type'],
  bedrooms: ['Bedrooms', 'Number Of Bedrooms', 'Number of Bedrooms'],
  held: ['Bonds Held', 'Number Of Bonds Held', 'Total Bonds Held', 'Held'],
} as const;
export const APPROVAL_COLUMNS = ['REGION', 'TIME_PERIOD', 'OBS_VALUE', 'MEASURE', 'BUILDING_TYPE'] as const;

/** The state of an ASGS SA2 by its first digit (1 NSW ... 8 ACT, 9 other territories). */
export function stateOfSa2(code: string): string | null {
  return (['NSW', 'VIC', 'QLD', 'SA', 'WA', 'TAS', 'NT', 'ACT', 'OT'] as const)[Number(code.slice(0, 1)) - 1] ?? null;
}

const DWELLING: Record<string, string> = { F: 'unit', H: 'house', T: 'townhouse', O: 'other', U: 'unknown' };

/** A date as the sheets export it: DD/MM/YYYY, ISO, or an Excel day serial. */
export function sheetDate(text: string): string {
  const dmy = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  let date: string | null = null;
  if (dmy) date = `${dmy[3]}-${dmy[2]!.padStart(2, '0')}-${dmy[1]!.padStart(2, '0')}`;
  else if (iso) date = `${iso[1]}-${iso[2]}-${iso[3]}`;
  else if (/^\d{5}$/.test(text))
    date = new Date(Date.UTC(1899, 11, 30) + Number(text) * 86_400_000).toISOString().slice(0, 10);
  const parsed = date ? new Date(`${date}T00:00:00Z`) : null;
  if (!date || !parsed || Number.isNaN(parsed.getTime()) || !parsed.toISOString().startsWith(date)) {
    throw new Error(`"${text}" is not a date (DD/MM/YYYY)`);
  }
  return date;
}

/**
 * The header's name for each column wanted (any of its names), else an IngestError naming the
 * missing columns and the header as found.
 */
function resolveColumns<K extends string>(file: SheetFile, wanted: Record<K, readonly string[]>): Record<K, string> {
  const found = {} as Record<K, string>;
  const missing: string[] = [];
  for (const [key, names] of Object.entries(wanted) as [K, readonly string[]][]) {
    const name = names.find((n) => file.columns.includes(columnKey(n)));
    if (name) found[key] = name;
    else missing.push(names[0]!);
  }
  if (missing.length > 0) {
    throw new IngestError(
      `${file.name} is missing column${missing.length === 1 ? '' : 's'} ${missing.join(', ')} (its header is "${file.columns.join(',')}")`,
    );
  }
  return found;
}

/** The rows of a published sheet, as a workbook or as its CSV export; a record's line is its row (or CSV line). */
export type SheetFile = Pick<DelimitedFile, 'name' | 'columns'> & AsyncIterable<DelimitedRecord>;

/**
 * Opens a published sheet: an .xlsx workbook as Fair Trading publishes it (the header row is the
 * first row naming every column wanted; the title rows above it are skipped), else a CSV export
 * whose first line is the header row.
 */
async function openSheet(path: string, wanted: Record<string, readonly string[]>): Promise<{ file: SheetFile }> {
  const file = /\.xlsx$/i.test(path) ? workbookSheet(path, wanted) : await openDelimited(path, []);
  resolveColumns(file, wanted);
  return { file };
}

function workbookSheet(path: string, wanted: Record<string, readonly string[]>): SheetFile {
  const sheet = readFirstSheet(path);
  const name = basename(path);
  const keysOf = (cells: readonly (string | undefined)[]) => cells.map((c) => columnKey(c ?? ''));
  const isHeader = (keys: string[]) =>
    Object.values(wanted).every((names) => names.some((n) => keys.includes(columnKey(n))));
  const at = sheet.rows.findIndex((r) => isHeader(keysOf(r.cells)));
  // no header row: the first row stands as the header, so the refusal names the columns missing from it
  const header = sheet.rows[Math.max(at, 0)];
  const columns = keysOf(header?.cells ?? []);
  const index = new Map(columns.map((c, i) => [c, i] as const));
  const body = at < 0 ? [] : sheet.rows.slice(at + 1);
  return {
    name,
    columns,
    async *[Symbol.asyncIterator]() {
      for (const { row, cells } of body) {
        if (cells.every((c) => c === undefined || c.trim() === '')) continue;
        yield {
          line: row,
          get: (column: string) => {
            const i = index.get(columnKey(column));
            const value = i === undefined ? undefined : cells[i]?.trim();
            return value === undefined || value === '' ? null : value;
          },
        };
      }
    },
  };
}

export interface RentalBondsIngestOptions {
  lodgements?: string;
  holdings?: string;
  /** The month (YYYY-MM) the holdings file is at the end of. */
  holdingsMonth?: string;
  dataset?: string;
  snapshot?: string;
}

export interface RentalBondsIngestResult {
  readonly dataset: string;
  readonly lodgements: { file: string; read: number; loaded: number; quarters: string[] } | null;
  readonly holdings: { file: string; read: number; quarter: string; postcodes: number } | null;
  readonly refused: readonly FeatureNote[];
  readonly ms: number;
}

export type PreparedRentalBonds = {
  dataset: string;
  snapshot: string;
  lodgements: { file: SheetFile; columns: Record<keyof typeof LODGEMENT_COLUMNS, string> } | null;
  holdings: { file: SheetFile; columns: Record<keyof typeof HOLDING_COLUMNS, string>; quarter: string } | null;
};

export async function prepareRentalBondsIngest(options: RentalBondsIngestOptions): Promise<PreparedRentalBonds> {
  const dataset = checkDataset(options.dataset ?? 'live');
  if (!options.lodgements && !options.holdings) {
    throw new IngestError('name a file: --lodgements <csv> and/or --holdings <csv> --holdings-month YYYY-MM');
  }
  let lodgements: PreparedRentalBonds['lodgements'] = null;
  if (options.lodgements) {
    const { file } = await openSheet(options.lodgements, LODGEMENT_COLUMNS);
    lodgements = { file, columns: resolveColumns(file, LODGEMENT_COLUMNS) };
  }
  let holdings: PreparedRentalBonds['holdings'] = null;
  if (options.holdings) {
    const month =
      options.holdingsMonth ??
      /((?:19|20)\d{2})-?(0[1-9]|1[0-2])/.exec(basename(options.holdings))?.slice(1, 3).join('-');
    if (!month || !/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) {
      throw new IngestError('--holdings-month YYYY-MM: name the month the holdings file is at the end of');
    }
    const { file } = await openSheet(options.holdings, HOLDING_COLUMNS);
    const m = Number(month.slice(5, 7));
    const quarter = `${month.slice(0, 4)}-${String(Math.floor((m - 1) / 3) * 3 + 1).padStart(2, '0')}-01`;
    holdings = { file, columns: resolveColumns(file, HOLDING_COLUMNS), quarter };
  }
  const named = options.lodgements ?? options.holdings!;
  return { dataset, snapshot: snapshotId(options.snapshot, named), lodgements, holdings };
}

const dwellingOf = (code: string | null) => DWELLING[(code ?? 'U').trim().toUpperCase().slice(0, 1)] ?? 'unknown';
const bedroomsOf = (text: string | null) => {
  const t = (text ?? '').trim().toUpperCase();
  return t === '' || t === 'U' || t === 'UNKNOWN' ? 'unknown' : t;
};

export async function loadRentalBonds(db: Database, run: PreparedRentalBonds): Promise<RentalBondsIngestResult> {
  const started = performance.now();
  const refused: FeatureNote[] = [];
  const result = await db.transaction(async (query) => {
    let lodgementSummary: RentalBondsIngestResult['lodgements'] = null;
    if (run.lodgements) {
      const { file, columns } = run.lodgements;
      await query(MARKET.DELETE_LODGEMENTS_OF_FILE, [run.dataset, file.name]);
      let read = 0;
      let loaded = 0;
      const quarters = new Set<string>();
      let batch: Record<string, unknown>[] = [];
      const flush = async () => {
        if (batch.length === 0) return;
        await query(MARKET.INSERT_LODGEMENTS, [run.dataset, file.name, 'NSW', JSON.stringify(batch)]);
        loaded += batch.length;
        batch = [];
      };
      for await (const record of file) {
        read += 1;
        const row = lodgementRow(record, columns, file.name, refused);
        if (!row) continue;
        quarters.add(
          `${row.lodgement_date.slice(0, 4)}-${String(Math.floor((Number(row.lodgement_date.slice(5, 7)) - 1) / 3) * 3 + 1).padStart(2, '0')}-01`,
        );
        batch.push(row);
        if (batch.length >= 2000) await flush();
      }
      await flush();
      if (loaded === 0)
        throw new IngestError(
          `${file.name}: no lodgement could be read${refused[0] ? ` (line ${refused[0].feature}: ${refused[0].reason})` : ''}`,
        );
      const qs = [...quarters].sort();
      for (const sql of MARKET.ROLLUP_LODGEMENTS) {
        await query(
          sql,
          sql.startsWith('UPDATE')
            ? [run.dataset, NSW_BONDS_SOURCE, 'NSW', qs]
            : [
                run.dataset,
                NSW_BONDS_SOURCE,
                'NSW',
                qs,
                NSW_BONDS_CREDIT.attribution,
                NSW_BONDS_CREDIT.license,
                MIN_LODGEMENTS_FOR_MEDIAN,
              ],
        );
      }
      lodgementSummary = { file: file.name, read, loaded, quarters: qs };
    }
    let holdingSummary: RentalBondsIngestResult['holdings'] = null;
    if (run.holdings) {
      const { file, columns, quarter } = run.holdings;
      const rows: Array<{ postcode: string; dwelling_type: string; bedrooms: string; bonds_held: number }> = [];
      let read = 0;
      for await (const record of file) {
        read += 1;
        const postcode = record.get(columns.postcode);
        const held = Number((record.get(columns.held) ?? '').replace(/,/g, ''));
        if (!postcode || !/^\d{4}$/.test(postcode)) {
          refused.push({
            file: file.name,
            feature: record.line,
            key: postcode ?? '',
            reason: `postcode "${postcode ?? ''}" is not four digits`,
          });
          continue;
        }
        if (!Number.isInteger(held) || held < 0) {
          refused.push({ file: file.name, feature: record.line, key: postcode, reason: 'bonds held is not a count' });
          continue;
        }
        rows.push({
          postcode,
          dwelling_type: dwellingOf(record.get(columns.dwelling)),
          bedrooms: bedroomsOf(record.get(columns.bedrooms)),
          bonds_held: held,
        });
      }
      if (rows.length === 0) throw new IngestError(`${file.name}: no holding could be read`);
      await query(MARKET.UPSERT_HOLDINGS, [
        run.dataset,
        NSW_BONDS_SOURCE,
        'NSW',
        quarter,
        NSW_BONDS_CREDIT.attribution,
        NSW_BONDS_CREDIT.license,
        JSON.stringify(rows),
      ]);
      holdingSummary = { file: file.name, read, quarter, postcodes: new Set(rows.map((r) => r.postcode)).size };
    }
    await query(PLANNING.WRITE_DATASET_SOURCE, [
      run.dataset,
      'NSW',
      'market-rents',
      NSW_BONDS_CREDIT.attribution,
      NSW_BONDS_CREDIT.license,
      run.snapshot,
    ]);
    return { lodgements: lodgementSummary, holdings: holdingSummary };
  });
  await db.exec(MARKET.ANALYZE_MARKET_TABLES);
  return { dataset: run.dataset, ...result, refused, ms: performance.now() - started };
}

function lodgementRow(
  record: DelimitedRecord,
  columns: Record<keyof typeof LODGEMENT_COLUMNS, string>,
  name: string,
  refused: FeatureNote[],
) {
  const postcode = record.get(columns.postcode);
  const refuse = (reason: string) => {
    refused.push({ file: name, feature: record.line, key: postcode ?? '', reason });
    return null;
  };
  if (!postcode || !/^\d{4}$/.test(postcode)) return refuse(`postcode "${postcode ?? ''}" is not four digits`);
  let date: string;
  try {
    date = sheetDate(record.get(columns.date) ?? '');
  } catch (error) {
    return refuse((error as Error).message);
  }
  const rentText = record.get(columns.rent);
  const rent = rentText === null || /^U$/i.test(rentText) ? null : Number(rentText.replace(/[$,]/g, ''));
  if (rent !== null && !(Number.isFinite(rent) && rent > 0)) return refuse(`weekly rent "${rentText}" is no amount`);
  return {
    line: record.line,
    lodgement_date: date,
    postcode,
    dwelling_type: dwellingOf(record.get(columns.dwelling)),
    bedrooms: bedroomsOf(record.get(columns.bedrooms)),
    weekly_rent: rent,
  };
}

// --- ABS building approvals by SA2 ---------------------------------------------------------

export interface AbsApprovalsIngestOptions {
  file: string;
  dataset?: string;
  snapshot?: string;
}

export interface AbsApprovalsIngestResult {
  readonly dataset: string;
  readonly file: string;
  readonly read: number;
  readonly loaded: number;
  /** Rows of another region type (state, SA3, ...), not loaded. */
  readonly otherRegions: number;
  readonly sa2s: number;
  readonly states: readonly string[];
  readonly refused: readonly FeatureNote[];
  readonly ms: number;
}

/** "1: Number of dwelling units" → code 1 and its label; "1" → code 1, no label. */
export function codeAndLabel(cell: string | null): { code: string; label: string | null } {
  const text = (cell ?? '').trim();
  const at = text.indexOf(':');
  if (at < 0) return { code: text, label: null };
  return { code: text.slice(0, at).trim(), label: text.slice(at + 1).trim() || null };
}

/** house, unit, all or other from the type of building (its label where given, else the total's code). */
export function dwellingOfBuilding(code: string, label: string | null): string {
  const words = (label ?? '').toLowerCase();
  if (code === 'TOT' || words.startsWith('total')) return 'all';
  if (words.includes('house')) return 'house';
  if (words.includes('other residential') || words.includes('apartment') || words.includes('semi-detached'))
    return 'unit';
  return 'other';
}

/** 2024-03 → 2024-03-01 (M); 2024-Q1 → 2024-01-01 (Q). */
export function periodStart(text: string): { period: string; freq: 'M' | 'Q' } {
  const month = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(text);
  if (month) return { period: `${month[1]}-${month[2]}-01`, freq: 'M' };
  const quarter = /^(\d{4})-Q([1-4])$/.exec(text);
  if (quarter)
    return { period: `${quarter[1]}-${String((Number(quarter[2]) - 1) * 3 + 1).padStart(2, '0')}-01`, freq: 'Q' };
  throw new Error(`TIME_PERIOD "${text}" is neither YYYY-MM nor YYYY-Qn`);
}

export type PreparedAbsApprovals = {
  dataset: string;
  snapshot: string;
  file: DelimitedFile;
  columns: Map<string, string>;
};

export async function prepareAbsApprovalsIngest(options: AbsApprovalsIngestOptions): Promise<PreparedAbsApprovals> {
  const dataset = checkDataset(options.dataset ?? 'live');
  const file = await openDelimited(options.file, []);
  // the labelled export names a column "MEASURE: Measure": the code before the colon is its name
  const columns = new Map(file.columns.map((c) => [codeAndLabel(c).code, c] as const));
  const missing = APPROVAL_COLUMNS.filter((c) => !columns.has(c));
  if (missing.length > 0) {
    throw new IngestError(
      `${file.name} is missing column${missing.length === 1 ? '' : 's'} ${missing.join(', ')} (its header is "${file.columns.join(',')}")`,
    );
  }
  return { dataset, snapshot: snapshotId(options.snapshot, options.file), file, columns };
}

export async function loadAbsApprovals(db: Database, run: PreparedAbsApprovals): Promise<AbsApprovalsIngestResult> {
  const started = performance.now();
  const refused: FeatureNote[] = [];
  const { file, columns } = run;
  const col = (record: DelimitedRecord, name: string) => (columns.has(name) ? record.get(columns.get(name)!) : null);
  const result = await db.transaction(async (query) => {
    let read = 0;
    let loaded = 0;
    let otherRegions = 0;
    const sa2s = new Set<string>();
    const states = new Set<string>();
    let batch: Record<string, unknown>[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      await query(MARKET.UPSERT_APPROVALS, [
        run.dataset,
        ABS_APPROVALS_SOURCE,
        ABS_APPROVALS_CREDIT.attribution,
        JSON.stringify(batch),
        ABS_APPROVALS_CREDIT.license,
      ]);
      loaded += batch.length;
      batch = [];
    };
    for await (const record of file) {
      read += 1;
      const regionType = codeAndLabel(col(record, 'REGION_TYPE')).code;
      if (regionType && regionType !== 'SA2') {
        otherRegions += 1;
        continue;
      }
      const region = codeAndLabel(col(record, 'REGION'));
      const refuse = (reason: string) =>
        refused.push({ file: file.name, feature: record.line, key: region.code, reason });
      const state = stateOfSa2(region.code);
      if (!/^\d{9}$/.test(region.code) || !state) {
        refuse(`REGION "${region.code}" is not a nine-digit SA2 code of a state`);
        continue;
      }
      let period: ReturnType<typeof periodStart>;
      try {
        period = periodStart(codeAndLabel(col(record, 'TIME_PERIOD')).code);
      } catch (error) {
        refuse((error as Error).message);
        continue;
      }
      const valueText = col(record, 'OBS_VALUE');
      const value = valueText === null ? NaN : Number(valueText);
      if (!Number.isFinite(value)) {
        refuse(`OBS_VALUE "${valueText ?? ''}" is no number`);
        continue;
      }
      const building = codeAndLabel(col(record, 'BUILDING_TYPE'));
      batch.push({
        state,
        sa2_code: region.code,
        sa2_name: region.label,
        period: period.period,
        freq: codeAndLabel(col(record, 'FREQ')).code || period.freq,
        measure: codeAndLabel(col(record, 'MEASURE')).code,
        sector: codeAndLabel(col(record, 'SECTOR')).code || '9',
        work_type: codeAndLabel(col(record, 'WORK_TYPE')).code || 'TOT',
        building_type: building.code,
        dwelling_type: dwellingOfBuilding(building.code, building.label),
        value,
      });
      sa2s.add(region.code);
      states.add(state);
      if (batch.length >= 2000) await flush();
    }
    await flush();
    if (loaded === 0) {
      throw new IngestError(
        `${file.name}: no SA2 observation could be read${refused[0] ? ` (line ${refused[0].feature}: ${refused[0].reason})` : ''}`,
      );
    }
    for (const state of states) {
      await query(PLANNING.WRITE_DATASET_SOURCE, [
        run.dataset,
        state,
        'market-approvals',
        ABS_APPROVALS_CREDIT.attribution,
        ABS_APPROVALS_CREDIT.license,
        run.snapshot,
      ]);
    }
    return { read, loaded, otherRegions, sa2s: sa2s.size, states: [...states].sort() };
  });
  await db.exec(MARKET.ANALYZE_MARKET_TABLES);
  return { dataset: run.dataset, file: file.name, ...result, refused, ms: performance.now() - started };
}
