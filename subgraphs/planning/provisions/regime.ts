import type { Provisions, ProvisionsInput } from './types.ts';
import type { ZoneInfo } from './zone.ts';

/** A regime's provisions before overlays are read and the fallback flag is totalled. */
export type Draft = Omit<Provisions, 'conservative_fallback' | 'overlays'>;

/** A regime either answers for the lot or says why it cannot (and the conservative default answers). */
export type RegimeResult = { draft: Draft } | { unsupported: string };

export type RegimeContext = {
  input: ProvisionsInput;
  state: string;
  zone: ZoneInfo | null;
  /** The wall height the reported setbacks are for. */
  wallHeightM: number;
};
