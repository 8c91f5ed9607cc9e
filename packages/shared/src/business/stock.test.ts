import { describe, expect, it } from 'vitest';
import { Decimal } from './money.js';
import {
  adjustStockIn,
  averageStockCost,
  emptyStockValuation,
  foldStockValuation,
  inboundStockCost,
  issueStock,
  receiveStock,
  type StockValuation,
  stockOnHand,
} from './stock.js';

/* The stock ledger's arithmetic against answers worked by hand (issue 31: unit tests of on hand and moving average). */

const of = (quantity: string, value: string): StockValuation => ({ quantity: new Decimal(quantity), value: new Decimal(value) });
const shown = (valuation: StockValuation) => ({ quantity: valuation.quantity.toFixed(), value: valuation.value.toFixed() });

describe('stock on hand', () => {
  it('is the sum of the signed movements, exact', () => {
    expect(stockOnHand([]).toFixed()).toBe('0');
    expect(stockOnHand(['10', '-4', '2.5', '-0.125', 3]).toFixed()).toBe('11.375');
    // 0.1 + 0.2 as floats is 0.30000000000000004; exact here.
    expect(stockOnHand(['0.1', '0.2', '-0.3']).toFixed()).toBe('0');
  });
});

describe('the moving average', () => {
  it('follows a month of receipts, issues and an adjustment as worked by hand', () => {
    let v = receiveStock(emptyStockValuation(), '10', '1000');
    expect(shown(v)).toEqual({ quantity: '10', value: '10000' });
    v = receiveStock(v, '5', '1300'); // 10000 + 6500 = 16500 for 15: 1100 each
    expect(shown(v)).toEqual({ quantity: '15', value: '16500' });
    expect(averageStockCost(v).toFixed()).toBe('1100');
    const first = issueStock(v, '4'); // 4 × 1100
    expect(first.taken.toFixed()).toBe('4400');
    v = first.valuation;
    expect(shown(v)).toEqual({ quantity: '11', value: '12100' });
    v = receiveStock(v, '3', '1000.5'); // 12100 + 3001.5
    expect(shown(v)).toEqual({ quantity: '14', value: '15101.5' });
    expect(averageStockCost(v).toFixed()).toBe('1078.6786'); // 1078.678571… to 4 decimals
    const half = issueStock(v, '7'); // half the units take half the value: 7550.75
    expect(half.taken.toFixed()).toBe('7550.75');
    v = half.valuation;
    expect(inboundStockCost(v).toFixed()).toBe('1078.6786');
    v = adjustStockIn(v, '2'); // found 2: at the average as recorded, 2 × 1078.6786 = 2157.3572
    expect(shown(v)).toEqual({ quantity: '9', value: '9708.1072' });
    const last = issueStock(v, '9'); // the last units take all the value left
    expect(last.taken.toFixed()).toBe('9708.1072');
    expect(shown(last.valuation)).toEqual({ quantity: '0', value: '0' });
  });

  it('never drifts: thirds of 1000 go out as 333.3333, 333.3334 and 333.3333', () => {
    let v = receiveStock(receiveStock(emptyStockValuation(), '2', '500'), '1', '0');
    expect(shown(v)).toEqual({ quantity: '3', value: '1000' });
    const taken: string[] = [];
    for (let i = 0; i < 3; i++) {
      const out = issueStock(v, '1');
      taken.push(out.taken.toFixed());
      v = out.valuation;
    }
    // 1000/3 = 333.33333… → 333.3333; 666.6667/2 = 333.33335 → 333.3334 (half up); the rest 333.3333.
    expect(taken).toEqual(['333.3333', '333.3334', '333.3333']);
    expect(shown(v)).toEqual({ quantity: '0', value: '0' });
  });

  it('takes fractions of a unit exactly', () => {
    const v = receiveStock(emptyStockValuation(), '2.5', '3000'); // 2.5 kg at 3000
    const out = issueStock(v, '0.125'); // 0.125 × 3000 = 375
    expect(out.taken.toFixed()).toBe('375');
    expect(shown(out.valuation)).toEqual({ quantity: '2.375', value: '7125' });
  });

  it('brings goods found on an empty shelf in at the product’s cost, and with none at 0', () => {
    expect(shown(adjustStockIn(emptyStockValuation(), '4', '250'))).toEqual({ quantity: '4', value: '1000' });
    expect(shown(adjustStockIn(emptyStockValuation(), '4'))).toEqual({ quantity: '4', value: '0' });
  });

  it('below zero (where the business allows it): the owed units carry no value, a receipt values what is left', () => {
    const out = issueStock(of('2', '100'), '5');
    expect(out.taken.toFixed()).toBe('100');
    expect(shown(out.valuation)).toEqual({ quantity: '-3', value: '0' });
    expect(issueStock(out.valuation, '1').taken.toFixed()).toBe('0');
    expect(averageStockCost(out.valuation).toFixed()).toBe('0');
    expect(shown(receiveStock(out.valuation, '5', '30'))).toEqual({ quantity: '2', value: '60' });
    expect(shown(receiveStock(out.valuation, '2', '30'))).toEqual({ quantity: '-1', value: '0' });
  });

  it('folds a ledger to the same figures, transfers changing nothing', () => {
    const folded = foldStockValuation([
      { kind: 'in', quantity: '10', unitCost: '1000' },
      { kind: 'in', quantity: '5', unitCost: '1300' },
      { kind: 'transfer', quantity: '6' },
      { kind: 'out', quantity: '4' },
      { kind: 'in', quantity: '3', unitCost: '1000.5' },
      { kind: 'out', quantity: '7' },
      { kind: 'in', quantity: '2' },
    ]);
    expect(shown(folded)).toEqual({ quantity: '9', value: '9708.1072' });
  });
});
