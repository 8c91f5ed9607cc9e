import { NAVIGATION } from './routes.js';

/** The sidebar's groups with the entries this user may see (spec §2, §6). */
export function visibleNavigation(can: (action: string, subject?: string) => boolean, secondary: boolean) {
  return NAVIGATION.map((group) => ({
    ...group,
    entries: group.entries.filter(
      (entry) => (!entry.ability || can(entry.ability.action, entry.ability.subject)) && (!entry.secondaryOnly || secondary),
    ),
  })).filter((group) => group.entries.length > 0);
}
