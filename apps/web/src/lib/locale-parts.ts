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
  'avgMarksheet',
  'catalogue',
  'classCurricula',
  'classValues',
  'comments',
  'cumulativeReport',
  'curriculum',
  'deleteComments',
  'empty',
  'externalSignIn',
  'gradingRules',
  'grades',
  'mailOutbox',
  'marksheet',
  'ncMarksheet',
  'ncTerminalReport',
  'people',
  'progressReport',
  'register',
  'reportComments',
  'reportEmail',
  'reportFilter',
  'reportLayout',
  'reportSettings',
  'reset',
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

/** The part of a locale file's texts: its screens' keys, or every other. */
export function localePart(texts: Record<string, unknown>, part: LocalePart): Record<string, unknown> {
  return Object.fromEntries(Object.entries(texts).filter(([key]) => SCREEN_TEXTS.includes(key) === (part === 'screens')));
}
