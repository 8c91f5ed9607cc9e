import { sql } from 'kysely';

/**
 * The code's own tenant filter. Row-level security already hides other tenants' rows; the
 * code filters too, so a mistake in one layer is caught by the other. Tests switch this off
 * to prove RLS alone keeps tenants apart (security.md item 5); nothing else may.
 */
let codeFilterEnabled = true;

export function setCodeTenantFilterForTests(enabled: boolean): void {
  codeFilterEnabled = enabled;
}

/** `qb.$call(inTenant(tenantId, 'students.tenant_id'))`: adds `column = tenantId`. */
export function inTenant(tenantId: string, column = 'tenant_id') {
  // Typed loosely on purpose: Kysely's builders share `where` but no common generic type.
  return <QB extends { where(...args: any[]): any }>(qb: QB): QB =>
    codeFilterEnabled ? (qb.where(sql.ref(column), '=', tenantId) as QB) : qb;
}
