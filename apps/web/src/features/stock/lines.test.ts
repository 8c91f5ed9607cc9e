import { describe, expect, it } from 'vitest';
import { addScanned, grandTotal, lineTotal } from './lines.js';

const soap = { id: 'p1', code: 'SOAP', name: 'Soap', unit: 'pcs', avg_cost: '1500' };
const salt = { id: 'p2', code: 'SALT', name: 'Salt', unit: 'kg', avg_cost: '0' };

describe('stock line entry', () => {
  it('adds a line on the first scan and 1 to it on each rescan, keeping the order', () => {
    let lines = addScanned([], soap);
    lines = addScanned(lines, salt);
    lines = addScanned(lines, soap);
    expect(lines.map((line) => [line.code, line.quantity])).toEqual([
      ['SOAP', '2'],
      ['SALT', '1'],
    ]);
    // A quantity typed as 2.5 then scanned again is 3.5; a typed cost is kept.
    lines = addScanned([{ ...lines[0]!, quantity: '2.5', unit_cost: '99' }], soap);
    expect(lines[0]).toMatchObject({ quantity: '3.5', unit_cost: '99' });
  });

  it('totals exactly, with thousands commas typed, and skips lines not yet numbers', () => {
    expect(lineTotal({ quantity: '0.1', unit_cost: '0.2' })?.toString()).toBe('0.02');
    expect(lineTotal({ quantity: '3', unit_cost: '1,000.5' })?.toString()).toBe('3001.5');
    expect(lineTotal({ quantity: 'x', unit_cost: '1' })).toBeNull();
    const total = grandTotal([
      { quantity: '0.1', unit_cost: '0.1' },
      { quantity: '0.2', unit_cost: '0.1' },
      { quantity: '', unit_cost: '5' },
    ]);
    expect(total.toString()).toBe('0.03');
  });
});
