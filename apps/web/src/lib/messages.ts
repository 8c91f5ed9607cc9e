import { i18next } from './i18n.js';

/**
 * The locale key of each exact English message the server and the shared rules give, read from
 * the English texts loaded: `messages.<catalogue>.<key>` in en.json is the shared catalogue word
 * for word (locales/locales.test.ts holds them equal). Read from the texts rather than from the
 * shared catalogues, which would put every catalogue's English in the first paint's code (about
 * 9 KB gzipped) beside the same words in the English texts. A catalogue in the screens' part of
 * the locale files (lib/locale-parts.ts) is known from when a screen has loaded it, which is
 * before any screen can show one of its messages; an unknown text is shown as it came.
 */
let keyOfMessage = new Map<string, string>();
/** The catalogues the map was built from: more arrive with the screens' texts. */
let builtFrom = -1;

function keyOf(text: string): string | undefined {
  const loaded = (i18next.getResourceBundle('en', 'translation') as { messages?: Record<string, Record<string, string>> } | undefined)
    ?.messages;
  const catalogues = loaded ? Object.keys(loaded).length : 0;
  if (loaded && catalogues !== builtFrom) {
    keyOfMessage = new Map();
    for (const [catalogue, messages] of Object.entries(loaded)) {
      for (const [key, english] of Object.entries(messages)) {
        if (!keyOfMessage.has(english)) keyOfMessage.set(english, `messages.${catalogue}.${key}`);
      }
    }
    builtFrom = catalogues;
  }
  return keyOfMessage.get(text);
}

/**
 * A validation or error message in the user's language. Rules and the server speak the
 * spec's exact English; a catalogue text followed by what it is about ("This role does not
 * exist in this school or business: janitor") keeps that part as it came; an unknown text (a
 * server detail) is shown as it came.
 */
export function translateMessage(text: string): string {
  const key = keyOf(text);
  if (key) return i18next.t(key);
  const split = text.indexOf(': ');
  const head = split > 0 ? keyOf(text.slice(0, split)) : undefined;
  return head ? `${i18next.t(head)}: ${text.slice(split + 2)}` : text;
}
