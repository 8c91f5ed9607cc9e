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
