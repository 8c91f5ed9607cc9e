import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/*
 * docs/SCREENS.md is generated from the code (`npm run screens`, scripts/screens-index.ts): each
 * page's path, component, contracts, server routes and tests. Regenerated here in memory, it must
 * equal the file, so a page, contract or route that changes without it fails the unit tests.
 * The generator is imported by its address: it lives outside the web's sources (scripts/).
 */
const generator = new URL('../../../scripts/screens-index.ts', import.meta.url).href;
const screensFile = new URL('../../../docs/SCREENS.md', import.meta.url);

type Generator = { screensIndex: () => Promise<string> };

describe('the screen index (docs/SCREENS.md)', () => {
  let generated: string;

  it('is the index the code gives', async () => {
    const { screensIndex } = (await import(/* @vite-ignore */ generator)) as Generator;
    generated = await screensIndex();
    if (readFileSync(screensFile, 'utf8') !== generated) throw new Error('docs/SCREENS.md is stale: run npm run screens');
  }, 120_000);

  it("names a page's component, its contracts with the server file serving them, and its tests", () => {
    const section = (key: string) => generated.split(/^## /m).find((part) => part.startsWith(`${key}:`)) ?? '';
    const marksheet = section('marksheet');
    expect(marksheet).toContain('`/marks/marksheet`');
    expect(marksheet).toContain('`MarksheetPage` in `apps/web/src/features/marksheet/MarksheetPage.tsx`');
    expect(marksheet).toMatch(
      /`marksheetEndpoint` \(endpoint\): GET `\/api\/school\/marks\/marksheet`; served by `apps\/server\/src\/[^`]+`/,
    );
    expect(marksheet).toContain('`e2e/marksheet.test.ts`');
    const subjects = section('subjects');
    expect(subjects).toContain('`subjects` (resource): GET, POST `/api/school/subjects`; GET, PUT, DELETE `/api/school/subjects/:id`');
    expect(subjects).toContain('`apps/server/src/modules/settings/settings.routes.ts`');
    expect(subjects).toContain('`e2e/settings.test.ts`');
    // A page with a parameter is found by the address a test builds: /students/${id}.
    expect(section('studentDetail')).toContain('`e2e/students.test.ts`');
    expect(section('averageMarksheet')).toContain('`e2e/avg-marksheet.test.ts`');
    expect(section('progressReport')).toContain('`e2e/progress-report.test.ts`');
    // A page whose issue has not landed shows its title (while one is left: the index's table names it).
    const placeholder = /^\| (\w+) \| `[^`]+` \| none yet \(shows its title\) \|$/m.exec(generated)?.[1];
    if (placeholder) expect(section(placeholder)).toContain('none yet');
    // No address of this machine: every file is named from the repository's root.
    expect(generated).not.toContain(new URL('../../../', import.meta.url).pathname);
  });
});
