import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FIRST_PAINT_MESSAGES, localePart, SCREEN_TEXT_BRANCHES, SCREEN_TEXTS } from './locale-parts.js';

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
    // The parts merge back deeply, as i18next adds them; a branch lives under its parent in the screens' part.
    const merged: Record<string, unknown> = { ...core };
    for (const [key, value] of Object.entries(screens))
      merged[key] = key in core ? { ...(core[key] as Record<string, unknown>), ...(value as Record<string, unknown>) } : value;
    expect(merged).toEqual(en);
    expect(Object.keys(core).filter((key) => key in screens && !SCREEN_TEXT_BRANCHES.some(([parent]) => parent === key))).toEqual([]);
    for (const key of SCREEN_TEXTS) expect(Object.keys(en)).toContain(key);
    for (const [parent, child] of SCREEN_TEXT_BRANCHES) {
      expect(Object.keys((core[parent] ?? {}) as object)).not.toContain(child);
      expect(Object.keys((screens[parent] ?? {}) as object)).toContain(child);
    }
  });

  it('leave no text the first paint needs to the screens’ part', () => {
    const firstPaint = FIRST_PAINT.flatMap((dir) => sources(path.join(SRC, dir))).filter((file) => !file.endsWith('locale-parts.ts'));
    const used = firstPaint.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return SCREEN_TEXTS.filter((key) => new RegExp(`['"\`]${key}[.'"\`]`).test(text)).map((key) => `${path.relative(SRC, file)}: ${key}`);
    });
    expect(used).toEqual([]);
  });
  it('keep in the first part the catalogues a sign-in, the frame and the dashboard show', () => {
    const core = localePart(en, 'core') as { messages: Record<string, unknown> };
    for (const catalogue of FIRST_PAINT_MESSAGES) expect(Object.keys(core.messages)).toContain(catalogue);
  });
});
