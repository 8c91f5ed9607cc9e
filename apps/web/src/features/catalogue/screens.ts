import {
  BANK_KINDS,
  BUYER_TYPES,
  banks,
  companies,
  currencies,
  PARTNER_ROLES,
  PRODUCT_KINDS,
  productGroups,
  products,
  TAX_KINDS,
  taxes,
  WHDUTY_KINDS,
  whduties,
} from '@mustard/shared';
import { PAGES } from '../../lib/pages.js';
import { defineScreen, type FieldSpec } from '../../resources/screen.js';

/*
 * A business's catalogue, partners and reference data (issue 31 points 1-3) on the one list
 * mechanism, each stating only what differs from the common case (resources/screen.ts). Every
 * label and option is the feature's own (`catalogue.fields.*`, `catalogue.options.*`). Money and
 * quantities are exact decimal text: typed as text (`amount`), shown with thousands commas.
 */

const OPTIONS = 'catalogue.options';
const label = (name: string) => `catalogue.fields.${name}`;
const help = (name: string) => `catalogue.help.${name}`;

/** A field labelled by the feature's texts. */
function field<Name extends string>(name: Name, kind: FieldSpec['kind'], more: Partial<FieldSpec<Name>> = {}): FieldSpec<Name> {
  return { name, kind, label: label(name), ...more };
}

/** A select of fixed values, labelled `catalogue.options.<value>`. */
const pick = <Name extends string>(name: Name, values: readonly string[], more: Partial<FieldSpec<Name>> = {}) =>
  field(name, 'select', { choices: { values, labels: OPTIONS }, ...more });

/** The filter of active and inactive records. */
const activeFilter = pick('active', ['true', 'false']);
const taxSelect = field('tax_id', 'select', { choices: { resource: taxes, label: 'name', activeOnly: true } });

export const productsScreen = defineScreen({
  resource: products,
  page: PAGES.products,
  columns: [
    { field: 'code', label: label('code') },
    { field: 'name', label: label('name') },
    { field: 'group.name', label: label('group') },
    { field: 'unit', label: label('unit') },
    { field: 'price', label: label('price'), amount: true },
    { field: 'barcode', label: label('barcode') },
    { field: 'active', label: label('active') },
  ],
  fields: [
    field('code', 'text'),
    field('barcode', 'text', { description: help('barcode') }),
    field('name', 'text'),
    field('group_id', 'select', { choices: { resource: productGroups, label: 'name' } }),
    pick('kind', PRODUCT_KINDS),
    field('unit', 'text', { description: help('unit') }),
    field('fractional', 'switch', { description: help('fractional') }),
    field('price', 'amount', { description: help('price') }),
    field('cost', 'amount'),
    { ...taxSelect, description: help('tax_id') },
    // A service keeps no stock: no switch, no reorder level, and the product says so.
    field('track_stock', 'switch', { when: (values) => values.kind !== 'service', hiddenValue: false }),
    field('reorder_level', 'amount', {
      description: help('reorder_level'),
      when: (values) => values.kind !== 'service' && values.track_stock === true,
      hiddenValue: '0',
    }),
    field('active', 'switch'),
    field('description', 'textarea'),
  ],
  filters: [
    field('group_id', 'select', { choices: { resource: productGroups, label: 'name' } }),
    pick('kind', PRODUCT_KINDS),
    activeFilter,
  ],
  defaults: { kind: 'goods', unit: 'pcs', fractional: false, cost: '0', track_stock: true, reorder_level: '0', active: true },
  pageSizeOptions: [25, 50, 100],
  cardColumns: ['name', 'price', 'code'],
});

export const productGroupsScreen = defineScreen({
  resource: productGroups,
  page: PAGES.productGroups,
  columns: [
    { field: 'name', label: label('name') },
    { field: 'tax.name', label: label('defaultTax') },
    { field: 'description', label: label('description') },
  ],
  fields: [
    field('name', 'text'),
    { ...taxSelect, label: label('defaultTax'), description: help('defaultTax') },
    field('description', 'textarea'),
  ],
});

export const partnersScreen = defineScreen({
  resource: companies,
  page: PAGES.partners,
  columns: [
    { field: 'name', label: label('name') },
    { field: 'role', label: label('role'), translate: OPTIONS },
    { field: 'tin', label: label('tin') },
    { field: 'buyer_type', label: label('buyer_type'), translate: OPTIONS },
    { field: 'contact_person', label: label('contact_person') },
    { field: 'phone', label: label('phone') },
    { field: 'email', label: label('email') },
    { field: 'credit_limit', label: label('credit_limit'), amount: true },
    { field: 'active', label: label('active') },
  ],
  fields: [
    field('name', 'text'),
    pick('role', PARTNER_ROLES),
    field('tin', 'text', { description: help('tin') }),
    pick('buyer_type', BUYER_TYPES, { description: help('buyer_type') }),
    field('contact_person', 'text'),
    field('phone', 'text'),
    field('email', 'text'),
    field('address', 'textarea'),
    field('terms_days', 'number', { description: help('terms_days') }),
    field('credit_limit', 'amount'),
    field('active', 'switch'),
    field('notes', 'textarea'),
  ],
  filters: [pick('role', PARTNER_ROLES), activeFilter],
  defaults: { buyer_type: 'b2c', terms_days: 0, credit_limit: '0', active: true },
  pageSizeOptions: [25, 50, 100],
  cardColumns: ['name', 'role', 'phone'],
});

export const currenciesScreen = defineScreen({
  resource: currencies,
  page: PAGES.currencies,
  columns: [
    { field: 'code', label: label('code') },
    { field: 'name', label: label('name') },
    { field: 'symbol', label: label('symbol') },
    { field: 'decimals', label: label('decimals'), plain: true },
    { field: 'rate', label: label('rate'), amount: true },
    { field: 'is_default', label: label('is_default') },
  ],
  fields: [
    field('code', 'text', { description: help('currencyCode') }),
    field('name', 'text'),
    field('symbol', 'text'),
    field('decimals', 'number', { description: help('decimals') }),
    field('rate', 'amount', { description: help('rate') }),
    field('is_default', 'switch'),
  ],
  defaults: { decimals: 2, rate: '1', is_default: false },
});

export const taxesScreen = defineScreen({
  resource: taxes,
  page: PAGES.taxes,
  columns: [
    { field: 'code', label: label('code') },
    { field: 'name', label: label('name') },
    { field: 'kind', label: label('kind'), translate: OPTIONS },
    { field: 'rate', label: label('ratePercent'), amount: true },
    { field: 'inclusive', label: label('inclusive') },
    { field: 'active', label: label('active') },
  ],
  fields: [
    field('code', 'text'),
    field('name', 'text'),
    pick('kind', TAX_KINDS),
    field('rate', 'amount', { label: label('ratePercent'), description: help('taxRate') }),
    field('inclusive', 'switch', { description: help('inclusive') }),
    field('active', 'switch'),
  ],
  filters: [activeFilter],
  defaults: { kind: 'standard', rate: '18', inclusive: true, active: true },
});

export const whdutiesScreen = defineScreen({
  resource: whduties,
  page: PAGES.whduties,
  columns: [
    { field: 'code', label: label('code') },
    { field: 'name', label: label('name') },
    { field: 'kind', label: label('kind'), translate: OPTIONS },
    { field: 'rate', label: label('ratePercent'), amount: true },
    { field: 'threshold', label: label('threshold'), amount: true },
    { field: 'account', label: label('account') },
    { field: 'active', label: label('active') },
  ],
  fields: [
    field('code', 'text'),
    field('name', 'text'),
    pick('kind', WHDUTY_KINDS),
    field('rate', 'amount', { label: label('ratePercent') }),
    field('threshold', 'amount', { description: help('threshold') }),
    field('account', 'text'),
    field('active', 'switch'),
  ],
  filters: [activeFilter],
  defaults: { kind: 'income_tax', rate: '6', threshold: '0', active: true },
});

export const banksScreen = defineScreen({
  resource: banks,
  page: PAGES.banks,
  columns: [
    { field: 'name', label: label('name') },
    { field: 'kind', label: label('kind'), translate: OPTIONS },
    { field: 'code', label: label('code') },
    { field: 'swift', label: label('swift') },
    { field: 'active', label: label('active') },
  ],
  fields: [field('name', 'text'), pick('kind', BANK_KINDS), field('code', 'text'), field('swift', 'text'), field('active', 'switch')],
  filters: [pick('kind', BANK_KINDS), activeFilter],
  defaults: { kind: 'bank', active: true },
});
