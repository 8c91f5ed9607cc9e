import type { Action, SubjectClass } from '@mustard/shared';
import { generatePath, matchPath } from 'react-router';

/**
 * Every protected route of spec §2, exact-match, with the ability it needs (§6) and its
 * title key. Pages whose features arrive with later issues show their title only.
 */
export interface RouteDefinition {
  path: string;
  title: string;
  ability?: { action: Action; subject: SubjectClass };
}

const manage = (subject: SubjectClass) => ({ action: 'manage' as const, subject });
const recordStock = { action: 'create', subject: 'stock' } as const;
const readBusinessReports = { action: 'read', subject: 'business-report' } as const;

/**
 * Each page's path and title, declared here once: the router's registry (app/registry.tsx, page
 * key to component), the sidebar, links between pages and the list screens name a page by its
 * key (`PAGES.subjects.path`). It lives in lib/ so that features, resources and components read
 * it without importing the app's frame.
 */
export const PAGES = {
  dashboard: { path: '/dashboard', title: 'pages.dashboard' },
  /** The platform's mail outbox: its administrator's (the API refuses everyone else). */
  mailOutbox: { path: '/mail-outbox', title: 'pages.mailOutbox' },
  businesses: { path: '/businesses', title: 'pages.businesses', ability: { action: 'read', subject: 'tenant' } },
  /** The platform's external sign-in domains: its administrator's (the API refuses everyone else). */
  signinDomains: { path: '/signin-domains', title: 'pages.signinDomains' },
  users: { path: '/users', title: 'pages.users', ability: { action: 'read', subject: 'user' } },
  stockLocations: { path: '/inventory/stock/locations', title: 'pages.stockLocations' },
  // The stock screens (issue 31 point 5): every member reads them; recording needs `create stock`.
  stockOnHand: { path: '/inventory/stock/onhand', title: 'pages.stockOnHand' },
  stockReceive: { path: '/inventory/stock/receive', title: 'pages.stockReceive', ability: recordStock },
  stockAdjust: { path: '/inventory/stock/adjust', title: 'pages.stockAdjust', ability: recordStock },
  stockTransfer: { path: '/inventory/stock/transfer', title: 'pages.stockTransfer', ability: recordStock },
  stockLedger: { path: '/inventory/stock/ledger', title: 'pages.stockLedger' },
  stockLow: { path: '/inventory/stock/low', title: 'pages.stockLow' },
  stockValuation: { path: '/inventory/stock/valuation', title: 'pages.stockValuation' },
  // A business's spreadsheet uploads (issue 31 point 6): the product list and opening stock.
  businessUploads: { path: '/inventory/uploads', title: 'pages.businessUploads', ability: manage('product') },
  efris: { path: '/business/efris', title: 'pages.efris', ability: { action: 'read', subject: 'efris' } },
  subjects: { path: '/subjects/list', title: 'pages.subjects' },
  subjectTeachers: { path: '/subjects/teachers', title: 'pages.subjectTeachers' },
  classTeachers: { path: '/classteachers', title: 'pages.classTeachers' },
  studentCategories: { path: '/students/categories', title: 'pages.studentCategories' },
  students: { path: '/students/list', title: 'pages.students' },
  studentDetail: { path: '/students/:id', title: 'pages.studentDetail' },
  deputies: { path: '/school/deputies', title: 'pages.deputies' },
  gradeFooters: { path: '/school/gradefoots', title: 'pages.gradeFooters' },
  reportFooters: { path: '/school/reportfooters', title: 'pages.reportFooters' },
  reportLayout: { path: '/school/reportlayout', title: 'pages.reportLayout', ability: manage('setting') },
  subjectPapers: { path: '/school/subjectpapers', title: 'pages.subjectPapers' },
  markTypes: { path: '/marks/categories', title: 'pages.markTypes' },
  createMarks: { path: '/marks/create', title: 'pages.createMarks', ability: { action: 'create', subject: 'mark' } },
  deleteMarks: { path: '/marks/delete', title: 'pages.deleteMarks', ability: manage('mark') },
  marksheet: { path: '/marks/marksheet', title: 'pages.marksheet', ability: manage('mark') },
  averageMarksheet: { path: '/marks/avgmarksheet', title: 'pages.averageMarksheet' },
  marks: { path: '/school/marks', title: 'pages.marks' },
  markTargets: { path: '/school/marktargets', title: 'pages.markTargets', ability: manage('mark') },
  createMarkTargets: { path: '/school/marktargets/create', title: 'pages.createMarkTargets', ability: manage('mark') },
  attendance: { path: '/attendance/create', title: 'pages.attendance', ability: manage('remark') },
  remarkTypes: { path: '/comments/categories', title: 'pages.remarkTypes' },
  autoSubjectComments: { path: '/comments/automarkcomments', title: 'pages.autoSubjectComments' },
  autoReportComments: { path: '/comments/autoreportcomments', title: 'pages.autoReportComments' },
  subjectComments: { path: '/comments/subject', title: 'pages.subjectComments' },
  deleteComments: { path: '/comments/delete', title: 'pages.deleteComments', ability: manage('remark') },
  reportComments: { path: '/comments/report', title: 'pages.reportComments' },
  ncReportComments: { path: '/school/mark_newcurriculumcomment', title: 'pages.ncReportComments' },
  genericSkills: { path: '/school/mark_genericcomment', title: 'pages.genericSkills' },
  ncRemarks: { path: '/school/ncreportremark', title: 'pages.ncRemarks' },
  grades: { path: '/grades', title: 'pages.grades' },
  termDates: { path: '/school/termdates', title: 'pages.termDates' },
  gradingRules: { path: '/school/gradingrules', title: 'pages.gradingRules', ability: manage('setting') },
  curricula: { path: '/school/curricula', title: 'pages.curricula', ability: manage('setting') },
  newGrade: { path: '/grades/new', title: 'pages.newGrade' },
  gradeDetail: { path: '/grades-detail/:id', title: 'pages.gradeDetail' },
  proportions: { path: '/proportions', title: 'pages.proportions' },
  publishMarks: { path: '/school/publishmarks', title: 'pages.publishMarks', ability: manage('publish-mark') },
  alevelScores: { path: '/alevelscores', title: 'pages.alevelScores' },
  terminalReport: { path: '/terminalreport', title: 'pages.terminalReport' },
  cumulativeReport: { path: '/cummulativereport', title: 'pages.cumulativeReport' },
  progressReport: { path: '/progressreport', title: 'pages.progressReport' },
  statistics: { path: '/otherstats', title: 'pages.statistics' },
  resultAnalysis: { path: '/resultanalysis', title: 'pages.resultAnalysis' },
  ncMarksheet: { path: '/school/ncmarksheet', title: 'pages.ncMarksheet', ability: manage('mark') },
  ncTerminalReport: { path: '/school/ncterminalreport', title: 'pages.ncTerminalReport' },
  competencies: { path: '/school/topics', title: 'pages.competencies' },
  newCompetency: { path: '/school/topics/new', title: 'pages.newCompetency', ability: manage('mark') },
  competencyDetail: { path: '/competency-detail/:id', title: 'pages.competencyDetail' },
  projects: { path: '/school/projects', title: 'pages.projects' },
  newProject: { path: '/school/projects/new', title: 'pages.newProject', ability: manage('mark') },
  projectDetail: { path: '/project-detail/:id', title: 'pages.projectDetail' },
  projectScores: { path: '/school/projectscores/new', title: 'pages.projectScores', ability: { action: 'create', subject: 'mark' } },
  // A business's catalogue, partners and reference data (issue 31): every member reads them, so no ability.
  products: { path: '/inventory/products', title: 'pages.products' },
  productGroups: { path: '/inventory/productgroups', title: 'pages.productGroups' },
  partners: { path: '/business/partners', title: 'pages.partners' },
  currencies: { path: '/business/currencies', title: 'pages.currencies' },
  taxes: { path: '/business/taxes', title: 'pages.taxes' },
  whduties: { path: '/business/whduties', title: 'pages.whduties' },
  banks: { path: '/business/banks', title: 'pages.banks' },
  // Getting paid (issue 32 points 2 and 3): every member reads receipts and memos; recording them needs `create sale`.
  receipts: { path: '/business/sales/receipts', title: 'pages.receipts' },
  newReceipt: { path: '/business/sales/receipts/new', title: 'pages.newReceipt', ability: { action: 'create', subject: 'sale' } },
  memos: { path: '/business/sales/memos', title: 'pages.memos' },
  newMemo: { path: '/business/sales/memos/new', title: 'pages.newMemo', ability: { action: 'create', subject: 'sale' } },
  // The books and money out (issue 32 points 4 and 5): the chart and vouchers for every member; the reports for those who read accounts.
  accounts: { path: '/business/accounts', title: 'pages.accounts' },
  trialBalance: { path: '/business/accounts/trial-balance', title: 'pages.trialBalance', ability: { action: 'read', subject: 'account' } },
  journal: { path: '/business/accounts/journal', title: 'pages.journal', ability: { action: 'read', subject: 'account' } },
  vouchers: { path: '/business/vouchers', title: 'pages.vouchers' },
  newVoucher: { path: '/business/vouchers/new', title: 'pages.newVoucher', ability: { action: 'create', subject: 'voucher' } },
  voucher: { path: '/business/vouchers/:id', title: 'pages.voucher' },
  // The shop owner's daily reports (issue 32 point 8): for those who read business reports.
  businessCashup: { path: '/business/reports/cashup', title: 'pages.businessCashup', ability: readBusinessReports },
  businessDebtors: { path: '/business/reports/debtors', title: 'pages.businessDebtors', ability: readBusinessReports },
  businessVat: { path: '/business/reports/vat', title: 'pages.businessVat', ability: readBusinessReports },
  businessProfit: { path: '/business/reports/profit', title: 'pages.businessProfit', ability: readBusinessReports },
  // Selling (issue 32 points 1 and 9): every member reads the invoices; selling needs `create sale`.
  salesCounter: { path: '/business/sales/counter', title: 'pages.salesCounter', ability: { action: 'create', subject: 'sale' } },
  salesInvoices: { path: '/business/sales/invoices', title: 'pages.salesInvoices' },
  salesInvoiceNew: { path: '/business/sales/invoices/new', title: 'pages.salesInvoiceNew', ability: { action: 'create', subject: 'sale' } },
  salesInvoice: { path: '/business/sales/invoices/:id', title: 'pages.salesInvoice' },
} as const satisfies Record<string, RouteDefinition>;

/** A page's key: what the registry maps to its component. */
export type PageKey = keyof typeof PAGES;

export const PROTECTED_ROUTES: RouteDefinition[] = Object.values(PAGES);

/** A page's address with its parameters filled in: `pathTo(PAGES.studentDetail, { id })`. */
export function pathTo(page: RouteDefinition, params: Record<string, string>): string {
  return generatePath(page.path, params);
}

/**
 * The pages a business opens: its dashboard, what it keeps, its tenants and its people. Every
 * other page is a school's (classes, marks, reports) and says so to a business that types it.
 */
export const BUSINESS_PAGES: ReadonlyArray<RouteDefinition> = [
  PAGES.dashboard,
  PAGES.stockLocations,
  PAGES.businesses,
  PAGES.mailOutbox,
  PAGES.users,
  PAGES.signinDomains,
];

/**
 * Where a business's own pages live (its catalogue, stock, partners and reference data): a
 * business opens every page under them, a school none (it is told they are a business's). A new
 * business page under one of them needs no list of its own.
 */
export const BUSINESS_PATH_PREFIXES = ['/inventory/', '/business/'] as const;

/** Whether the page is a business's alone (its path is under a business prefix). */
export function isBusinessPage(route: RouteDefinition): boolean {
  return BUSINESS_PATH_PREFIXES.some((prefix) => route.path.startsWith(prefix));
}

/**
 * Whether the page shows one record (its route has an id), which another school cannot show.
 * A page with a route of its own wins: /students/list is a list, though /students/:id matches it.
 */
export function showsOneRecord(pathname: string): boolean {
  if (PROTECTED_ROUTES.some((route) => !route.path.includes('/:') && matchPath(route.path, pathname))) return false;
  return PROTECTED_ROUTES.some((route) => route.path.includes('/:') && matchPath(route.path, pathname));
}
