import { LANGUAGES, type Language } from '@mustard/shared';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../locales/en.json';
import gr from '../locales/gr.json';
import it from '../locales/it.json';
import rs from '../locales/rs.json';
import sp from '../locales/sp.json';
import { STORAGE_KEYS } from './session.js';

/** The HTML lang attribute of each product language key (spec §3 keys: en, sp, gr, it, rs). */
export const HTML_LANG: Record<Language, string> = { en: 'en', sp: 'es', gr: 'de', it: 'it', rs: 'ru' };

export function storedLanguage(): Language {
  const stored = localStorage.getItem(STORAGE_KEYS.language);
  return (LANGUAGES as readonly string[]).includes(stored ?? '') ? (stored as Language) : 'en';
}

export function setLanguage(language: Language): void {
  localStorage.setItem(STORAGE_KEYS.language, language);
  document.documentElement.lang = HTML_LANG[language];
  void i18next.changeLanguage(language);
}

void i18next.use(initReactI18next).init({
  resources: {
    en: { translation: en },
    sp: { translation: sp },
    gr: { translation: gr },
    it: { translation: it },
    rs: { translation: rs },
  },
  lng: storedLanguage(),
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
});
document.documentElement.lang = HTML_LANG[storedLanguage()];

export { i18next };
