import type { TenantSummary } from '@mustard/shared';
import { BUSINESS_NAVIGATION, NAVIGATION } from './routes.js';

/** Whether the tenant is a school (spec §3 tenant category), which decides the whole frame. */
export function isSchool(tenant: Pick<TenantSummary, 'category'> | null | undefined): boolean {
  return !tenant || tenant.category === 'School';
}

/** The sidebar's groups with the entries this user may see in this tenant (spec §2, §6). */
export function visibleNavigation(
  can: (action: string, subject?: string) => boolean,
  tenant: Pick<TenantSummary, 'category' | 'schooltype'> | null | undefined,
) {
  const secondary = tenant?.schooltype === 'secondary';
  return (isSchool(tenant) ? NAVIGATION : BUSINESS_NAVIGATION)
    .map((group) => ({
      ...group,
      entries: group.entries.filter(
        (entry) => (!entry.ability || can(entry.ability.action, entry.ability.subject)) && (!entry.secondaryOnly || secondary),
      ),
    }))
    .filter((group) => group.entries.length > 0);
}
