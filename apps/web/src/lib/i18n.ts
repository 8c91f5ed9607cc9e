import { LANGUAGES, type Language } from '@mustard/shared';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { LocalePart } from './locale-parts.js';
import { STORAGE_KEYS } from './session.js';

/** The HTML lang attribute of each product language key (spec §3 keys: en, sp, gr, it, rs). */
export const HTML_LANG: Record<Language, string> = { en: 'en', sp: 'es', gr: 'de', it: 'it', rs: 'ru' };

/**
 * Each language is its own file, fetched only when chosen: a teacher on a slow connection
 * downloads English (the fallback) and their own language, not all five. Each file comes in two
 * parts (lib/locale-parts.ts): the first paint's texts, and the screens' texts, fetched with the
 * first screen that needs them (`loadScreenTexts`).
 */
const PARTS: Record<LocalePart, Record<string, () => Promise<Record<string, unknown>>>> = {
  core: import.meta.glob<Record<string, unknown>>('../locales/*.json', { import: 'default', query: '?part=core' }),
  screens: import.meta.glob<Record<string, unknown>>('../locales/*.json', { import: 'default', query: '?part=screens' }),
};
const loaded = new Map<string, Promise<void>>();
/** Whether a screen has asked for its texts: a language chosen after that loads them too. */
let screensWanted = false;

function loadPart(language: Language, part: LocalePart): Promise<void> {
  const key = `${language}:${part}`;
  let loading = loaded.get(key);
  if (!loading) {
    const load = PARTS[part][`../locales/${language}.json`];
    if (!load) throw new Error(`No locale file for ${language}`);
    loading = load().then((texts) => {
      i18next.addResourceBundle(language, 'translation', texts, true, true);
    });
    loaded.set(key, loading);
  }
  return loading;
}

async function loadLanguage(language: Language): Promise<void> {
  await Promise.all([loadPart(language, 'core'), ...(screensWanted ? [loadPart(language, 'screens')] : [])]);
}

/** The screens' texts in English and the chosen language; a screen's code waits for them (app/registry.tsx). */
export async function loadScreenTexts(): Promise<void> {
  screensWanted = true;
  await Promise.all([loadPart('en', 'screens'), loadPart(storedLanguage(), 'screens')]);
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
