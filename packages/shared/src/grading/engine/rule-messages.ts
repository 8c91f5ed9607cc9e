/*
 * Kept apart from rules.ts, whose schemas are built when it is imported: the message catalogue
 * (messages.ts) reaches every signed-in page, and the dashboard's cold load has no room for the
 * schema library (`npm run bench`: /dashboard <= 250 KB gzipped).
 */

/** The refusals of GradingRulesSchema, as catalogue sentences (translated elsewhere by exact text). */
export const GRADING_RULE_MESSAGES = {
  wholeNumber: 'Enter a whole number',
  notNegative: 'Enter a number of 0 or more',
  atLeastOne: 'Enter a number of 1 or more',
  labelEmpty: 'Enter the name of every grade',
  gradesEmpty: 'Add at least one grade',
  gradeLabelRepeated: 'Two grades have the same name',
  gradeValueRepeated: 'Two grades have the same value',
  creditAbovePass: 'A credit must be at least as good as a pass',
  unknownCategory: 'Choose a subject category from the list',
  categoryRepeated: 'A subject category is listed twice',
  countedEmpty: 'Choose at least one counted subject category',
  divisionsEmpty: 'Add at least one division',
  divisionNameEmpty: 'Enter the name of every division',
  divisionNameRepeated: 'Two divisions have the same name',
  divisionCapsUnsorted: 'Each division must allow a higher aggregate than the one before it',
  unknownLetter: 'Choose a letter from A, B, C, D, E, O and F',
  papersOutOfRange: 'A subject has from 1 to 6 papers',
  tablesEmpty: 'Add at least one letter table',
  tableRepeated: 'There are two tables for the same number of papers',
  ruleWithoutCondition: 'Give every rule at least one condition, or use the letter for all other cases',
  scoreRepeated: 'Two A-level scores have the same papers and total',
  scoreTotalUnreachable: 'This total cannot be reached with that number of papers',
  positionBasisUnknown: 'Choose what positions are ranked by from the list',
  positionIncompleteUnknown: 'Choose how incomplete results are ranked from the list',
  missedUnknown: 'Choose how a missed mark type counts from the list',
  roundingUnknown: 'Choose how the subject mark is rounded from the list',
  ncBoundsUnsorted: 'Each band must start lower than the one above it, and the last at 0',
  ncScoreOutOfRange: 'A score bound is from 0 to 3 with at most one decimal',
  ncPercentOutOfRange: 'A grade bound is a whole number from 0 to 100',
  ncFormativeUnknown: 'Choose how the formative 20% is made from the list',
} as const;
