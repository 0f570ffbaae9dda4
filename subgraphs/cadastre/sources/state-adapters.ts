import type { StateCode } from '../../../core/geo.ts';
import type { Attributes } from '../../../core/sources/attributes.ts';
import { field } from '../../../core/sources/attributes.ts';

/** The identifiers of spec 2.1 a parcel carries, read from a state's own attribute names. */
export type ParcelIdentifiers = {
  parcel_pfi: string | null;
  parcel_spi: string | null;
  parcel_lot_number: string | null;
  parcel_plan_number: string | null;
  ezi_address: string | null;
};

/**
 * What Landgraph knows about one state's live cadastre layer: its attribute names, the field
 * a parcel is fetched by, and the credit its licence requires on every answer.
 */
export type StateAdapter = {
  state: StateCode;
  /** The published dataset, for messages and docs. */
  name: string;
  attribution: string;
  license: string;
  /** The attribute our parcel_pfi comes from, used in `where` clauses. */
  idField: string;
  /** Whether idField is numeric upstream (compared unquoted; a non-numeric pfi cannot match). */
  idIsNumber: boolean;
  identify(attributes: Attributes): ParcelIdentifiers;
};

/** Vicmap Property parcels (PARCEL_PFI, PARCEL_SPI, ...; older services drop the PARCEL_ prefix). */
const VIC: StateAdapter = {
  state: 'VIC',
  name: 'Vicmap Property',
  attribution: '© State of Victoria (Department of Transport and Planning)',
  license: 'CC BY 4.0',
  idField: 'PARCEL_PFI',
  idIsNumber: false,
  identify: (a) => ({
    parcel_pfi: field(a, 'PARCEL_PFI', 'PFI'),
    parcel_spi: field(a, 'PARCEL_SPI', 'SPI'),
    parcel_lot_number: field(a, 'PARCEL_LOT_NUMBER', 'LOT_NUMBER'),
    parcel_plan_number: field(a, 'PARCEL_PLAN_NUMBER', 'PLAN_NUMBER'),
    ezi_address: field(a, 'EZI_ADDRESS', 'EZI_ADD'),
  }),
};

/**
 * NSW Digital Cadastral Database lots: `cadid` is the feature identifier; `planlabel` is the
 * plan with its type (DP123456); `lotidstring` is lot/section/plan (1//DP123456).
 */
const NSW: StateAdapter = {
  state: 'NSW',
  name: 'NSW Digital Cadastral Database',
  attribution: '© Spatial Services NSW',
  license: 'CC BY 4.0',
  idField: 'cadid',
  idIsNumber: true,
  identify: (a) => {
    const lot = field(a, 'lotnumber');
    const section = field(a, 'sectionnumber');
    const plan = field(a, 'planlabel') ?? field(a, 'plannumber');
    return {
      parcel_pfi: field(a, 'cadid'),
      parcel_spi: field(a, 'lotidstring') ?? (lot && plan ? `${lot}/${section ?? ''}/${plan}` : null),
      parcel_lot_number: lot,
      parcel_plan_number: plan,
      ezi_address: null,
    };
  },
};

/** Queensland DCDB: no feature identifier of its own, so lot-on-plan (`lotplan`, 3RP12345) serves. */
const QLD: StateAdapter = {
  state: 'QLD',
  name: 'Queensland Digital Cadastral Database',
  attribution: '© State of Queensland (Department of Resources)',
  license: 'CC BY 4.0',
  idField: 'lotplan',
  idIsNumber: false,
  identify: (a) => {
    const lot = field(a, 'lot');
    const plan = field(a, 'plan');
    const lotplan = field(a, 'lotplan') ?? (lot && plan ? `${lot}${plan}` : null);
    return {
      parcel_pfi: lotplan,
      parcel_spi: lotplan,
      parcel_lot_number: lot,
      parcel_plan_number: plan,
      ezi_address: null,
    };
  },
};

/** The states with a live adapter; LANDGRAPH_CADASTRE_LIVE may name only these. */
export const STATE_ADAPTERS: Partial<Record<StateCode, StateAdapter>> = { VIC, NSW, QLD };
