/**
 * The texts of the screens behind the dashboard (lists, sheets, reports, settings), by their
 * top-level key in the locale files: each language's file is served in two parts, the rest
 * (sign-in, the frame, the dashboard, messages) with the first paint, these with the first
 * screen that needs them. A cold /login and /dashboard download about a third less text. A key
 * not listed here is in the first part, so a new text is never missing.
 */
export const SCREEN_TEXTS: ReadonlyArray<string> = [
  'analysis',
  'applyAll',
  'accountScreens',
  'avgMarksheet',
  'businessReports',
  'businessUploads',
  'catalogue',
  'classCurricula',
  'classValues',
  'comments',
  'cumulativeReport',
  'curriculum',
  'deleteComments',
  'efrisScreens',
  'empty',
  'externalSignIn',
  'gradingRules',
  'grades',
  'mailOutbox',
  'marksheet',
  'ncMarksheet',
  'ncTerminalReport',
  'paymentScreens',
  'people',
  'progressReport',
  'register',
  'reportComments',
  'reportEmail',
  'reportFilter',
  'reportLayout',
  'reportSettings',
  'reset',
  'salesScreens',
  'signinDomains',
  'staff',
  'statistics',
  'stockScreens',
  'students',
  'termCopy',
  'termDates',
  'terminalReport',
  'uploads',
];

export type LocalePart = 'core' | 'screens';

/**
 * The server's and the rules' catalogues (`messages.<catalogue>`) the first paint may show: a
 * refused sign-in, a failed call's status, a bad field, a school or person not found, an
 * invitation or a sign-up answered. They stay in the first part (lib/messages.ts translates a
 * message by the English texts loaded).
 */
export const FIRST_PAINT_MESSAGES: ReadonlyArray<string> = ['errors', 'input', 'login', 'signinDomains', 'tenant', 'user', 'register'];

/**
 * Texts inside a first-paint key that only the screens need, as `parent.child`: the business
 * side's messages are shown on its screens alone, and a school's cold dashboard need not carry them.
 * So with the school's catalogues a screen's call answers with (marks, students, settings, reports
 * and the rest): the sign-in, the frame and the dashboard show only those of FIRST_PAINT_MESSAGES.
 */
export const SCREEN_TEXT_BRANCHES: ReadonlyArray<readonly [parent: string, child: string]> = [
  ['messages', 'passwordReset'],
  ['messages', 'settings'],
  ['messages', 'gradeSet'],
  ['messages', 'results'],
  ['messages', 'students'],
  ['messages', 'inUse'],
  ['messages', 'marks'],
  ['messages', 'reports'],
  ['messages', 'gradingRules'],
  ['messages', 'comments'],
  ['messages', 'remarks'],
  ['messages', 'projectScores'],
  ['messages', 'curriculum'],
  ['messages', 'business'],
  ['messages', 'stock'],
  ['messages', 'sales'],
  ['messages', 'payments'],
  ['messages', 'accounts'],
  ['messages', 'efris'],
  ['messages', 'businessReports'],
];

/** The part of a locale file's texts: its screens' keys (and branches), or every other. */
export function localePart(texts: Record<string, unknown>, part: LocalePart): Record<string, unknown> {
  const screens = part === 'screens';
  const result: Record<string, unknown> = Object.fromEntries(
    Object.entries(texts).filter(([key]) => SCREEN_TEXTS.includes(key) === screens),
  );
  for (const [parent, child] of SCREEN_TEXT_BRANCHES) {
    const branch = texts[parent];
    if (!branch || typeof branch !== 'object' || !(child in branch)) continue;
    const moved = (branch as Record<string, unknown>)[child];
    const current = (result[parent] as Record<string, unknown> | undefined) ?? {};
    if (screens) result[parent] = { ...current, [child]: moved };
    else result[parent] = Object.fromEntries(Object.entries(current).filter(([key]) => key !== child));
  }
  return result;
}
