import { DEFAULT_PRIMARY_FORMS, SECONDARY_FORMS } from './constants.js';

/**
 * The classes (forms) a school offers, spec §3: S1..S6 for a secondary school, otherwise the
 * tenant's own comma-separated list, otherwise the default primary list.
 */
export function classOptions(tenant: { schooltype?: string | null; forms?: string | null }): string[] {
  if (tenant.schooltype === 'secondary') return [...SECONDARY_FORMS];
  const own = (tenant.forms ?? '')
    .split(',')
    .map((form) => form.trim())
    .filter((form) => form.length > 0);
  return own.length > 0 ? own : [...DEFAULT_PRIMARY_FORMS];
}
