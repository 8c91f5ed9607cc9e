import { LOGIN_MESSAGES, TENANT_MESSAGES, USER_MESSAGES } from '@mustard/shared';
import { describe, expect, it, vi } from 'vitest';

vi.mock('./i18n.js', () => ({ i18next: { t: (key: string) => `<${key}>` } }));

const { translateMessage } = await import('./messages.js');

describe('translateMessage', () => {
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
});
