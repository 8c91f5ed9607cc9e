import type { TenantSummary } from '@mustard/shared';
import { BUSINESS_NAVIGATION, NAVIGATION, type NavEntry } from './routes.js';

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
  const visible = (entry: NavEntry) =>
    (!entry.ability || can(entry.ability.action, entry.ability.subject)) && (!entry.secondaryOnly || secondary);
  // A group shows the screens the user may open; with none it is hidden.
  const shown = (entry: NavEntry): NavEntry | null => {
    if (!visible(entry)) return null;
    if (!entry.children) return entry;
    const children = entry.children.filter(visible);
    return children.length === 0 ? null : { ...entry, children };
  };
  return (isSchool(tenant) ? NAVIGATION : BUSINESS_NAVIGATION)
    .map((group) => ({ ...group, entries: group.entries.map(shown).filter((entry): entry is NavEntry => entry !== null) }))
    .filter((group) => group.entries.length > 0);
}

/** The path of every screen an entry leads to: itself, or its group's screens. */
export function entryPaths(entry: NavEntry): string[] {
  return entry.children ? entry.children.map((child) => child.to) : [entry.to];
}
