import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

type Messages = { [key: string]: string | Messages };

const LOCALES = ['sp', 'gr', 'it', 'rs'] as const;

function load(locale: string): Messages {
  return JSON.parse(readFileSync(new URL(`./${locale}.json`, import.meta.url), 'utf8')) as Messages;
}

/** Flattens nested messages into dotted keys, e.g. `{ auth: { email } }` becomes `auth.email`. */
function flatten(messages: Messages, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, value] of Object.entries(messages)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [k, v] of flatten(value, path)) out.set(k, v);
    } else {
      out.set(path, value);
    }
  }
  return out;
}

function placeholders(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  return [...new Set(Array.from(value.matchAll(/\{\{\s*([^}]+?)\s*\}\}/g), (m) => m[1] ?? ''))].sort();
}

/** Values that legitimately stay the same in every language: the product name, placeholders and symbols only. */
function isLanguageNeutral(value: string): boolean {
  const rest = value
    .replace(/\{\{[^}]*\}\}/g, '')
    .replace(/Mustard/g, '')
    .replace(/[\s\p{P}\p{S}\d]/gu, '');
  return rest === '';
}

const en = flatten(load('en'));

describe('en locale', () => {
  it('has keys and no empty strings', () => {
    expect(en.size).toBeGreaterThan(0);
    for (const [key, value] of en) {
      expect(typeof value, key).toBe('string');
      expect((value as string).trim(), key).not.toBe('');
    }
  });
});

describe.each(LOCALES)('%s locale', (locale) => {
  const messages = flatten(load(locale));

  it('has every key that en.json has', () => {
    const missing = [...en.keys()].filter((key) => !messages.has(key));
    expect(missing).toEqual([]);
  });

  it('has no key that en.json lacks', () => {
    const extra = [...messages.keys()].filter((key) => !en.has(key));
    expect(extra).toEqual([]);
  });

  it('has no empty or non-string values', () => {
    const bad = [...messages].filter(([, value]) => typeof value !== 'string' || value.trim() === '').map(([key]) => key);
    expect(bad).toEqual([]);
  });

  it('keeps the same {{placeholders}} as en.json', () => {
    const mismatched = [...en]
      .filter(([key]) => messages.has(key))
      .filter(([key, value]) => placeholders(value).join('|') !== placeholders(messages.get(key)).join('|'))
      .map(([key]) => key);
    expect(mismatched).toEqual([]);
  });

  it('is translated rather than copied from English', () => {
    const comparable = [...en].filter(([, value]) => typeof value === 'string' && !isLanguageNeutral(value));
    const same = comparable.filter(([key, value]) => messages.get(key) === value).map(([key]) => key);
    expect(comparable.length).toBeGreaterThan(0);
    expect(same.length / comparable.length, `untranslated: ${same.join(', ')}`).toBeLessThan(0.2);
  });
});

describe('messages of the shared rules and the server', () => {
  it('are in en.json under messages.<catalogue>.<key>, word for word', async () => {
    const { MESSAGE_CATALOGUES } = await import('@mustard/shared');
    const english = load('en').messages;
    expect(english).toEqual(JSON.parse(JSON.stringify(MESSAGE_CATALOGUES)));
  });
});
