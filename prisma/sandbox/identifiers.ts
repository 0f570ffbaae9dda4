/**
 * Identifiers in each state's published formats. Every series is a counter that moves forward
 * by a small random step, so numbers look sparse like real registers but can never repeat.
 * Steps are sized so the largest supported dataset stays inside each series' digit width; a
 * series that would overflow throws instead of wrapping into duplicates.
 */
import type { PlanKind, SandboxState } from './suburbs.ts';
import { Rng } from './random.ts';

class Series {
  private value: number;

  constructor(
    private readonly rng: Rng,
    private readonly label: string,
    start: number,
    private readonly maxStep: number,
    private readonly limit: number,
  ) {
    this.value = start + rng.int(0, 999);
  }

  next(): number {
    this.value += this.rng.int(1, this.maxStep);
    if (this.value >= this.limit) throw new Error(`Sandbox ${this.label} numbers exhausted: use fewer parcels`);
    return this.value;
  }
}

// Registered plan numbers as each state's titles office writes them.
const PLAN_SERIES: Record<PlanKind, { prefix: string; start: number; step: number; limit: number }> = {
  PS: { prefix: 'PS', start: 600_000, step: 5, limit: 1_000_000 },
  LP: { prefix: 'LP', start: 10_000, step: 5, limit: 1_000_000 },
  DP: { prefix: 'DP', start: 1_000_000, step: 40, limit: 10_000_000 },
  DP_OLD: { prefix: 'DP', start: 200_000, step: 20, limit: 1_000_000 },
  SP_STRATA: { prefix: 'SP', start: 20_000, step: 3, limit: 1_000_000 },
  RP: { prefix: 'RP', start: 100_000, step: 20, limit: 1_000_000 },
  SP: { prefix: 'SP', start: 300_000, step: 10, limit: 1_000_000 },
};

const PFI_PREFIX: Record<SandboxState, string> = { VIC: '52', NSW: '10', QLD: '31' };
const PFI_SERIES_START = 1_000_000;
// G-NAF address_detail_pid prefixes; the digits after them fill the rest of the pid.
const GNAF_PREFIX: Record<SandboxState, { prefix: string; digits: number }> = {
  VIC: { prefix: 'GAVIC4', digits: 8 },
  NSW: { prefix: 'GANSW7', digits: 8 },
  QLD: { prefix: 'GAQLD16', digits: 7 },
};

export class IdMint {
  private readonly pfi: Series;
  private readonly gnaf: Series;
  private readonly streets: Series;
  private readonly localities: Series;
  private readonly plans = new Map<PlanKind, Series>();
  private readonly rng: Rng;

  constructor(
    private readonly state: SandboxState,
    seed: number,
  ) {
    this.rng = Rng.for(seed, state, 'ids');
    this.pfi = new Series(this.rng, `${state} parcel PFI`, PFI_SERIES_START, 5, 10_000_000);
    const { digits } = GNAF_PREFIX[state];
    this.gnaf = new Series(this.rng, `${state} G-NAF`, 10 ** (digits - 1), 3, 10 ** digits);
    this.streets = new Series(this.rng, `${state} street locality`, 1_000_000, 9, 10_000_000);
    this.localities = new Series(this.rng, `${state} locality`, 1_000, 150, 10_000);
  }

  /** A parcel PFI's place in its state's series: unique within the state, as the PFI is. */
  static pfiSerial(state: SandboxState, pfi: string): number {
    return Number(pfi.slice(PFI_PREFIX[state].length)) - PFI_SERIES_START;
  }

  parcelPfi(): string {
    return `${PFI_PREFIX[this.state]}${this.pfi.next()}`;
  }

  gnafPid(): string {
    return `${GNAF_PREFIX[this.state].prefix}${this.gnaf.next()}`;
  }

  streetLocalityPid(): string {
    return `${this.state}${this.streets.next()}`;
  }

  localityPid(): string {
    return `${this.state}${this.localities.next()}`;
  }

  plan(kind: PlanKind): string {
    const format = PLAN_SERIES[kind];
    let series = this.plans.get(kind);
    if (!series) {
      series = new Series(this.rng, `${this.state} ${format.prefix} plan`, format.start, format.step, format.limit);
      this.plans.set(kind, series);
    }
    return `${format.prefix}${series.next()}`;
  }
}

/** The state's single-parcel identifier: lot and plan joined the way its cadastre joins them. */
export function parcelSpi(state: SandboxState, lot: string, plan: string): string {
  if (state === 'VIC') return `${lot}\\${plan}`;
  if (state === 'NSW') return `${lot}//${plan}`;
  return `${lot}${plan}`;
}
