import type { GradingRules } from '../grading/engine/rules.js';

/*
 * The words a report card prints, shared by its two renderers (HTML preview, PDF) so that the
 * preview is what prints. A report card is the school's document in the school's language of
 * instruction (English for the schools Mustard serves); the screens around it speak the user's.
 */
export const REPORT_WORDS = {
  term: 'TERM',
  name: 'Name',
  studentId: 'Student ID',
  class: 'Class',
  sex: 'Sex',
  subject: 'Subject',
  total: 'Total',
  grade: 'Grade',
  points: 'Points',
  comment: 'Comment',
  initials: 'Initials',
  average: 'Average',
  aggregate: 'Aggregate',
  division: 'Division',
  totalPoints: 'Total points',
  positionStream: 'Position in stream',
  positionClass: 'Position in class',
  outOf: 'out of',
  attendance: 'Days attended',
  classTeacher: "Class teacher's remarks",
  headTeacher: "Head teacher's remarks",
  gradeKey: 'Grading key',
  paper: 'Papers',
  female: 'Female',
  male: 'Male',
  warnings: 'To check before printing',
  lin: 'LIN',
  nextTermBegins: 'Next term begins',
  nextTermEnds: 'Next term ends',
  feesBalance: 'Fees balance',
  signature: 'signature',
  classTeacherSigns: "Class teacher's signature",
  headTeacherSigns: "Head teacher's signature",
  weighted: 'weighted',
} as const;

/**
 * Cut, never rounded (issue 24 point 4): a total of 59.96 prints 59.9 beside its C6, never the 60
 * of a C5; a school that rounds has its marks rounded before grading (grading rules `rounding`).
 */
const NUMBER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1, roundingMode: 'trunc' });

/** A number as a report prints it (spec §9: US English, thousands separators): 1,234.5; none as "-". */
export function reportNumber(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '-' : NUMBER.format(value);
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** A day (YYYY-MM-DD) as a card prints it: "1 May 2026" (no clock, no time zone). */
export function reportDate(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  const name = MONTHS[(month ?? 0) - 1];
  return name && year && date ? `${date} ${name} ${year}` : day;
}

/**
 * An amount of money (a decimal's exact text, "150000.00") as a card prints it: "150,000",
 * "1,250.50", "-20,000"; the digits themselves, never through a float.
 */
export function reportMoney(amount: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!match) return amount;
  const [, sign, whole = '0', fraction = ''] = match;
  const grouped = whole.replace(/^0+(?=\d)/, '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const cents = fraction.replace(/0+$/, '') === '' ? '' : `.${fraction.padEnd(2, '0')}`;
  return `${grouped === '0' && cents === '' ? '' : sign}${grouped}${cents}`;
}

/** How a missed test (ABS in one mark type) counts: the grading rules' `missed`, when the school's rules carry it. */
export type MissedRule = 'reweight' | 'zero' | 'none';
/** How a subject's mark is rounded before grading: the grading rules' `rounding`, when they carry it. */
export type RoundingRule = 'none' | 'whole' | 'oneDecimal';

/**
 * The rules of the missed test and of rounding as the school's rules hold them. Rules saved
 * before these existed have neither: a missed test then leaves the subject without a total
 * (what the grader did before) and nothing is rounded.
 */
export function cardRules(rules: GradingRules): { missed: MissedRule; rounding: RoundingRule } {
  const more = rules as GradingRules & { missed?: unknown; rounding?: unknown };
  const missed = more.missed === 'reweight' || more.missed === 'zero' || more.missed === 'none' ? more.missed : 'none';
  const rounding = more.rounding === 'whole' || more.rounding === 'oneDecimal' ? more.rounding : 'none';
  return { missed, rounding };
}

/** "D1–C6": the first and last label of a run of grades (one label alone when the run has one). */
const run = (labels: string[]) => (labels.length <= 1 ? (labels[0] ?? '') : `${labels[0]}–${labels[labels.length - 1]}`);

/** The grades line of the key: "Grades: D1–C6 credit, P7–P8 pass, F9 fail". */
function gradesLine(rules: GradingRules): string {
  const values = [...rules.grades.values].sort((a, b) => a.value - b.value);
  const credit = values.filter((grade) => grade.value <= rules.grades.creditAtMost).map((grade) => grade.label);
  const pass = values
    .filter((grade) => grade.value > rules.grades.creditAtMost && grade.value <= rules.grades.passAtMost)
    .map((grade) => grade.label);
  const fail = values.filter((grade) => grade.value > rules.grades.passAtMost).map((grade) => grade.label);
  const parts = [
    credit.length ? `${run(credit)} credit` : '',
    pass.length ? `${run(pass)} pass` : '',
    fail.length ? `${run(fail)} fail` : '',
  ].filter(Boolean);
  return `Grades: ${parts.join(', ')}`;
}

/** "Division I: aggregate 4–12; Division II: aggregate 13–23; …; Division U: aggregate above 34". */
function divisionLine(divisions: ReadonlyArray<{ division: string; aggregateAtMost: number }>, lowest: number, otherwise: string): string {
  let from = lowest;
  const parts = divisions.map((division) => {
    const text = `Division ${division.division}: aggregate ${from}–${division.aggregateAtMost}`;
    from = division.aggregateAtMost + 1;
    return text;
  });
  const last = divisions[divisions.length - 1];
  if (last) parts.push(`Division ${otherwise}: aggregate above ${last.aggregateAtMost}`);
  return parts.join('; ');
}

/**
 * The key a card prints whatever the school wrote (issue 24 point 3): the grades, the division
 * rule in force (PLE: the counted subjects; UCE: the best subjects; UACE: the points), what X
 * means, how a missed test counts, how marks are rounded, and what the mark type columns hold.
 * Pure: the same lines on the preview and the PDF.
 */
export function reportKeyLines(
  rules: GradingRules,
  level: 'primary' | 'olevel' | 'alevel' | 'plain',
  /** `total`: the total column's title where it is not Total (the cumulative report's Label). */
  marks: { headings: string[]; raw: boolean; total?: string | undefined },
): string[] {
  const lines = [gradesLine(rules)];
  const best = Math.min(...rules.grades.values.map((grade) => grade.value));
  const noMark = rules.primary.noMark;
  if (level === 'primary') {
    const counted = rules.primary.countedCategories.length;
    lines.push(
      `${divisionLine(rules.primary.divisions, counted * best, rules.primary.otherwise)} (the ${counted} counted subjects)`,
      `${noMark}: no mark in a counted subject, not graded`,
    );
  } else if (level === 'olevel') {
    const { bestCount } = rules.olevel;
    lines.push(
      `${divisionLine(rules.olevel.divisions, bestCount * best, rules.olevel.otherwise)} (the best ${bestCount} subjects)`,
      `${noMark}: not graded, no mark`,
    );
  } else if (level === 'alevel') {
    const { points, subsidiary } = rules.alevel;
    lines.push(
      `Points: ${Object.entries(points)
        .map(([letter, value]) => `${letter} ${value}`)
        .join(', ')}; a subsidiary pass ${subsidiary.points}`,
    );
  }
  const { missed, rounding } = cardRules(rules);
  const example = marks.headings[1] ?? marks.headings[0];
  const abs = example ? `${example.split(' ')[0]} ABS` : 'ABS';
  if (missed === 'reweight') lines.push(`${abs}: a test missed; the subject is graded on the tests sat, re-weighted`);
  else if (missed === 'zero') lines.push(`${abs}: a test missed, counted as 0`);
  else lines.push(`${abs}: a test missed; the subject has no total and is not graded`);
  if (rounding === 'whole') lines.push('Totals are rounded to a whole number before grading');
  else if (rounding === 'oneDecimal') lines.push('Totals are rounded to one decimal before grading');
  const total = marks.total ?? 'Total';
  if (marks.headings.length > 0)
    lines.push(
      marks.raw
        ? `${marks.headings.join(', ')}: marks as entered; ${total}: out of 100`
        : `${marks.headings.join(', ')}: each test's weighted part of the total; ${total}: out of 100`,
    );
  return lines;
}
