/**
 * Lot/plan references for GET /api/cadastre/parse-lot: each state's ways of writing one, the
 * state they imply, the canonical SPI, and the 400 for text that is not one.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../core/errors.ts';
import { parseLotReference } from '../subgraphs/cadastre/lot-reference.ts';
import type { LotReference } from '../subgraphs/cadastre/lot-reference.ts';

type Expected = Omit<LotReference, 'input' | 'parish'> & { parish?: string | null };

const ref = (
  lot: string | null,
  section: string | null,
  planType: string,
  planNumber: string,
  state: LotReference['state'],
  spi: string | null,
): Expected => ({ lot, section, plan: `${planType}${planNumber}`, planType, planNumber, state, spi });

describe('parseLotReference', () => {
  it.each<[string, Expected]>([
    // Victoria
    ['Lot 3 PS612345', ref('3', null, 'PS', '612345', 'VIC', '3\\PS612345')],
    ['3\\PS612345', ref('3', null, 'PS', '612345', 'VIC', '3\\PS612345')],
    ['3/PS612345', ref('3', null, 'PS', '612345', 'VIC', '3\\PS612345')],
    ['Lot 3 on PS612345', ref('3', null, 'PS', '612345', 'VIC', '3\\PS612345')],
    ['lot 3 plan of subdivision 612345', ref('3', null, 'PS', '612345', 'VIC', '3\\PS612345')],
    ['Lot A LP 12345', ref('A', null, 'LP', '12345', 'VIC', 'A\\LP12345')],
    ['1\\TP123456', ref('1', null, 'TP', '123456', 'VIC', '1\\TP123456')],
    ['PS612345X', ref(null, null, 'PS', '612345', 'VIC', 'PS612345')],
    ['CP123456', ref(null, null, 'CP', '123456', 'VIC', 'CP123456')],
    ['CA 12 Sec 4 PP3019', ref('12', '4', 'PP', '3019', 'VIC', '12~4\\PP3019')],
    ['12~4\\PP3019', ref('12', '4', 'PP', '3019', 'VIC', '12~4\\PP3019')],
    // New South Wales
    ['Lot 10 DP 123456', ref('10', null, 'DP', '123456', 'NSW', '10//DP123456')],
    ['10//DP123456', ref('10', null, 'DP', '123456', 'NSW', '10//DP123456')],
    ['10/2/DP1234', ref('10', '2', 'DP', '1234', 'NSW', '10/2/DP1234')],
    ['Lot 10 Section 2 DP1234', ref('10', '2', 'DP', '1234', 'NSW', '10/2/DP1234')],
    ['Lot 10 Deposited Plan 123456', ref('10', null, 'DP', '123456', 'NSW', '10//DP123456')],
    ['//SP12345', ref(null, null, 'SP', '12345', 'NSW', '//SP12345')],
    ['5//SP12345', ref('5', null, 'SP', '12345', 'NSW', '5//SP12345')],
    // Queensland
    ['Lot 3 RP123456', ref('3', null, 'RP', '123456', 'QLD', '3RP123456')],
    ['3RP123456', ref('3', null, 'RP', '123456', 'QLD', '3RP123456')],
    ['16/SP210455', ref('16', null, 'SP', '210455', 'QLD', '16SP210455')],
    ['16SP210455', ref('16', null, 'SP', '210455', 'QLD', '16SP210455')],
    ['1BUP123', ref('1', null, 'BUP', '123', 'QLD', '1BUP123')],
    // Strata plans are registered in three states, so the words alone do not say which.
    ['Lot 16 SP210455', ref('16', null, 'SP', '210455', null, '16/SP210455')],
  ])('reads %j', (input, expected) => {
    expect(parseLotReference(input)).toEqual({ parish: null, ...expected, input });
  });

  it('reads Victorian crown land named by its parish, without an SPI until the parish code is known', () => {
    expect(parseLotReference('Crown Allotment 12 Section 4 Parish of Kilmore')).toEqual({
      lot: '12',
      section: '4',
      plan: 'PARISH OF KILMORE',
      planType: 'PARISH',
      planNumber: '',
      state: 'VIC',
      spi: null,
      parish: 'KILMORE',
      input: 'Crown Allotment 12 Section 4 Parish of Kilmore',
    });
  });

  it('writes the SPI of the state given', () => {
    expect(parseLotReference('Lot 16 SP210455', 'qld').spi).toBe('16SP210455');
    expect(parseLotReference('Lot 16 SP210455', 'NSW').spi).toBe('16//SP210455');
    expect(parseLotReference('Lot 16 SP210455', 'VIC').spi).toBe('16\\SP210455');
    expect(parseLotReference('16/SP210455', 'NSW')).toMatchObject({ state: 'NSW', spi: '16//SP210455' });
    expect(parseLotReference('Lot 500 DP 12345', 'WA')).toMatchObject({ state: 'WA', spi: '500/DP12345' });
  });

  it.each([
    ['hello', /'hello' is not a lot\/plan reference/],
    ['', /'' is not a lot\/plan reference/],
    ['72 Dwyer Street', /is not a lot\/plan reference/],
    ['LOT PS612345', /is not a lot\/plan reference/],
    ['Lot 5 XY123', /names plan type XY, which is not one Landgraph reads/],
    ['3\\DP123', /written the VIC way, but DP plans are not registered in VIC/],
    ['Crown Allotment 12', /is not a lot\/plan reference/],
    ['x'.repeat(201), /at most 200 characters/],
  ])('refuses %j with a 400 that shows what a reference looks like', (input, message) => {
    const error = captured(() => parseLotReference(input));
    expect(error.status).toBe(400);
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.message).toMatch(message);
    expect(error.hint).toMatch(/'Lot 3 PS612345' or '3\\PS612345' \(VIC\)/);
  });

  it('refuses a plan type that the given state does not register, and an unknown state', () => {
    const wrongState = captured(() => parseLotReference('Lot 3 PS612345', 'NSW'));
    expect(wrongState.status).toBe(400);
    expect(wrongState.message).toBe("PS plans are not registered in NSW: 'Lot 3 PS612345' cannot be a NSW parcel.");
    expect(captured(() => parseLotReference('Crown Allotment 1 Parish of Kilmore', 'QLD')).message).toMatch(
      /Crown allotments are read for Victoria only/,
    );
    expect(captured(() => parseLotReference('Lot 3 PS612345', 'XX')).message).toBe("Unknown state 'XX'.");
  });
});

function captured(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}
