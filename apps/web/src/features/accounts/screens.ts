import { ACCOUNT_SUBTYPE_TYPE, ACCOUNT_SUBTYPES, ACCOUNT_TYPES, accounts, banks } from '@mustard/shared';
import { PAGES } from '../../lib/pages.js';
import { defineScreen, type FieldSpec } from '../../resources/screen.js';

/*
 * The chart of accounts (issue 32 point 5) on the one list mechanism: every member reads it,
 * those who manage accounts add, rename and renumber. Labels are the feature's own
 * (`accountScreens.fields.*`, `accountScreens.options.*`).
 */

const OPTIONS = 'accountScreens.options';
const label = (name: string) => `accountScreens.fields.${name}`;

function field<Name extends string>(name: Name, kind: FieldSpec['kind'], more: Partial<FieldSpec<Name>> = {}): FieldSpec<Name> {
  return { name, kind, label: label(name), ...more };
}

const pick = <Name extends string>(name: Name, values: readonly string[], more: Partial<FieldSpec<Name>> = {}) =>
  field(name, 'select', { choices: { values, labels: OPTIONS }, ...more });

export const accountsScreen = defineScreen({
  resource: accounts,
  page: PAGES.accounts,
  columns: [
    { field: 'code', label: label('code') },
    { field: 'name', label: label('name') },
    { field: 'type', label: label('type'), translate: OPTIONS },
    { field: 'subtype', label: label('subtype'), translate: OPTIONS },
    { field: 'parent.name', label: label('parent') },
    { field: 'active', label: label('active') },
  ],
  fields: [
    field('code', 'text', { description: 'accountScreens.help.code' }),
    field('name', 'text'),
    pick('type', ACCOUNT_TYPES),
    // Only the kinds of the chosen type.
    pick('subtype', ACCOUNT_SUBTYPES, {
      follow: (values) => ACCOUNT_SUBTYPES.find((subtype) => ACCOUNT_SUBTYPE_TYPE[subtype] === values.type),
    }),
    field('parent_id', 'select', { choices: { resource: accounts, label: 'name', activeOnly: true } }),
    field('bank_id', 'select', {
      choices: { resource: banks, label: 'name', activeOnly: true },
      when: (values) => values.subtype === 'bank' || values.subtype === 'mobile_money',
      hiddenValue: null,
    }),
    field('description', 'textarea'),
    field('active', 'switch'),
  ],
  filters: [pick('type', ACCOUNT_TYPES), pick('subtype', ACCOUNT_SUBTYPES), pick('active', ['true', 'false'])],
  defaults: { type: 'expense', subtype: 'expense', active: true },
  pageSizeOptions: [50, 100, 200],
  cardColumns: ['code', 'name', 'type'],
});
