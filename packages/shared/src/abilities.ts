import { createMongoAbility, type MongoAbility } from '@casl/ability';

/**
 * Permissions, spec §6: a role pairs a subject class with an action; `manage` grants every
 * action on its subject; admins pass every check; an empty required subject always passes.
 * Server and web build abilities with this one function, so they can never disagree.
 */
export const ACTIONS = ['manage', 'create', 'read', 'update', 'delete'] as const;
export type Action = (typeof ACTIONS)[number];

/** Subject classes the product checks. Roles may name others; they simply match nothing. */
export const SUBJECTS = [
  'tenant',
  'user',
  'student',
  'mark',
  'remark',
  'publish-mark',
  'subject-teacher',
  'class-teacher',
  'deputy',
  'grade-footer',
  'report-footer',
  'subject-paper',
  /** School settings: categories, subjects, mark types, grades, proportions, remark types, … */
  'setting',
  /** Stock locations of a business. */
  'location',
  /** A business's products and product groups. */
  'product',
  /** The stock ledger: receiving, adjusting and moving stock. */
  'stock',
  /** A business's partners: customers and suppliers. */
  'company',
  /** A business's reference data (currencies, taxes, withholding duties, banks) and its settings. */
  'business-setting',
  /** Selling and getting paid: invoices, counter sales, receipts, credit and debit memos. */
  'sale',
  /** Money out: preparing (create), approving and paying (manage) payment vouchers. */
  'voucher',
  /** The chart of accounts and the books: journal, trial balance. */
  'account',
  /** EFRIS: the business's device, its fiscal outbox and registering products with URA. */
  'efris',
  /** The shop's daily reports: cash-up, debtors, VAT summary, profit. */
  'business-report',
] as const;
export type SubjectClass = (typeof SUBJECTS)[number];

/** The role name that makes its holder an administrator of the tenant (spec §6). */
export const SUPERADMIN_ROLE = 'superadmin';

export interface PermissionGrant {
  subject_class: string;
  action: string;
}

export interface AbilityUser {
  is_admin?: boolean | null;
  admin?: boolean | null;
  roles?: ReadonlyArray<{ name: string; permissions?: ReadonlyArray<PermissionGrant> }>;
}

export type AppAbility = MongoAbility<[string, string]>;

export function isAdministrator(user: AbilityUser): boolean {
  return Boolean(user.is_admin || user.admin || user.roles?.some((role) => role.name.toLowerCase() === SUPERADMIN_ROLE));
}

export function defineAbilityFor(user: AbilityUser): AppAbility {
  if (isAdministrator(user)) return createMongoAbility<[string, string]>([{ action: 'manage', subject: 'all' }]);
  const rules = (user.roles ?? []).flatMap((role) =>
    (role.permissions ?? []).map((grant) => ({ action: grant.action, subject: grant.subject_class })),
  );
  return createMongoAbility<[string, string]>(rules);
}

/** True when `ability` allows `action` on `subject`; an empty subject is no requirement. */
export function allows(ability: AppAbility, action: string, subject: string | null | undefined): boolean {
  if (!subject) return true;
  return ability.can(action, subject);
}

/** The permissions map of the profile: subject class -> its actions (spec §3). */
export function permissionsMap(roles: ReadonlyArray<{ permissions?: ReadonlyArray<PermissionGrant> }>) {
  const map: Record<string, string[]> = {};
  for (const role of roles) {
    for (const grant of role.permissions ?? []) {
      const actions = map[grant.subject_class] ?? [];
      if (!actions.includes(grant.action)) map[grant.subject_class] = [...actions, grant.action];
    }
  }
  return map;
}
