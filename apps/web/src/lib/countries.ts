import type { Language } from '@mustard/shared';
import englishNames from 'countries-list/minimal/countries.en.min.json';
import { HTML_LANG } from './i18n.js';

export interface CountryGroup {
  group: string;
  items: Array<{ value: string; label: string }>;
}

/** The letter a name is filed under: its first letter without accents (Österreich under O). */
function letterOf(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').charAt(0).toUpperCase();
}

/**
 * The countries of the business form (spec §3: code, letter group, name), named in the
 * user's language and grouped by first letter. The stored value is the English name, so a
 * record reads the same whoever entered it ("Uganda" is the default).
 */
export function countryGroups(language: Language): CountryGroup[] {
  const locale = HTML_LANG[language];
  const display = new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' });
  const countries = Object.entries(englishNames as Record<string, string>).map(([code, english]) => ({
    value: english,
    label: display.of(code) ?? english,
  }));
  countries.sort((a, b) => a.label.localeCompare(b.label, locale));
  const groups = new Map<string, CountryGroup>();
  for (const country of countries) {
    const letter = letterOf(country.label);
    const group = groups.get(letter) ?? { group: letter, items: [] };
    group.items.push(country);
    groups.set(letter, group);
  }
  return [...groups.values()];
}
