import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * The web app's layers (issue 25 points 6 and 7), held against the code:
 *   app/        the frame: providers, router, page registry, layout, sidebar. Imports anything.
 *   features/   the pages of one area. Import resources, components and lib; never app/.
 *   resources/  the list-screen mechanism. Imports components and lib; never app/ or a feature.
 *   components/ pieces several pages use. Import lib; never app/, a feature or resources.
 *   lib/        API client, page table, navigation, session, i18n. Imports none of the above.
 * And one way to call the API: through the contracts (`call`, `callRoute`, `downloadFrom`, a
 * resource's `resourceCalls`), never `api.get/post/put/delete/download` typed by hand, and no
 * `as never` to force a call through.
 */

const SRC = path.dirname(fileURLToPath(import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The layer of a file: the first folder under src/ (main.tsx is the app's entry). */
function layerOf(file: string): string {
  const relative = path.relative(SRC, file).split(path.sep);
  return relative.length === 1 ? 'app' : (relative[0] ?? 'app');
}

/** The relative imports of a file (static and dynamic), resolved to files under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => match[1] ?? '');
  return specifiers.map((specifier) => path.resolve(path.dirname(file), specifier));
}

/** What each layer may import besides itself. */
const MAY_IMPORT: Record<string, string[]> = {
  app: ['features', 'resources', 'components', 'lib', 'locales'],
  features: ['resources', 'components', 'lib', 'locales'],
  resources: ['components', 'lib', 'locales'],
  components: ['lib', 'locales'],
  lib: ['locales'],
};

const FILES = sources(SRC);
const rel = (file: string) => path.relative(SRC, file).split(path.sep).join('/');

describe('the web app’s layers', () => {
  it('finds the sources it checks', () => {
    expect(FILES.length).toBeGreaterThan(50);
    expect(FILES.map(rel)).toContain('lib/pages.ts');
  });

  it('has no import climbing into a layer above (nothing but app/ imports app/)', () => {
    const climbing: string[] = [];
    for (const file of FILES) {
      const from = layerOf(file);
      for (const target of importsOf(file)) {
        const to = layerOf(target);
        if (to !== from && !(MAY_IMPORT[from] ?? []).includes(to)) climbing.push(`${rel(file)} -> ${rel(target)}`);
      }
    }
    expect(climbing).toEqual([]);
  });

  it('calls the API through contracts only: no raw api.get/post/put/delete/download outside lib/api.ts', () => {
    const raw = FILES.filter((file) => rel(file) !== 'lib/api.ts').filter((file) =>
      /\bapi\s*\.\s*(get|post|put|delete|download)\s*[<(]/.test(readFileSync(file, 'utf8')),
    );
    expect(raw.map(rel)).toEqual([]);
  });

  it('forces no call through with `as never`', () => {
    const forced = FILES.filter((file) => /\bas\s+never\b/.test(readFileSync(file, 'utf8')));
    expect(forced.map(rel)).toEqual([]);
  });
});
