import { SUPERADMIN_ROLE, tenantKindOf } from '@mustard/shared';

/**
 * The roles every new tenant starts with. Schools rename or extend them; these cover the
 * people of spec §1: the head teacher (administrator), class and subject teachers, the bursar.
 */
export const DEFAULT_ROLES: ReadonlyArray<{ name: string; permissions: ReadonlyArray<[action: string, subject: string]> }> = [
  { name: SUPERADMIN_ROLE, permissions: [] },
  {
    name: 'headteacher',
    permissions: [
      ['manage', 'student'],
      ['manage', 'mark'],
      ['manage', 'remark'],
      ['manage', 'publish-mark'],
      ['manage', 'subject-teacher'],
      ['manage', 'class-teacher'],
      ['manage', 'deputy'],
      ['manage', 'grade-footer'],
      ['manage', 'report-footer'],
      ['manage', 'subject-paper'],
      ['manage', 'user'],
      ['manage', 'setting'],
      ['manage', 'location'],
      ['read', 'tenant'],
    ],
  },
  // A teacher enters marks, subject comments and generic skills where assigned as subject
  // teacher, and the class teacher's remarks of the classes they are class teacher of
  // (shared/assignments.ts). `manage` on remark (the head teacher's remarks, deleting remarks,
  // attendance) is the head teacher's (issue 23 item 8; migration 0015 fixes older schools).
  {
    name: 'teacher',
    permissions: [
      ['create', 'mark'],
      ['create', 'remark'],
    ],
  },
  { name: 'bursar', permissions: [['manage', 'student']] },
];

/**
 * The roles a new business starts with (issue 31): the owner (administrator), a manager who
 * keeps the catalogue, partners, reference data and members, and a storekeeper who receives,
 * adjusts and moves stock, and a cashier who sells at the counter and takes money (issue 32).
 * Every member reads.
 */
export const BUSINESS_ROLES: ReadonlyArray<{ name: string; permissions: ReadonlyArray<[action: string, subject: string]> }> = [
  { name: SUPERADMIN_ROLE, permissions: [] },
  {
    name: 'manager',
    permissions: [
      ['manage', 'product'],
      ['manage', 'stock'],
      ['manage', 'company'],
      ['manage', 'location'],
      ['manage', 'business-setting'],
      ['manage', 'sale'],
      ['manage', 'voucher'],
      ['manage', 'account'],
      ['manage', 'efris'],
      ['manage', 'business-report'],
      ['manage', 'user'],
      ['read', 'tenant'],
    ],
  },
  { name: 'storekeeper', permissions: [['create', 'stock']] },
  // At the counter: sells, takes money and prints receipts; prepares vouchers for approval.
  {
    name: 'cashier',
    permissions: [
      ['create', 'sale'],
      ['create', 'voucher'],
    ],
  },
];

/** The roles a new tenant of this category starts with. */
export function defaultRolesFor(category: string) {
  return tenantKindOf(category) === 'school' ? DEFAULT_ROLES : BUSINESS_ROLES;
}
