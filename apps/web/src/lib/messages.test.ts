import { LOGIN_MESSAGES, MESSAGE_CATALOGUES, STOCK_MESSAGES, TENANT_MESSAGES, USER_MESSAGES } from '@mustard/shared';
import { beforeEach, describe, expect, it, vi } from 'vitest';

/** The English texts loaded so far: the first paint's catalogues, then a screen's. */
let english: { messages: Record<string, Record<string, string>> } = { messages: {} };
vi.mock('./i18n.js', () => ({
  i18next: { t: (key: string) => `<${key}>`, getResourceBundle: (language: string) => (language === 'en' ? english : undefined) },
}));

const { translateMessage } = await import('./messages.js');
const catalogues = JSON.parse(JSON.stringify(MESSAGE_CATALOGUES)) as Record<string, Record<string, string>>;

describe('translateMessage', () => {
  beforeEach(() => {
    english = { messages: { ...catalogues } };
  });

  it('finds a catalogue text by its words', () => {
    expect(translateMessage(LOGIN_MESSAGES.loggedOut)).toBe('<messages.login.loggedOut>');
    expect(translateMessage(TENANT_MESSAGES.tenantcodeInvalid)).toBe('<messages.tenant.tenantcodeInvalid>');
  });

  it('translates a catalogue text followed by what it is about, and keeps that part', () => {
    expect(translateMessage(`${USER_MESSAGES.roleUnknown}: janitor`)).toBe('<messages.user.roleUnknown>: janitor');
  });

  it('shows an unknown text as it came', () => {
    expect(translateMessage('Something else: entirely')).toBe('Something else: entirely');
  });

  it('knows a catalogue of the screens’ texts once a screen has loaded them', () => {
    const { stock: _stock, ...firstPaint } = catalogues;
    english = { messages: firstPaint };
    const text = Object.values(STOCK_MESSAGES)[0] ?? '';
    expect(translateMessage(text)).toBe(text);
    english.messages.stock = catalogues.stock ?? {};
    expect(translateMessage(text)).toMatch(/^<messages\.stock\./);
  });
});
