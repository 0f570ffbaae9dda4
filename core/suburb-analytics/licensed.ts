/**
 * The licensed_metrics block of the suburb bundle (spec 2.10): vacancy rate, days on market,
 * stock on market, sales volume and buyer demand. No open source publishes these per suburb, so
 * they come from a licensed feed when the operator has one: `LANDGRAPH_LICENSED_METRICS_FEED`
 * names it (core/config.ts). Unset, every metric is `{ value: null, status: 'not_yet_available' }`.
 *
 * A feed is an adapter behind `LicensedMetricsFeed`. The one shipped reads a JSON file the
 * operator points at (`file:/path/to/feed.json`), in the shape `LICENSED_FEED_FILE` describes;
 * a vendor's API would be another implementation of the same interface.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { LicensedMetricsFeedSetting } from '../config.ts';
import type { SuburbCredit, SuburbState } from '../suburb-metrics.ts';
import { suburbKey } from '../suburb-metrics.ts';

export const LICENSED_METRICS = [
  'vacancy_rate',
  'days_on_market',
  'stock_on_market',
  'sales_volume',
  'buyer_demand',
] as const;
export type LicensedMetricName = (typeof LICENSED_METRICS)[number];

/** ok: the feed gave the value; no_data: a feed is on but has nothing for the suburb; not_yet_available: no feed. */
export type LicensedStatus = 'ok' | 'no_data' | 'not_yet_available';
export type LicensedMetric = { value: number | null; status: LicensedStatus };
export type LicensedMetrics = Record<LicensedMetricName, LicensedMetric>;

export type LicensedValues = Partial<Record<LicensedMetricName, number | null>>;

export interface LicensedMetricsFeed {
  /** Names the feed in the bundle (`licensed_metrics.feed`). */
  readonly name: string;
  /** The credit the values carry; joined into the bundle's attribution when any value is used. */
  credit(): Promise<SuburbCredit>;
  /** The values the feed holds for these suburbs of one state, keyed by `suburbKey(name)`. */
  metrics(state: SuburbState, suburbs: readonly string[]): Promise<Map<string, LicensedValues>>;
}

const value = z.number().finite().nullable().optional();

/** The JSON file a `file:` feed reads. */
export const LICENSED_FEED_FILE = z.object({
  source: z.string().min(1),
  attribution: z.string().min(1),
  license: z.string().min(1),
  suburbs: z.array(
    z.object({
      state: z.enum(['VIC', 'NSW', 'QLD']),
      suburb: z.string().min(1),
      vacancy_rate: value,
      days_on_market: value,
      stock_on_market: value,
      sales_volume: value,
      buyer_demand: value,
    }),
  ),
});

/** A feed read from a JSON file (re-read on each rollup, so the operator replaces the file and reruns). */
export class FileLicensedMetricsFeed implements LicensedMetricsFeed {
  readonly name: string;
  constructor(private readonly path: string) {
    this.name = `file:${path}`;
  }

  private async read(): Promise<z.infer<typeof LICENSED_FEED_FILE>> {
    const text = await readFile(this.path, 'utf8');
    const parsed = LICENSED_FEED_FILE.safeParse(JSON.parse(text));
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      throw new Error(`The licensed metrics feed ${this.path} is not in the expected shape: ${problems}`);
    }
    return parsed.data;
  }

  async credit(): Promise<SuburbCredit> {
    const file = await this.read();
    return { source: file.source, attribution: file.attribution, license: file.license };
  }

  async metrics(state: SuburbState, suburbs: readonly string[]): Promise<Map<string, LicensedValues>> {
    const wanted = new Set(suburbs);
    const out = new Map<string, LicensedValues>();
    for (const row of (await this.read()).suburbs) {
      const key = suburbKey(row.suburb);
      if (row.state !== state || !wanted.has(key)) continue;
      const values: LicensedValues = {};
      for (const name of LICENSED_METRICS) values[name] = row[name] ?? null;
      out.set(key, values);
    }
    return out;
  }
}

/** The feed the configuration names, or null for none. */
export function licensedMetricsFeed(setting: LicensedMetricsFeedSetting): LicensedMetricsFeed | null {
  return setting.kind === 'file' ? new FileLicensedMetricsFeed(setting.path) : null;
}

/** The block of one suburb: the feed's values where it has them, else the reason there is none. */
export function licensedBlock(feed: LicensedMetricsFeed | null, values: LicensedValues | undefined): LicensedMetrics {
  const block = {} as LicensedMetrics;
  for (const name of LICENSED_METRICS) {
    if (!feed) block[name] = { value: null, status: 'not_yet_available' };
    else {
      const v = values?.[name];
      block[name] = typeof v === 'number' ? { value: v, status: 'ok' } : { value: null, status: 'no_data' };
    }
  }
  return block;
}
