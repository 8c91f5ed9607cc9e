import { describe, expect, it } from 'vitest';
import { type PrintDocument, SIMULATED_MARK, THERMAL_WIDTHS, thermalLines, wrapText } from './print.js';

/* The 80 mm and 58 mm thermal layouts (issue 32: unit tests of the layouts): what they show and that no line outgrows the paper. */

const counterSale: PrintDocument = {
  business: {
    name: 'Mustard Stationers',
    address: 'Plot 12, Kampala Road, Kampala',
    phone: '+256 700 123456',
    tin: '1000123456',
    has_logo: false,
    vat_registered: true,
  },
  kind: 'cash_sale',
  number: 'INV-000042',
  date: '2026-11-27',
  due_on: '2026-11-27',
  currency_code: 'UGX',
  decimals: 0,
  customer: { name: 'Walk-in customer', tin: null, phone: null, address: null },
  reference_number: null,
  reason: null,
  lines: [
    {
      description: 'Exercise book 96 pages A4 ruled, hard cover (pack of 10)',
      quantity: '2',
      unit: 'pack',
      unit_price: '5900',
      discount: '0',
      gross: '11800',
      tax: '1800',
      net: '10000',
      tax_code: 'V18',
      tax_rate: '18',
    },
    {
      description: 'Bible',
      quantity: '10',
      unit: 'pcs',
      unit_price: '1200',
      discount: '500',
      gross: '11500',
      tax: '0',
      net: '11500',
      tax_code: 'EX',
      tax_rate: '0',
    },
    {
      description: 'Printing A4 colour',
      quantity: '0.5',
      unit: 'page',
      unit_price: '1234567',
      discount: '0',
      gross: '617284',
      tax: '94162',
      net: '523122',
      tax_code: 'V18',
      tax_rate: '18',
    },
  ],
  totals: {
    discount_total: '500',
    net_total: '544622',
    tax_total: '95962',
    gross_total: '640584',
    by_tax: [
      { tax_code: 'EX', tax_kind: 'exempt', tax_rate: '0', gross: '11500', tax: '0', net: '11500' },
      { tax_code: 'V18', tax_kind: 'standard', tax_rate: '18', gross: '629084', tax: '95962', net: '533122' },
    ],
  },
  paid: '640584',
  balance: '0',
  payment: { method: 'mtn_momo', reference: 'MP261127.1412.A81234', amount: '640584', wht_amount: '0', wht_certificate: null },
  allocations: [],
  advance: null,
  fiscal: { fdn: '325012345678', verification_code: '8213-4471-0093-2214-7765', qr_text: 'https://efris.ura.go.ug/x', simulated: true },
  notes: null,
  served_by: 'Grace Nakato',
};

const receipt: PrintDocument = {
  ...counterSale,
  kind: 'receipt',
  number: 'RCT-000007',
  customer: { name: 'Kampala Parents School', tin: '1000987654', phone: null, address: null },
  lines: [],
  totals: null,
  paid: null,
  balance: null,
  payment: { method: 'bank', reference: 'CHQ 004512', amount: '1120000', wht_amount: '60000', wht_certificate: 'WHT-2026-0091' },
  allocations: [
    { invoice_number: 'INV-000040', amount: '1000000' },
    { invoice_number: 'INV-000041', amount: '150000' },
  ],
  advance: '30000',
  fiscal: null,
};

describe('thermal receipts', () => {
  for (const size of Object.values(THERMAL_WIDTHS)) {
    it(`never print a line longer than ${size} characters`, () => {
      const long = 'Extraordinarily-long-product-name-without-any-spaces-at-all-for-the-printer';
      const wide: PrintDocument = {
        ...counterSale,
        business: { ...counterSale.business, name: long, address: `${long} ${long}` },
        customer: { name: long, tin: '1000123456', phone: null, address: null },
        lines: counterSale.lines.map((line) => ({ ...line, description: long, gross: '123456789012345' })),
        totals: counterSale.totals && {
          ...counterSale.totals,
          by_tax: counterSale.totals.by_tax.map((row) => ({ ...row, tax_code: long, gross: '123456789012345', net: '123456789012345' })),
        },
        notes: `Notes\nwith a line break and ${long}`,
      };
      for (const doc of [counterSale, receipt, wide]) {
        const lines = thermalLines(doc, size);
        expect(lines.length).toBeGreaterThan(10);
        for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(size);
        // No control character (a tab, a NUL, a line break inside a line) reaches the printer.
        expect(lines.flatMap((line) => [...line]).filter((char) => char.charCodeAt(0) < 32)).toEqual([]);
      }
    });
  }

  it('lays out an 80 mm counter sale: centred header, wrapped names, right-aligned amounts, totals, VAT, payment, fiscal', () => {
    const lines = thermalLines(counterSale, 48);
    const text = lines.join('\n');
    // The SIMULATED mark opens and closes the receipt.
    expect(lines[0]?.trim()).toBe(SIMULATED_MARK);
    expect(lines.at(-1)?.trim()).toBe(SIMULATED_MARK);
    // Centred: as many spaces on the left as are left over, halved.
    const name = lines.find((line) => line.includes('MUSTARD STATIONERS'));
    expect(name).toBe(`${' '.repeat(15)}MUSTARD STATIONERS`);
    expect(text).toContain('TIN: 1000123456');
    expect(text).toContain('CASH SALE - TAX INVOICE');
    expect(lines).toContain(`No:${' '.repeat(35)}INV-000042`);
    // A long name wraps at a space; its quantity line carries the amount at the right edge.
    expect(lines).toContain('Exercise book 96 pages A4 ruled, hard cover');
    expect(lines).toContain('(pack of 10)');
    expect(lines).toContain(`  2 x 5,900${' '.repeat(27)}11,800 V18`);
    expect(lines).toContain(`  0.5 x 1,234,567${' '.repeat(20)}617,284 V18`);
    expect(lines).toContain(`  Discount${' '.repeat(34)}-500`);
    expect(lines).toContain(`TOTAL UGX${' '.repeat(32)}640,584`);
    expect(lines).toContain(`VAT${' '.repeat(39)}95,962`);
    expect(lines).toContain(`Balance${' '.repeat(40)}0`);
    // The VAT summary in columns: code, net, VAT, gross.
    expect(lines).toContain(`Code${' '.repeat(8)}${'Net'.padStart(12)}${'VAT'.padStart(12)}${'Gross'.padStart(12)}`);
    expect(lines).toContain(`${'V18 18%'.padEnd(12)}${'533,122'.padStart(12)}${'95,962'.padStart(12)}${'629,084'.padStart(12)}`);
    expect(lines).toContain(`${'EX exempt'.padEnd(12)}${'11,500'.padStart(12)}${'0'.padStart(12)}${'11,500'.padStart(12)}`);
    expect(text).toContain('Paid by: MTN Mobile Money');
    expect(text).toContain('Ref: MP261127.1412.A81234');
    expect(text).toContain('FDN: 325012345678');
    expect(text).toContain('Verification code: 8213-4471-0093-2214-7765');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(48);
  });

  it('lays out a 58 mm receipt with allocations, withholding and an advance', () => {
    const lines = thermalLines(receipt, 32);
    const text = lines.join('\n');
    expect(text).toContain('RECEIPT');
    expect(lines).toContain(`No:${' '.repeat(19)}RCT-000007`);
    expect(text).toContain('Received from: Kampala Parents');
    expect(text).toContain('Buyer TIN: 1000987654');
    expect(lines).toContain(`RECEIVED UGX${' '.repeat(11)}1,120,000`);
    expect(lines).toContain(`Tax withheld${' '.repeat(14)}60,000`);
    expect(text).toContain('WHT certificate: WHT-2026-0091');
    expect(lines).toContain(`  INV-000040${' '.repeat(11)}1,000,000`);
    expect(lines).toContain(`Kept as advance${' '.repeat(11)}30,000`);
    expect(text).not.toContain('SIMULATED');
    expect(text).not.toContain('FDN');
  });

  it('wraps the SIMULATED mark on 58 mm and keeps the VAT summary in rows', () => {
    const lines = thermalLines(counterSale, 32);
    expect(lines.slice(0, 2).map((line) => line.trim())).toEqual(['SIMULATED - NOT A VALID TAX', 'INVOICE']);
    expect(lines).toContain(`V18 18%${' '.repeat(18)}629,084`);
    expect(lines).toContain(`  VAT${' '.repeat(21)}95,962`);
    expect(lines).toContain('Exercise book 96 pages A4 ruled,');
  });

  it('prints a draft as DRAFT and a business without VAT without VAT lines', () => {
    const lines = thermalLines(
      {
        ...counterSale,
        kind: 'invoice',
        number: null,
        fiscal: null,
        business: { ...counterSale.business, vat_registered: false },
      },
      48,
    );
    const text = lines.join('\n');
    expect(lines).toContain(`No:${' '.repeat(40)}DRAFT`);
    expect(text).toContain('INVOICE');
    expect(text).not.toContain('TAX INVOICE');
    expect(text).not.toContain('VAT');
  });
});

describe('wrapping', () => {
  it('breaks at spaces, cuts a word longer than the line and keeps an indent', () => {
    expect(wrapText('one two three', 7)).toEqual(['one two', 'three']);
    expect(wrapText('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrapText('  indented words here', 10)).toEqual(['  indented', '  words', '  here']);
    expect(wrapText('tab\there\u0000nul', 20)).toEqual(['tab here nul']);
    expect(wrapText('', 10)).toEqual([]);
  });
});
