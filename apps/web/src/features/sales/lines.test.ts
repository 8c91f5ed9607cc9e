import { Decimal } from '@mustard/shared';
import { describe, expect, it } from 'vitest';
import { addSold, changeDue, lineAmount, linesToSend, saleTotal } from './lines.js';

const pen = { id: 'p1', code: 'PEN', name: 'Pen', unit: 'piece', price: '1500.0000' };
const book = { id: 'p2', code: 'BK', name: 'Book', unit: 'piece', price: '500' };

describe('the sale line entry', () => {
  it('adds a scanned product once and counts it up on the next scan', () => {
    const once = addSold([], pen);
    expect(once).toEqual([{ product_id: 'p1', code: 'PEN', name: 'Pen', unit: 'piece', quantity: '1', unit_price: '1500', discount: '' }]);
    const twice = addSold(addSold(once, book), pen);
    expect(twice.map((line) => [line.code, line.quantity])).toEqual([
      ['PEN', '2'],
      ['BK', '1'],
    ]);
  });

  it('sums exact amounts with discounts, rounded to the currency, and gives the change', () => {
    const lines = [
      { quantity: '3', unit_price: '1,180', discount: '40' },
      { quantity: '0.5', unit_price: '0.15', discount: '' },
      { quantity: 'x', unit_price: '1', discount: '' },
    ];
    expect(lineAmount(lines[0] as never, 0)?.toFixed()).toBe('3500');
    expect(lineAmount(lines[1] as never, 2)?.toFixed()).toBe('0.08');
    expect(lineAmount(lines[2] as never, 0)).toBeNull();
    expect(saleTotal(lines, 2).toFixed()).toBe('3500.08');
    expect(changeDue('5,000', new Decimal(3500))?.toFixed()).toBe('1500');
    expect(changeDue('3000', new Decimal(3500))).toBeNull();
    expect(changeDue('', new Decimal(3500))).toBeNull();
  });

  it('sends plain decimal text and leaves a blank discount out', () => {
    expect(linesToSend([{ ...addSold([], pen)[0]!, quantity: ' 2 ', discount: '1,000' }, addSold([], book)[0]!])).toEqual([
      { product_id: 'p1', quantity: '2', unit_price: '1500', discount: '1000' },
      { product_id: 'p2', quantity: '1', unit_price: '500' },
    ]);
  });
});
