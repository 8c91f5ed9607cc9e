import { z } from 'zod';
import { BANK_KINDS, BUYER_TYPES, PARTNER_ROLES, PRODUCT_KINDS, TAX_KINDS, WHDUTY_KINDS } from '../business/constants.js';
import { BUSINESS_MESSAGES as M } from '../business/messages.js';
import { amountText, Decimal, decimalText, rateText } from '../business/money.js';
import { optionalId } from '../endpoints/fields.js';
import { IN_USE_MESSAGES, SETTINGS_MESSAGES } from '../messages.js';
import { optionalText, requiredText, text } from '../schemas/common.js';
import { defineResource } from './definition.js';
import { id, named, none } from './fields.js';

/*
 * The business side's lists (issue 31; guide business.md "What each name means"), each one
 * resource on the list mechanism: products and their groups, partners (companies), and the
 * reference data a business keeps as data (currencies, taxes, withholding duties, banks).
 * Money and quantities travel as exact decimal text ("12500", "0.5"), never floats.
 */

/**
 * Decimal text as the database answers it ("12500.0000"), shown without trailing zeros ("12500").
 * A codec, not a transform: the server's answers are serialised by encoding with the response
 * schema (fastify-type-provider-zod), which a one-way transform refuses (a 500 on every list).
 */
const withoutTrailingZeros = (value: string) => new Decimal(value).toFixed();
export const exactText = z.codec(z.string(), z.string(), { decode: withoutTrailingZeros, encode: withoutTrailingZeros });
const activeFilter = z.enum(['true', 'false']).optional();
const yesNo = (fallback: boolean) => z.boolean().default(fallback);
const shortText = (max: number) =>
  optionalText.refine((value) => value === null || value.length <= max, { error: SETTINGS_MESSAGES.nameTooLong });
/** A quantity of 0 or more (a reorder level); whether fractions are allowed is the product's unit's. */
const levelText = decimalText(M.quantityInvalid).refine((value) => !value.startsWith('-') && new Decimal(value).decimalPlaces() <= 3, {
  error: M.quantityInvalid,
});

export const currencies = defineResource({
  name: 'currencies',
  path: '/api/currencies',
  listKey: 'currencies',
  record: z.object({
    id,
    code: z.string(),
    name: z.string(),
    symbol: z.string().nullable(),
    decimals: z.number(),
    rate: exactText,
    is_default: z.boolean(),
  }),
  input: z.strictObject({
    code: text(M.currencyCodeInvalid)
      .trim()
      .transform((value) => value.toUpperCase())
      .pipe(z.string().regex(/^[A-Z]{3}$/, { error: M.currencyCodeInvalid })),
    name: requiredText(SETTINGS_MESSAGES.nameRequired).max(80),
    symbol: shortText(8),
    decimals: z.coerce.number({ error: M.decimalsInvalid }).int(M.decimalsInvalid).min(0, M.decimalsInvalid).max(4, M.decimalsInvalid),
    rate: decimalText(M.amountInvalid).refine((value) => new Decimal(value).gt(0), { error: M.amountInvalid }),
    is_default: yesNo(false),
  }),
  filters: none,
  searchFields: ['code', 'name'],
  sort: [
    ['is_default', 'desc'],
    ['code', 'asc'],
  ],
  pageSize: 25,
  subject: 'business-setting',
  inUse: IN_USE_MESSAGES.currencies,
  exportColumns: [
    ['code', 'Code'],
    ['name', 'Name'],
    ['symbol', 'Symbol'],
    ['decimals', 'Decimals'],
    ['rate', 'Rate'],
    ['is_default', 'Default'],
  ],
});

export const taxes = defineResource({
  name: 'taxes',
  path: '/api/taxes',
  listKey: 'taxes',
  record: z.object({
    id,
    code: z.string(),
    name: z.string(),
    kind: z.enum(TAX_KINDS),
    rate: exactText,
    inclusive: z.boolean(),
    active: z.boolean(),
  }),
  input: z.strictObject({
    code: requiredText(M.codeRequired).max(20),
    name: requiredText(SETTINGS_MESSAGES.nameRequired).max(80),
    kind: z.enum(TAX_KINDS, { error: SETTINGS_MESSAGES.categoryRequired }),
    rate: rateText,
    inclusive: yesNo(true),
    active: yesNo(true),
  }),
  filters: z.object({ active: activeFilter }),
  searchFields: ['code', 'name'],
  sort: [['code', 'asc']],
  pageSize: 25,
  subject: 'business-setting',
  inUse: IN_USE_MESSAGES.taxes,
  exportColumns: [
    ['code', 'Code'],
    ['name', 'Name'],
    ['kind', 'Kind'],
    ['rate', 'Rate %'],
    ['inclusive', 'Inclusive'],
    ['active', 'Active'],
  ],
});

export const whduties = defineResource({
  name: 'whduties',
  path: '/api/whduties',
  listKey: 'whduties',
  record: z.object({
    id,
    code: z.string(),
    name: z.string(),
    kind: z.enum(WHDUTY_KINDS),
    rate: exactText,
    threshold: exactText,
    account: z.string().nullable(),
    active: z.boolean(),
  }),
  input: z.strictObject({
    code: requiredText(M.codeRequired).max(20),
    name: requiredText(SETTINGS_MESSAGES.nameRequired).max(80),
    kind: z.enum(WHDUTY_KINDS, { error: SETTINGS_MESSAGES.categoryRequired }),
    rate: rateText,
    threshold: amountText.default('0'),
    account: shortText(80),
    active: yesNo(true),
  }),
  filters: z.object({ active: activeFilter }),
  searchFields: ['code', 'name'],
  sort: [['code', 'asc']],
  pageSize: 25,
  subject: 'business-setting',
  inUse: IN_USE_MESSAGES.whduties,
  exportColumns: [
    ['code', 'Code'],
    ['name', 'Name'],
    ['kind', 'Kind'],
    ['rate', 'Rate %'],
    ['threshold', 'Threshold'],
    ['account', 'Account'],
    ['active', 'Active'],
  ],
});

export const banks = defineResource({
  name: 'banks',
  path: '/api/banks',
  listKey: 'banks',
  record: z.object({
    id,
    name: z.string(),
    code: z.string().nullable(),
    swift: z.string().nullable(),
    kind: z.enum(BANK_KINDS),
    active: z.boolean(),
  }),
  input: z.strictObject({
    name: requiredText(SETTINGS_MESSAGES.nameRequired).max(120),
    code: shortText(20),
    swift: optionalText
      .transform((value) => (value ? value.toUpperCase() : null))
      .refine((value) => value === null || /^[A-Z0-9]{8}([A-Z0-9]{3})?$/.test(value), { error: M.swiftInvalid }),
    kind: z.enum(BANK_KINDS, { error: SETTINGS_MESSAGES.categoryRequired }),
    active: yesNo(true),
  }),
  filters: z.object({ kind: z.enum(BANK_KINDS).optional(), active: activeFilter }),
  searchFields: ['name', 'code', 'swift'],
  sort: [['name', 'asc']],
  pageSize: 25,
  subject: 'business-setting',
  inUse: IN_USE_MESSAGES.banks,
  exportColumns: [
    ['name', 'Name'],
    ['code', 'Code'],
    ['swift', 'SWIFT'],
    ['kind', 'Kind'],
    ['active', 'Active'],
  ],
});

export const productGroups = defineResource({
  name: 'productgroups',
  path: '/api/productgroups',
  listKey: 'productgroups',
  record: z.object({
    id,
    name: z.string(),
    tax_id: z.string().nullable(),
    tax: named,
    description: z.string().nullable(),
  }),
  input: z.strictObject({
    name: requiredText(SETTINGS_MESSAGES.nameRequired).max(80),
    tax_id: optionalId.transform((value) => value ?? null),
    description: optionalText,
  }),
  filters: none,
  searchFields: ['name'],
  sort: [['name', 'asc']],
  pageSize: 25,
  subject: 'product',
  inUse: IN_USE_MESSAGES.productgroups,
  exportColumns: [
    ['name', 'Name'],
    ['tax.name', 'Tax'],
    ['description', 'Description'],
  ],
});

export const products = defineResource({
  name: 'products',
  path: '/api/products',
  listKey: 'products',
  record: z.object({
    id,
    code: z.string(),
    barcode: z.string().nullable(),
    name: z.string(),
    group_id: z.string().nullable(),
    group: named,
    kind: z.enum(PRODUCT_KINDS),
    unit: z.string(),
    fractional: z.boolean(),
    price: exactText,
    cost: exactText,
    tax_id: z.string().nullable(),
    tax: named,
    track_stock: z.boolean(),
    reorder_level: exactText,
    active: z.boolean(),
    description: z.string().nullable(),
  }),
  input: z.strictObject({
    code: requiredText(M.codeRequired).max(40),
    // A scanner types the barcode: no spaces inside, kept as typed.
    barcode: optionalText.refine((value) => value === null || /^[\x21-\x7e]{1,64}$/.test(value), { error: M.barcodeInvalid }),
    name: requiredText(SETTINGS_MESSAGES.nameRequired).max(200),
    group_id: optionalId.transform((value) => value ?? null),
    kind: z.enum(PRODUCT_KINDS, { error: M.kindRequired }).default('goods'),
    unit: requiredText(M.unitRequired).max(40),
    fractional: yesNo(false),
    price: amountText,
    cost: amountText.default('0'),
    tax_id: optionalId.transform((value) => value ?? null),
    track_stock: yesNo(true),
    reorder_level: levelText.default('0'),
    active: yesNo(true),
    description: optionalText,
  }),
  filters: z.object({ group_id: optionalId, kind: z.enum(PRODUCT_KINDS).optional(), active: activeFilter }),
  searchFields: ['name', 'code', 'barcode'],
  sort: [['name', 'asc']],
  pageSize: 25,
  subject: 'product',
  inUse: IN_USE_MESSAGES.products,
  exportColumns: [
    ['code', 'Code'],
    ['barcode', 'Barcode'],
    ['name', 'Name'],
    ['group.name', 'Group'],
    ['kind', 'Kind'],
    ['unit', 'Unit'],
    ['fractional', 'Fractional'],
    ['price', 'Price'],
    ['cost', 'Cost'],
    ['tax.name', 'Tax'],
    ['track_stock', 'Track stock'],
    ['reorder_level', 'Reorder level'],
    ['active', 'Active'],
    ['description', 'Description'],
  ],
});

export const companies = defineResource({
  name: 'companies',
  path: '/api/companies',
  listKey: 'companies',
  record: z.object({
    id,
    name: z.string(),
    role: z.enum(PARTNER_ROLES),
    tin: z.string().nullable(),
    buyer_type: z.enum(BUYER_TYPES),
    contact_person: z.string().nullable(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    address: z.string().nullable(),
    terms_days: z.number(),
    credit_limit: exactText,
    active: z.boolean(),
    notes: z.string().nullable(),
  }),
  input: z
    .strictObject({
      name: requiredText(SETTINGS_MESSAGES.nameRequired).max(120),
      role: z.enum(PARTNER_ROLES, { error: M.roleRequired }),
      tin: optionalText.refine((value) => value === null || /^[0-9]{10}$/.test(value), { error: M.tinInvalid }),
      buyer_type: z.enum(BUYER_TYPES).default('b2c'),
      contact_person: shortText(120),
      phone: shortText(30),
      email: optionalText.refine((value) => value === null || z.email().safeParse(value).success, { error: M.emailInvalid }),
      address: shortText(300),
      terms_days: z.coerce.number({ error: M.termsInvalid }).int(M.termsInvalid).min(0, M.termsInvalid).max(365, M.termsInvalid).default(0),
      credit_limit: amountText.default('0'),
      active: yesNo(true),
      notes: optionalText,
    })
    // EFRIS needs the buyer's TIN on an invoice to a business or a government body.
    .refine((value) => !['b2b', 'government'].includes(value.buyer_type) || value.tin !== null, { error: M.tinRequired, path: ['tin'] }),
  filters: z.object({ role: z.enum(PARTNER_ROLES).optional(), active: activeFilter }),
  searchFields: ['name', 'tin', 'phone', 'contact_person'],
  sort: [['name', 'asc']],
  pageSize: 25,
  subject: 'company',
  inUse: IN_USE_MESSAGES.companies,
  exportColumns: [
    ['name', 'Name'],
    ['role', 'Role'],
    ['tin', 'TIN'],
    ['buyer_type', 'Buyer type'],
    ['contact_person', 'Contact'],
    ['phone', 'Phone'],
    ['email', 'Email'],
    ['address', 'Address'],
    ['terms_days', 'Terms (days)'],
    ['credit_limit', 'Credit limit'],
    ['active', 'Active'],
  ],
});
