import type { Action, SubjectClass, TenantSummary } from '@mustard/shared';
import { PAGES, type RouteDefinition } from './pages.js';

const manage = (subject: SubjectClass) => ({ action: 'manage' as const, subject });

/** The sidebar of spec §2 "Navigation chrome": groups of entries, each a route. */
export interface NavEntry {
  label: string;
  to: string;
  ability?: { action: Action; subject: SubjectClass };
  /** Shown only for secondary schools (the new lower-secondary curriculum). */
  secondaryOnly?: boolean;
  /** An expandable group: the screens of one area (issue 13 point 5); `to` is its first screen. */
  children?: NavEntry[];
}

const entry = (label: string, page: RouteDefinition): NavEntry => ({
  label,
  to: page.path,
  ...(page.ability ? { ability: page.ability } : {}),
});

/**
 * A business (a tenant whose category is not School) has no classes, marks or reports: its
 * frame shows what a business keeps (issue 10 point 8, issue 31). Every member reads the lists;
 * an entry whose screen is for changing records (the catalogue, partners, reference data) is
 * shown to those who may manage it. Invoices and the rest join here as they are built.
 */
export const BUSINESS_NAVIGATION: Array<{ label: string; entries: NavEntry[] }> = [
  { label: '', entries: [{ label: 'nav.dashboard', to: PAGES.dashboard.path }] },
  {
    // Selling (issue 32 point 9): the counter sale and the invoices; receipts and memos join here.
    label: 'nav.sales',
    entries: [
      entry('nav.salesCounter', PAGES.salesCounter),
      entry('nav.salesInvoices', PAGES.salesInvoices),
      entry('nav.salesReceipts', PAGES.receipts),
      entry('nav.salesMemos', PAGES.memos),
    ],
  },
  {
    // The stock screens (on hand, receive, adjust, transfer, ledger, low stock, valuation) and the
    // spreadsheet uploads join this group as their pages land; a group with none is not shown.
    label: 'nav.stock',
    entries: [
      entry('nav.stockOnHand', PAGES.stockOnHand),
      entry('nav.stockReceive', PAGES.stockReceive),
      entry('nav.stockAdjust', PAGES.stockAdjust),
      entry('nav.stockTransfer', PAGES.stockTransfer),
      entry('nav.stockLedger', PAGES.stockLedger),
      entry('nav.stockLow', PAGES.stockLow),
      entry('nav.stockValuation', PAGES.stockValuation),
      entry('nav.businessUploads', PAGES.businessUploads),
    ],
  },
  {
    // Money out and the books (issue 32): vouchers for every member, the reports for those who read accounts.
    label: 'nav.money',
    entries: [
      entry('nav.vouchers', PAGES.vouchers),
      entry('nav.accounts', PAGES.accounts),
      entry('nav.trialBalance', PAGES.trialBalance),
      entry('nav.journal', PAGES.journal),
    ],
  },
  {
    label: 'nav.catalogue',
    entries: [
      { ...entry('nav.products', PAGES.products), ability: manage('product') },
      { ...entry('nav.productGroups', PAGES.productGroups), ability: manage('product') },
    ],
  },
  {
    label: 'nav.partners',
    entries: [{ ...entry('nav.customersSuppliers', PAGES.partners), ability: manage('company') }],
  },
  {
    // The daily reports (issue 32 point 8), each titled as its page: for those who read business reports.
    label: 'nav.businessReports',
    entries: [PAGES.businessCashup, PAGES.businessDebtors, PAGES.businessVat, PAGES.businessProfit].map((page) => entry(page.title, page)),
  },
  {
    label: 'nav.settings',
    entries: [
      { label: 'nav.stockLocations', to: PAGES.stockLocations.path },
      { ...entry('nav.currencies', PAGES.currencies), ability: manage('business-setting') },
      { ...entry('nav.taxes', PAGES.taxes), ability: manage('business-setting') },
      { ...entry('nav.whduties', PAGES.whduties), ability: manage('business-setting') },
      { ...entry('nav.banks', PAGES.banks), ability: manage('business-setting') },
      entry('nav.efris', PAGES.efris),
      entry('nav.businesses', PAGES.businesses),
    ],
  },
];

/**
 * A school's menu. Its Settings are the school's own: stock locations belong to a business and
 * the list of businesses to the platform's administrator, whose account menu opens it (issue 24
 * point 7).
 */
export const NAVIGATION: Array<{ label: string; entries: NavEntry[] }> = [
  { label: '', entries: [{ label: 'nav.dashboard', to: PAGES.dashboard.path }] },
  {
    label: 'nav.general',
    entries: [
      {
        label: 'nav.students',
        to: PAGES.students.path,
        children: [entry('nav.classList', PAGES.students), entry('nav.studentCategories', PAGES.studentCategories)],
      },
      {
        label: 'nav.marks',
        to: PAGES.marks.path,
        children: [
          entry('nav.marks', PAGES.marks),
          entry('nav.createMarks', PAGES.createMarks),
          entry('nav.deleteMarks', PAGES.deleteMarks),
          { ...entry('nav.marksheet', PAGES.marksheet), ability: manage('mark') },
          { ...entry('nav.averageMarksheet', PAGES.averageMarksheet), ability: manage('mark') },
          { ...entry('nav.markTargets', PAGES.markTargets), ability: manage('mark') },
        ],
      },
      {
        label: 'nav.comments',
        to: PAGES.reportComments.path,
        children: [
          entry('nav.reportComments', PAGES.reportComments),
          entry('nav.subjectComments', PAGES.subjectComments),
          entry('nav.genericSkills', PAGES.genericSkills),
          entry('nav.deleteComments', PAGES.deleteComments),
          entry('nav.remarkTypes', PAGES.remarkTypes),
          entry('nav.autoSubjectComments', PAGES.autoSubjectComments),
          entry('nav.autoReportComments', PAGES.autoReportComments),
        ],
      },
      {
        label: 'nav.newCurriculum',
        to: PAGES.competencies.path,
        secondaryOnly: true,
        children: [
          entry('nav.competencies', PAGES.competencies),
          entry('nav.projects', PAGES.projects),
          entry('nav.ncReportComments', PAGES.ncReportComments),
          entry('nav.ncRemarks', PAGES.ncRemarks),
          entry('nav.ncMarksheet', PAGES.ncMarksheet),
          entry('nav.ncTerminalReport', PAGES.ncTerminalReport),
        ],
      },
    ],
  },
  {
    label: 'nav.reports',
    entries: [
      { label: 'nav.terminalReport', to: PAGES.terminalReport.path },
      { label: 'nav.cumulativeReport', to: PAGES.cumulativeReport.path },
      { label: 'nav.progressiveReport', to: PAGES.progressReport.path, ability: manage('mark') },
      { label: 'nav.generalStatistics', to: PAGES.statistics.path },
      { label: 'nav.resultAnalytics', to: PAGES.resultAnalysis.path },
      { label: 'nav.gradeFooter', to: PAGES.gradeFooters.path },
      { label: 'nav.reportFooter', to: PAGES.reportFooters.path },
      entry('nav.reportLayout', PAGES.reportLayout),
      { label: 'nav.recordAttendance', to: PAGES.attendance.path, ability: manage('remark') },
    ],
  },
  {
    label: 'nav.settings',
    entries: [
      { label: 'nav.grades', to: PAGES.grades.path },
      { label: 'nav.termDates', to: PAGES.termDates.path },
      entry('nav.gradingRules', PAGES.gradingRules),
      { ...entry('nav.curricula', PAGES.curricula), secondaryOnly: true },
      { label: 'nav.proportions', to: PAGES.proportions.path },
      { label: 'nav.alevelScores', to: PAGES.alevelScores.path },
      { label: 'nav.subjects', to: PAGES.subjects.path },
      { label: 'nav.classTeachers', to: PAGES.classTeachers.path },
      { label: 'nav.deputyHeadTeachers', to: PAGES.deputies.path },
      { label: 'nav.subjectTeachers', to: PAGES.subjectTeachers.path },
      entry('nav.markTypes', PAGES.markTypes),
      entry('nav.publishMarks', PAGES.publishMarks),
      entry('nav.subjectPapers', PAGES.subjectPapers),
    ],
  },
];

/** Whether the tenant is a school (spec §3 tenant category), which decides the whole frame. */
export function isSchool(tenant: Pick<TenantSummary, 'category'> | null | undefined): boolean {
  return !tenant || tenant.category === 'School';
}

/** The sidebar's groups with the entries this user may see in this tenant (spec §2, §6). */
export function visibleNavigation(
  can: (action: string, subject?: string) => boolean,
  tenant: Pick<TenantSummary, 'category' | 'schooltype'> | null | undefined,
) {
  const secondary = tenant?.schooltype === 'secondary';
  const visible = (entry: NavEntry) =>
    (!entry.ability || can(entry.ability.action, entry.ability.subject)) && (!entry.secondaryOnly || secondary);
  // A group shows the screens the user may open; with none it is hidden.
  const shown = (entry: NavEntry): NavEntry | null => {
    if (!visible(entry)) return null;
    if (!entry.children) return entry;
    const children = entry.children.filter(visible);
    return children.length === 0 ? null : { ...entry, children };
  };
  return (isSchool(tenant) ? NAVIGATION : BUSINESS_NAVIGATION)
    .map((group) => ({ ...group, entries: group.entries.map(shown).filter((entry): entry is NavEntry => entry !== null) }))
    .filter((group) => group.entries.length > 0);
}

/** The path of every screen an entry leads to: itself, or its group's screens. */
export function entryPaths(entry: NavEntry): string[] {
  return entry.children ? entry.children.map((child) => child.to) : [entry.to];
}
