import { describe, expect, it } from 'vitest';
import { entryPaths, visibleNavigation } from './navigation.js';
import { PAGES } from './pages.js';

const everything = () => true;
const paths = (groups: ReturnType<typeof visibleNavigation>) => groups.flatMap((group) => group.entries.flatMap(entryPaths));

describe('the menu (issue 24 point 7)', () => {
  it('keeps stock locations and the businesses out of a school’s menu, even for an administrator', () => {
    const school = paths(visibleNavigation(everything, { category: 'School', schooltype: 'primary' }));
    expect(school).toContain(PAGES.subjectPapers.path);
    expect(school).not.toContain(PAGES.stockLocations.path);
    expect(school).not.toContain(PAGES.businesses.path);
  });

  it('shows a business its stock locations, and the businesses to whoever may read them', () => {
    expect(paths(visibleNavigation(everything, { category: 'Shop', schooltype: 'primary' }))).toEqual(
      expect.arrayContaining([PAGES.stockLocations.path, PAGES.businesses.path]),
    );
    const member = paths(
      visibleNavigation((action, subject) => !(action === 'read' && subject === 'tenant'), { category: 'Shop', schooltype: 'primary' }),
    );
    expect(member).toContain(PAGES.stockLocations.path);
    expect(member).not.toContain(PAGES.businesses.path);
  });
});
