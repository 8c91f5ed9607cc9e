import { countries as COUNTRY_DATA } from 'countries-list';

/*
 * The countries of spec §3 (code, letter group, name), from the same `countries-list` package
 * the web's business form reads (apps/web/src/lib/countries.ts), so a country the form offers is
 * one the server lists: ISO 3166-1 alpha-2 codes with their English names, "Uganda" among them.
 */

export interface Country {
  code: string;
  group: string;
  name: string;
}

/** The letter a name is filed under: its first letter without accents (Åland Islands under A). */
export function letterOf(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').charAt(0).toUpperCase();
}

/** Countries in English alphabetical order, each with its letter group. */
export function countryList(data: Record<string, { name: string }> = COUNTRY_DATA): Country[] {
  return Object.entries(data)
    .map(([code, { name }]) => ({ code, group: letterOf(name), name }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en') || a.code.localeCompare(b.code));
}

/** Read once: the list is the package's, the same for every tenant and every request. */
export const COUNTRIES: ReadonlyArray<Country> = countryList();
