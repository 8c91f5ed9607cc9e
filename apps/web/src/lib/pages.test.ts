import { describe, expect, it } from 'vitest';
import { isBusinessPage, PAGES, PROTECTED_ROUTES, pathTo, showsOneRecord } from './pages.js';

describe('showsOneRecord (where switching school goes to the dashboard)', () => {
  it('is true on the page of one learner, grade set or competency', () => {
    expect(showsOneRecord('/students/0193b3c2-0000-7000-8000-000000000001')).toBe(true);
    expect(showsOneRecord('/grades-detail/0193b3c2-0000-7000-8000-000000000001')).toBe(true);
    expect(showsOneRecord('/competency-detail/42')).toBe(true);
  });

  it('is false on lists, even those whose path an id route also matches', () => {
    expect(showsOneRecord('/students/list')).toBe(false);
    expect(showsOneRecord('/students/categories')).toBe(false);
    expect(showsOneRecord('/grades')).toBe(false);
    expect(showsOneRecord('/dashboard')).toBe(false);
  });
});

describe('PAGES (each page declared once)', () => {
  it('gives every page its own path, and every title is the page key’s', () => {
    const paths = PROTECTED_ROUTES.map((route) => route.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const [key, page] of Object.entries(PAGES)) expect(page.title).toBe(`pages.${key}`);
  });

  it('fills a page’s parameters into its address', () => {
    expect(pathTo(PAGES.studentDetail, { id: 'abc' })).toBe('/students/abc');
    expect(pathTo(PAGES.gradeDetail, { id: '7' })).toBe('/grades-detail/7');
  });
});

describe('isBusinessPage (what a school is told is a business’s)', () => {
  it('is true under /inventory/ and /business/, false for shared and school pages', () => {
    for (const page of [PAGES.products, PAGES.productGroups, PAGES.partners, PAGES.banks, PAGES.stockLocations])
      expect(isBusinessPage(page)).toBe(true);
    for (const page of [PAGES.dashboard, PAGES.users, PAGES.businesses, PAGES.subjects, PAGES.students])
      expect(isBusinessPage(page)).toBe(false);
  });
});
