import { BUSINESS_MESSAGES, exactText } from '@mustard/shared';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BANKS, DEFAULT_CURRENCIES, DEFAULT_TAXES } from '../../seed/business-defaults.js';
import { tooPrecise } from './catalogue.service.js';
import { COUNTRIES, countryList, letterOf } from './countries.js';

/* The catalogue's pure parts: amounts against a currency's decimals, the countries, the defaults' data. */

describe('tooPrecise', () => {
  it('names each amount with more decimals than the currency has, trailing zeros aside', () => {
    expect(tooPrecise({ price: '12500', cost: '12500.000' }, 0)).toEqual({});
    expect(tooPrecise({ price: '500.5', cost: '0' }, 0)).toEqual({ price: [BUSINESS_MESSAGES.amountTooPrecise] });
    expect(tooPrecise({ price: '0.30', cost: '0.125' }, 2)).toEqual({ cost: [BUSINESS_MESSAGES.amountTooPrecise] });
    expect(tooPrecise({ price: undefined, cost: null }, 0)).toEqual({});
  });
});

describe('exactText', () => {
  it('reads and writes the database’s numeric text without trailing zeros, exactly', () => {
    expect(exactText.parse('12500.0000')).toBe('12500');
    expect(exactText.parse('0.3000')).toBe('0.3');
    expect(exactText.parse('123456789012345.6789')).toBe('123456789012345.6789');
  });
});

describe('countries', () => {
  it('files names by their first letter without accents, in English order', () => {
    expect(letterOf('Åland Islands')).toBe('A');
    expect(letterOf('Côte d’Ivoire')).toBe('C');
    expect(countryList({ UG: { name: 'Uganda' }, AX: { name: 'Åland Islands' }, KE: { name: 'Kenya' } })).toEqual([
      { code: 'AX', group: 'A', name: 'Åland Islands' },
      { code: 'KE', group: 'K', name: 'Kenya' },
      { code: 'UG', group: 'U', name: 'Uganda' },
    ]);
  });

  it('lists about two hundred countries, Uganda among them, each code once', () => {
    expect(COUNTRIES.length).toBeGreaterThanOrEqual(195);
    expect(COUNTRIES).toContainEqual({ code: 'UG', group: 'U', name: 'Uganda' });
    expect(new Set(COUNTRIES.map((country) => country.code)).size).toBe(COUNTRIES.length);
  });
});

describe('the business defaults’ data', () => {
  it('starts from UGX without a minor unit, the four VAT codes, and valid SWIFT codes', () => {
    expect(DEFAULT_CURRENCIES[0]).toEqual(['UGX', 'Uganda Shilling', 'USh', 0, '1']);
    expect(new Set(DEFAULT_CURRENCIES.map(([code]) => code)).size).toBe(DEFAULT_CURRENCIES.length);
    expect(DEFAULT_TAXES.map((tax) => tax.kind)).toEqual(['standard', 'zero', 'exempt', 'deemed']);
    for (const bank of DEFAULT_BANKS) if (bank.swift) expect(bank.swift, bank.name).toMatch(/^[A-Z]{4}UG[A-Z0-9]{2}$/);
    expect(new Set(DEFAULT_BANKS.map((bank) => bank.name)).size).toBe(DEFAULT_BANKS.length);
  });
});
