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

describe('a business’s menu (issue 31)', () => {
  const shop = { category: 'Retail', schooltype: 'primary' } as const;
  const labels = (groups: ReturnType<typeof visibleNavigation>) => groups.map((group) => group.label);
  const catalogue = [PAGES.products, PAGES.productGroups, PAGES.partners, PAGES.currencies, PAGES.taxes, PAGES.whduties, PAGES.banks];

  it('shows a business its catalogue, partners and settings, and none of a school’s menus', () => {
    const groups = visibleNavigation(everything, shop);
    expect(labels(groups)).toEqual([
      '',
      'nav.sales',
      'nav.stock',
      'nav.money',
      'nav.catalogue',
      'nav.partners',
      'nav.businessReports',
      'nav.settings',
    ]);
    const shown = paths(groups);
    for (const page of catalogue) expect(shown).toContain(page.path);
    expect(shown).toContain(PAGES.stockLocations.path);
    const school = paths(visibleNavigation(everything, { category: 'School', schooltype: 'secondary' }));
    expect(shown.filter((path) => path !== PAGES.dashboard.path && school.includes(path))).toEqual([]);
  });

  it('hides what a member may not manage: a storekeeper keeps the dashboard and the locations', () => {
    const storekeeper = (action: string, subject?: string) => action === 'create' && subject === 'stock';
    const groups = visibleNavigation(storekeeper, shop);
    expect(labels(groups)).toEqual(['', 'nav.sales', 'nav.stock', 'nav.money', 'nav.settings']);
    // Every member reads the stock; a storekeeper (create stock) records it too.
    const stock = [PAGES.stockOnHand, PAGES.stockReceive, PAGES.stockAdjust, PAGES.stockTransfer, PAGES.stockLedger, PAGES.stockLow];
    expect(paths(groups)).toEqual([
      PAGES.dashboard.path,
      // Every member reads the invoices; the counter is for those who sell.
      PAGES.salesInvoices.path,
      // Every member reads the receipts and memos too; recording them needs create sale.
      PAGES.receipts.path,
      PAGES.memos.path,
      ...stock.map((page) => page.path),
      PAGES.stockValuation.path,
      // Every member reads the vouchers and the chart; the trial balance and journal need read account.
      PAGES.vouchers.path,
      PAGES.accounts.path,
      PAGES.stockLocations.path,
    ]);
    const reader = paths(visibleNavigation(() => false, shop));
    expect(reader).toContain(PAGES.stockOnHand.path);
    expect(reader).not.toContain(PAGES.stockReceive.path);
    // One ability each: the catalogue's (product), the partners' (company), the reference data's (business-setting).
    const only = (subject: string) => paths(visibleNavigation((action, asked) => action === 'manage' && asked === subject, shop));
    expect(only('product')).toEqual(expect.arrayContaining([PAGES.products.path, PAGES.productGroups.path]));
    expect(only('product')).not.toContain(PAGES.partners.path);
    expect(only('company')).toContain(PAGES.partners.path);
    expect(only('company')).not.toContain(PAGES.products.path);
    expect(only('business-setting')).toEqual(
      expect.arrayContaining([PAGES.currencies.path, PAGES.taxes.path, PAGES.whduties.path, PAGES.banks.path]),
    );
    expect(only('business-setting')).not.toContain(PAGES.productGroups.path);
  });

  it('leaves a school’s menu as it was: no business page in it', () => {
    for (const schooltype of ['primary', 'secondary'] as const) {
      const groups = visibleNavigation(everything, { category: 'School', schooltype });
      expect(labels(groups)).toEqual(['', 'nav.general', 'nav.reports', 'nav.settings']);
      const shown = paths(groups);
      expect(shown).toContain(PAGES.students.path);
      for (const page of catalogue) expect(shown).not.toContain(page.path);
    }
  });
});
