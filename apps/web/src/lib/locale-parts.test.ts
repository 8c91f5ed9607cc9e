import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { localePart, SCREEN_TEXTS } from './locale-parts.js';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const en = JSON.parse(readFileSync(path.join(SRC, 'locales', 'en.json'), 'utf8')) as Record<string, unknown>;

/**
 * What the first paint shows (sign-in, the frame, the dashboard): it has only the first part's texts.
 * The sign-up's pages load the screens' part with their code (app/registry.tsx).
 */
const FIRST_PAINT = ['app', 'lib', 'components', 'features/auth', 'features/public', 'features/errors', 'features/dashboard'];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('the locale files in two parts', () => {
  it('split each file whole: every text in one part, none in both', () => {
    const core = localePart(en, 'core');
    const screens = localePart(en, 'screens');
    expect({ ...core, ...screens }).toEqual(en);
    expect(Object.keys(core).filter((key) => key in screens)).toEqual([]);
    for (const key of SCREEN_TEXTS) expect(Object.keys(en)).toContain(key);
  });

  it('leave no text the first paint needs to the screens’ part', () => {
    const firstPaint = FIRST_PAINT.flatMap((dir) => sources(path.join(SRC, dir))).filter((file) => !file.endsWith('locale-parts.ts'));
    const used = firstPaint.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return SCREEN_TEXTS.filter((key) => new RegExp(`['"\`]${key}[.'"\`]`).test(text)).map((key) => `${path.relative(SRC, file)}: ${key}`);
    });
    expect(used).toEqual([]);
  });
});
