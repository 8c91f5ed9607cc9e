import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * Every document's fonts, shipped in the repository (apps/server/assets/fonts, DejaVu Sans and
 * its licence), never the machine's: a document prints the same wherever the server runs. Found
 * by walking up from this module's folder, so the same code finds them from the TypeScript
 * sources (tsx, vitest: apps/server/src/documents) and from a build at any depth under
 * apps/server (dist/…). Read once per thread (each worker keeps its own copy).
 */

export const FONT_FILES = { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf' } as const;

/** The folder holding the fonts: the first `assets/fonts` above this module that has them. */
export function fontsFolder(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
  let folder = from;
  for (;;) {
    const candidate = path.join(folder, 'assets', 'fonts');
    if (existsSync(path.join(candidate, FONT_FILES.regular))) return candidate;
    const parent = path.dirname(folder);
    if (parent === folder) throw new Error(`The documents' fonts (assets/fonts/${FONT_FILES.regular}) are not above ${from}`);
    folder = parent;
  }
}

let loaded: { regular: Buffer; bold: Buffer } | undefined;

/** The regular and bold font files' bytes, read on first use. */
export function reportFonts(): { regular: Buffer; bold: Buffer } {
  if (!loaded) {
    const folder = fontsFolder();
    loaded = {
      regular: readFileSync(path.join(folder, FONT_FILES.regular)),
      bold: readFileSync(path.join(folder, FONT_FILES.bold)),
    };
  }
  return loaded;
}
