import { Decimal } from '@mustard/shared';
import { describe, expect, it } from 'vitest';
import { advanceLeft, allocationsToSend, autoAllocate, settles, typed } from './allocation.js';

const invoices = [
  { id: 'a', balance: '10000' },
  { id: 'b', balance: '5000' },
  { id: 'c', balance: '2500.5' },
];

describe('the receipt form allocation grid', () => {
  it('settles the oldest invoices first, each at most its balance, and leaves the rest as an advance', () => {
    expect(autoAllocate(invoices, new Decimal('12000'))).toEqual({ a: '10000', b: '2000' });
    expect(autoAllocate(invoices, new Decimal('20000'))).toEqual({ a: '10000', b: '5000', c: '2500.5' });
    expect(advanceLeft('19000', '1000', autoAllocate(invoices, settles('19000', '1000')))).toEqual(new Decimal('2499.5'));
    expect(autoAllocate(invoices, new Decimal('0'))).toEqual({});
    expect(autoAllocate(invoices, new Decimal('-5'))).toEqual({});
  });

  it('adds exactly, reads typed amounts with commas, and sends only amounts above 0', () => {
    expect(settles('0.1', '0.2').toFixed()).toBe('0.3');
    expect(typed('12,500')?.toFixed()).toBe('12500');
    expect(typed('')).toBeNull();
    expect(typed('abc')).toBeNull();
    expect(allocationsToSend(invoices, { a: '1,000', b: '0', c: 'x' })).toEqual([{ invoice_id: 'a', amount: '1000' }]);
    expect(advanceLeft('100', '', { a: '150' }).toFixed()).toBe('-50');
  });
});
