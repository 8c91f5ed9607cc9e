/*
 * Which tenants a route serves (issue 31: "a school tenant never sees business routes, and the
 * reverse"). A school's TENANTCODE on a business route, or a business's on a school route, is
 * answered 404 as for a route that is not there (plugins/access.ts). Declared by path once here,
 * so a new route under a known prefix is classed without a word; `security/tenant-kinds.test.ts`
 * fails on an /api route no rule names.
 */
export type TenantKind = 'school' | 'business';

/** Prefixes (a whole segment) of the routes of schools alone. */
export const SCHOOL_ROUTE_PREFIXES = [
  '/api/school/',
  '/api/student/',
  '/api/remark/',
  '/api/uploads/studentjournals',
  '/api/home/setup',
  '/api/requisitions/',
] as const;

/** Prefixes of the routes of businesses alone. */
export const BUSINESS_ROUTE_PREFIXES = [
  '/api/products',
  '/api/productgroups',
  '/api/stockrecords',
  '/api/companies',
  '/api/currencies',
  '/api/taxes',
  '/api/whduties',
  '/api/banks',
  '/api/business/',
  '/api/home/business',
  '/api/uploads/template',
  '/api/accounts',
  '/api/invoices',
  '/api/receipts',
  '/api/memos',
  '/api/vouchers',
  '/api/efris',
] as const;

/** Exact paths of business routes whose prefix a school route shares (`/api/uploads/studentjournals`). */
export const BUSINESS_ROUTE_PATHS = ['/api/uploads'] as const;

/** Routes every tenant uses: members, tenants, the dashboard's counts, locations, countries, administration. */
export const SHARED_ROUTE_PREFIXES = [
  '/api/users',
  '/api/tenants',
  '/api/admin/',
  '/api/home/mustard',
  '/api/locations',
  '/api/countries',
] as const;

const underPrefix = (url: string, prefix: string) =>
  url === prefix || url.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`) || (prefix.endsWith('/') && url.startsWith(prefix));

/** The kind of tenant a route (its registered URL, with `:id` parameters) serves; null for both. */
export function routeTenantKind(url: string): TenantKind | null | undefined {
  const path = url.split('?')[0] ?? url;
  if ((BUSINESS_ROUTE_PATHS as readonly string[]).includes(path)) return 'business';
  if (SCHOOL_ROUTE_PREFIXES.some((prefix) => underPrefix(path, prefix))) return 'school';
  if (BUSINESS_ROUTE_PREFIXES.some((prefix) => underPrefix(path, prefix))) return 'business';
  if (SHARED_ROUTE_PREFIXES.some((prefix) => underPrefix(path, prefix))) return null;
  return undefined;
}

/** A tenant's kind from its category (spec §1): School, or one of the business categories. */
export function tenantKindOf(category: string | null | undefined): TenantKind {
  return category === 'School' ? 'school' : 'business';
}
