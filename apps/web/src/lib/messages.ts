import { MESSAGE_CATALOGUES } from '@mustard/shared';
import { i18next } from './i18n.js';

/** The locale key of each exact English message the server and the shared rules give. */
const KEY_OF_MESSAGE = new Map<string, string>();
for (const [catalogue, messages] of Object.entries(MESSAGE_CATALOGUES)) {
  for (const [key, text] of Object.entries(messages)) {
    if (!KEY_OF_MESSAGE.has(text)) KEY_OF_MESSAGE.set(text, `messages.${catalogue}.${key}`);
  }
}

/**
 * A validation or error message in the user's language. Rules and the server speak the
 * spec's exact English; a catalogue text followed by what it is about ("This role does not
 * exist in this school or business: janitor") keeps that part as it came; an unknown text (a
 * server detail) is shown as it came.
 */
export function translateMessage(text: string): string {
  const key = KEY_OF_MESSAGE.get(text);
  if (key) return i18next.t(key);
  const split = text.indexOf(': ');
  const head = split > 0 ? KEY_OF_MESSAGE.get(text.slice(0, split)) : undefined;
  return head ? `${i18next.t(head)}: ${text.slice(split + 2)}` : text;
}
