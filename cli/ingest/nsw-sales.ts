/**
 * Loads the NSW Valuer General's bulk Property Sales Information (the weekly .DAT files of the
 * 2001-to-current layout, "Property Sales Data File - Data Elements") into market.sale.
 *
 * The layout: one record a line, fields separated by ';', the record type first:
 *   A  header   A;RTSALEDATA;<district>;<CCYYMMDD HH24:MI>;<submitter>;
 *   B  sale     B;<district>;<property id>;<sale counter>;<download date/time>;<property name>;<unit>;
 *               <house number>;<street>;<locality>;<postcode>;<area>;<area type M|H>;<contract date>;
 *               <settlement date>;<purchase price>;<zoning>;<nature of property>;<primary purpose>;
 *               <strata lot number>;<component code>;<sale code>;<% interest of sale>;<dealing number>;
 *   C  legal    C;<district>;<property id>;<sale counter>;<download date/time>;<property description>;
 *               (one or more per B; their texts join without spaces)
 *   D  party    purchaser/vendor rows, names suppressed (not read)
 *   Z  trailer  Z;<total records>;<B count>;<C count>;<D count>;
 * A C record belongs to the B record of the same district, property id, sale counter and download
 * date/time (the download stamp makes the key unique to one weekly file, so a folder of several
 * weeks, or B and C records split over two files, joins the same).
 *
 * Input: one .DAT (or text) file, a .zip of them (a yearly zip of weekly zips is opened in turn)
 * or a folder of either. Each sale is keyed by district/property id/strata lot/dealing number, so
 * a rerun, or a later week re-publishing a sale, updates it in place. A sale is matched to the
 * parcel its legal description (lot/plan) names in the NSW cadastre of the dataset, and to the
 * G-NAF address on that parcel with its unit and house number where one is; it is placed at the
 * address point, else the parcel's point on surface, else left unplaced (still loaded).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import type { Database } from '../../core/db.ts';
import { snapshotDate } from './buildings.ts';
import { IngestError } from './gnaf-release.ts';
import { spiOfDescription } from './land-values.ts';
import { checkDataset, snapshotId } from './planning.ts';
import type { FeatureNote } from './planning-load.ts';
import * as PLANNING from './planning-sql.ts';
import { Progress } from './progress.ts';
import { readZip } from './zip.ts';
import * as MARKET from './market-sql.ts';
import { matchSalesByAddressText, type SaleWithoutAddress } from './sales-address-text.ts';

export const NSW_SALES_SOURCE = 'nsw-vg-psi';
export const NSW_SALES_CREDIT = {
  attribution: 'Property sales information © Crown in right of New South Wales through the Valuer General, CC BY 4.0',
  license: 'CC BY 4.0',
};

/** The B record's fields in order (0 is the record type), as the data elements name them. */
export const B_FIELDS = [
  'record type',
  'district code',
  'property id',
  'sale counter',
  'download date/time',
  'property name',
  'unit number',
  'house number',
  'street name',
  'locality',
  'post code',
  'area',
  'area type',
  'contract date',
  'settlement date',
  'purchase price',
  'zoning',
  'nature of property',
  'primary purpose',
  'strata lot number',
  'component code',
  'sale code',
  '% interest of sale',
  'dealing number',
] as const;

export interface NswSalesIngestOptions {
  file: string;
  dataset?: string;
  snapshot?: string;
  progress?: Progress;
  batchRows?: number;
}

export interface NswSalesIngestResult {
  readonly dataset: string;
  readonly snapshot: string;
  readonly snapshotDate: string;
  readonly files: readonly string[];
  readonly read: number;
  readonly loaded: number;
  readonly matchedParcel: number;
  readonly matchedAddress: number;
  /** Of those, matched by the published address text (the legal description did not reach an address). */
  readonly matchedByText: number;
  /** Sales whose address text was tried and not taken, with why. */
  readonly textUnmatched: readonly FeatureNote[];
  /** Sales loaded but not tied to a parcel, with why. */
  readonly unmatched: readonly FeatureNote[];
  /** Records refused (no price, a bad date), with why. */
  readonly refused: readonly FeatureNote[];
  readonly ms: number;
}

/** One sale as read from a B record and the C records that describe it. */
export type PsiSale = {
  file: string;
  line: number;
  source_record_id: string;
  district_code: string;
  property_id: string | null;
  contract_date: string | null;
  settlement_date: string | null;
  price: number;
  property_type: 'house' | 'unit' | 'land' | 'other';
  nature_of_property: string | null;
  primary_purpose: string | null;
  area: number | null;
  area_unit: 'm2' | 'ha' | null;
  area_m2: number | null;
  address: string;
  unit_number: string | null;
  house_number: string | null;
  locality: string | null;
  postcode: string | null;
  zoning: string | null;
  strata_lot_number: string | null;
  dealing_number: string | null;
  legal_description: string | null;
};

/** CCYYMMDD as an ISO date; null when blank. */
export function psiDate(text: string | null): string | null {
  if (text === null) return null;
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (!m) throw new Error(`"${text}" is not a date (CCYYMMDD)`);
  const date = `${m[1]}-${m[2]}-${m[3]}`;
  const parsed = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime()) || !parsed.toISOString().startsWith(date)) {
    throw new Error(`"${text}" is not a date (CCYYMMDD)`);
  }
  return date;
}

/** house, unit, land or other from the nature of property (R residence, V vacant land, 3 other) and strata lot. */
export function propertyTypeOf(nature: string | null, strataLot: string | null): PsiSale['property_type'] {
  if (nature === 'V') return 'land';
  if (nature === 'R') return strataLot ? 'unit' : 'house';
  return 'other';
}

const blank = (value: string | undefined): string | null => {
  const v = value?.trim();
  return v === undefined || v === '' ? null : v;
};

/** The single-line address of a sale: "1/3 B QUARRYBYLONG ST, CESSNOCK NSW 2325". */
function addressOf(
  unit: string | null,
  house: string | null,
  street: string | null,
  locality: string | null,
  postcode: string | null,
) {
  const number = [unit, house].filter(Boolean).join('/');
  const line = [number, street].filter(Boolean).join(' ');
  const place = [locality, 'NSW', postcode].filter(Boolean).join(' ');
  return [line, place].filter(Boolean).join(', ');
}

type Text = { name: string; text: string };

/** Whether a text file's first line is a PSI record (A, B, C, D or Z then ';'). */
function isPsiText(path: string): boolean {
  return /^[ABCDZ];/.test(readFileSync(path, 'latin1').slice(0, 200).trimStart());
}

/** Every sales file of the input: a file, a zip (entries), or a folder of either (sorted by name). */
export function salesTexts(path: string): Text[] {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) throw new IngestError(`${path} does not exist`);
  if (stat.isDirectory()) {
    // a folder's text files are read when they are PSI records (a SOURCE.txt or README beside them is not)
    return readdirSync(path)
      .sort()
      .filter((name) => /\.(dat|zip)$/i.test(name) || (/\.txt$/i.test(name) && isPsiText(join(path, name))))
      .flatMap((name) => salesTexts(join(path, name)));
  }
  if (extname(path).toLowerCase() === '.zip') {
    return readZip(path)
      .filter((entry) => /\.(dat|txt)$/i.test(entry.name))
      .map((entry) => ({ name: entry.name, text: entry.data.toString('latin1') }));
  }
  return [{ name: basename(path), text: readFileSync(path, 'latin1') }];
}

/**
 * The sales of a set of PSI texts: B records joined with their C records. A line that is no
 * record of the current layout stops the run naming the file, line and what is missing.
 */
export function parsePsi(texts: readonly Text[]): { sales: PsiSale[]; refused: FeatureNote[]; records: number } {
  type B = { file: string; line: number; fields: string[] };
  const bs: B[] = [];
  const legal = new Map<string, string>();
  const refused: FeatureNote[] = [];
  let records = 0;
  for (const { name, text } of texts) {
    const lines = text.split(/\r?\n/);
    lines.forEach((raw, i) => {
      const line = raw.trim();
      if (line === '') return;
      const fields = line.split(';');
      const type = fields[0];
      records += 1;
      if (type === 'A') {
        if (fields[1] !== 'RTSALEDATA') {
          throw new IngestError(
            `${name} line ${i + 1}: the A record names file type "${fields[1] ?? ''}", not RTSALEDATA: not a 2001-to-current Property Sales Information file`,
          );
        }
      } else if (type === 'B') {
        // 24 fields and the empty one after the trailing ';'
        if (fields.length < B_FIELDS.length) {
          throw new IngestError(
            `${name} line ${i + 1}: a B record of ${fields.length} fields is missing ${B_FIELDS.slice(fields.length).join(', ')} (the 2001-to-current layout has ${B_FIELDS.length}; an archive file of the pre-2001 layout is not read)`,
          );
        }
        bs.push({ file: name, line: i + 1, fields });
      } else if (type === 'C') {
        if (fields.length < 6) {
          throw new IngestError(
            `${name} line ${i + 1}: a C record of ${fields.length} fields is missing property description`,
          );
        }
        const key = fields.slice(1, 5).join(';');
        legal.set(key, (legal.get(key) ?? '') + (fields[5] ?? ''));
      } else if (type !== 'D' && type !== 'Z') {
        throw new IngestError(`${name} line ${i + 1}: "${line.slice(0, 40)}" is no A, B, C, D or Z record`);
      }
    });
  }
  if (bs.length === 0) throw new IngestError('the input holds no B (sale) record');
  const sales: PsiSale[] = [];
  for (const { file, line, fields } of bs) {
    const f = (n: number) => blank(fields[n]);
    const note = (reason: string) => refused.push({ file, feature: line, key: `${f(1)}/${f(2)}`, reason });
    let contract: string | null;
    let settlement: string | null;
    try {
      contract = psiDate(f(13));
      settlement = psiDate(f(14));
    } catch (error) {
      note((error as Error).message);
      continue;
    }
    const price = Number(f(15));
    if (!f(15) || !Number.isFinite(price) || price <= 0) {
      note(`purchase price "${f(15) ?? ''}" is no amount`);
      continue;
    }
    const areaText = f(11);
    const area = areaText === null ? null : Number(areaText);
    const unit = f(12) === 'H' ? 'ha' : f(12) === 'M' ? 'm2' : null;
    const areaOk = area !== null && Number.isFinite(area) && area > 0 && unit !== null;
    const strata = f(19);
    const nature = f(17);
    const district = f(1) ?? '';
    const dealing = f(23);
    sales.push({
      file,
      line,
      source_record_id: dealing
        ? `${district}/${f(2) ?? '-'}/${strata ?? '-'}/${dealing}`
        : `${district}/${f(2) ?? '-'}/${f(3) ?? '-'}/${f(4) ?? '-'}`,
      district_code: district,
      property_id: f(2),
      contract_date: contract,
      settlement_date: settlement,
      price,
      property_type: propertyTypeOf(nature, strata),
      nature_of_property: nature,
      primary_purpose: f(18),
      area: areaOk ? area : null,
      area_unit: areaOk ? unit : null,
      // hectares to square metres, to the 0.1 m2 the published figures carry
      area_m2: areaOk ? (unit === 'ha' ? Math.round(area * 100_000) / 10 : area) : null,
      address: addressOf(f(6), f(7), f(8), f(9), f(10)),
      unit_number: f(6),
      house_number: f(7),
      locality: f(9),
      postcode: f(10),
      zoning: f(16),
      strata_lot_number: strata,
      dealing_number: dealing,
      legal_description: blank(legal.get(fields.slice(1, 5).join(';'))),
    });
  }
  return { sales, refused, records };
}

export type PreparedNswSalesIngest = {
  dataset: string;
  snapshot: string;
  snapshotDate: string;
  files: string[];
  sales: PsiSale[];
  refused: FeatureNote[];
  read: number;
  progress: Progress;
  batchRows: number;
};

export async function prepareNswSalesIngest(options: NswSalesIngestOptions): Promise<PreparedNswSalesIngest> {
  const dataset = checkDataset(options.dataset ?? 'live');
  const texts = salesTexts(options.file);
  if (texts.length === 0) throw new IngestError(`${options.file} holds no .DAT file`);
  const { sales, refused, records } = parsePsi(texts);
  const snapshot = snapshotId(options.snapshot, options.file);
  return {
    dataset,
    snapshot,
    snapshotDate: snapshotDate(snapshot, options.file),
    files: texts.map((t) => t.name),
    sales,
    refused,
    read: records,
    progress: options.progress ?? new Progress(process.stderr),
    batchRows: options.batchRows ?? 1000,
  };
}

/** Writes a prepared run in one transaction. */
export async function loadNswSales(db: Database, run: PreparedNswSalesIngest): Promise<NswSalesIngestResult> {
  const started = performance.now();
  const unmatched: FeatureNote[] = [];
  const withoutAddress: SaleWithoutAddress[] = [];
  const outcome = await db.transaction(async (query) => {
    let loaded = 0;
    let matchedParcel = 0;
    let matchedAddress = 0;
    const task = run.progress.task(`NSW sales ${basename(run.files[0] ?? '')}`);
    for (let at = 0; at < run.sales.length; at += run.batchRows) {
      const batch = run.sales.slice(at, at + run.batchRows).map((sale, seq) => {
        const link = spiOfDescription(sale.legal_description);
        return { seq, ...sale, spi: 'spi' in link ? link.spi : null, why: 'reason' in link ? link.reason : null };
      });
      const rows = await query<{ seq: number; parcel_pfi: string | null; gnaf_pid: string | null }>(
        MARKET.UPSERT_SALES,
        [
          run.dataset,
          NSW_SALES_SOURCE,
          'NSW',
          NSW_SALES_CREDIT.attribution,
          NSW_SALES_CREDIT.license,
          JSON.stringify(batch.map(({ file: _f, line: _l, why: _w, ...row }) => row)),
        ],
      );
      for (const row of rows) {
        const sale = batch[row.seq]!;
        loaded += 1;
        if (row.parcel_pfi) matchedParcel += 1;
        else {
          unmatched.push({
            file: sale.file,
            feature: sale.line,
            key: sale.source_record_id,
            reason: sale.why ?? `no parcel ${sale.spi} in the NSW cadastre of '${run.dataset}'`,
          });
        }
        if (row.gnaf_pid) matchedAddress += 1;
        else withoutAddress.push({ ...sale, parcel_pfi: row.parcel_pfi });
      }
      task.update(loaded);
    }
    task.done(loaded, `${matchedParcel} matched to a parcel`);
    await query(PLANNING.WRITE_DATASET_SOURCE, [
      run.dataset,
      'NSW',
      'market-sales',
      NSW_SALES_CREDIT.attribution,
      NSW_SALES_CREDIT.license,
      run.snapshot,
    ]);
    return { loaded, matchedParcel, matchedAddress };
  });
  // after the load's commit: the matcher reads G-NAF on its own connections (on the embedded
  // database they share one backend, which the open transaction would hold)
  const text = await matchSalesByAddressText(db, run.dataset, withoutAddress);
  if (text.matches.length > 0) {
    await db.transaction((query) =>
      query(MARKET.SET_SALE_ADDRESSES, [run.dataset, NSW_SALES_SOURCE, JSON.stringify(text.matches)]),
    );
  }
  await db.exec(MARKET.ANALYZE_MARKET_TABLES);
  return {
    dataset: run.dataset,
    snapshot: run.snapshot,
    snapshotDate: run.snapshotDate,
    files: run.files,
    read: run.read,
    ...outcome,
    matchedAddress: outcome.matchedAddress + text.matches.length,
    matchedByText: text.matches.length,
    textUnmatched: text.notes,
    unmatched,
    refused: run.refused,
    ms: performance.now() - started,
  };
}

export async function ingestNswSales(db: Database, options: NswSalesIngestOptions): Promise<NswSalesIngestResult> {
  return loadNswSales(db, await prepareNswSalesIngest(options));
}
