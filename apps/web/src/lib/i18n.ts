import { LANGUAGES, type Language } from '@mustard/shared';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { STORAGE_KEYS } from './session.js';

/** The HTML lang attribute of each product language key (spec §3 keys: en, sp, gr, it, rs). */
export const HTML_LANG: Record<Language, string> = { en: 'en', sp: 'es', gr: 'de', it: 'it', rs: 'ru' };

/**
 * Each language is its own file, fetched only when chosen: a teacher on a slow connection
 * downloads English (the fallback) and their own language, not all five.
 */
const LOCALE_FILES = import.meta.glob<Record<string, unknown>>('../locales/*.json', { import: 'default' });

async function loadLanguage(language: Language): Promise<void> {
  if (i18next.hasResourceBundle(language, 'translation')) return;
  const load = LOCALE_FILES[`../locales/${language}.json`];
  if (!load) throw new Error(`No locale file for ${language}`);
  i18next.addResourceBundle(language, 'translation', await load());
}

export function storedLanguage(): Language {
  const stored = localStorage.getItem(STORAGE_KEYS.language);
  return (LANGUAGES as readonly string[]).includes(stored ?? '') ? (stored as Language) : 'en';
}

/**
 * The choice is kept before its file arrives: on a slow connection a teacher who reloads
 * while the file is still downloading keeps the language they picked.
 */
export async function setLanguage(language: Language): Promise<void> {
  localStorage.setItem(STORAGE_KEYS.language, language);
  await loadLanguage(language);
  document.documentElement.lang = HTML_LANG[language];
  await i18next.changeLanguage(language);
}

/** Resolves once English and the stored language are loaded; the app renders after it. */
export const i18nReady: Promise<unknown> = (async () => {
  const language = storedLanguage();
  await i18next.use(initReactI18next).init({
    resources: {},
    lng: language,
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    partialBundledLanguages: true,
  });
  await Promise.all([loadLanguage('en'), loadLanguage(language)]);
  document.documentElement.lang = HTML_LANG[language];
  await i18next.changeLanguage(language);
})();

export { i18next };
