import {
  ALEVEL_LETTERS,
  type AlevelLetter,
  currentTerm,
  DEFAULT_GRADE_BANDS,
  defaultCurriculum,
  defaultTermDates,
  isPerPaperForm,
  localDay,
  TERMS,
  type Term,
} from '@mustard/shared';
import { sql } from 'kysely';
import { inBatches } from '../db/batches.js';
import { newId } from '../db/ids.js';
import type { TenantTx, Trx } from '../db/tenant.js';
import { inTenant } from '../db/tenant-filter.js';
import { reportLevel } from '../modules/reports/report-model.js';

/*
 * The Ugandan defaults of a school (issue 24 point 1): what a school needs before its teachers
 * can enter marks and print a card, and nothing of anybody's learners, people, marks or fees.
 * One copy, used by the demo seed (demo.ts, for its two schools) and by a new school that
 * starts with the defaults (`seedSchoolDefaults`: the tenants screen, `mustard create-tenant
 * --defaults`, and later the sign-up). The grading rules and report layout are the product's
 * defaults by having no row (report-settings), so they follow the code as it improves.
 */

type SubjectSeed = [name: string, category: string, abbreviation: string, olevelcategory: string | null, multiplePaperForms?: string];

/** The subjects of a Ugandan primary school (PLE's four counted first). */
const PRIMARY_SUBJECTS: SubjectSeed[] = [
  ['English', 'english', 'ENG', null],
  ['Mathematics', 'mathematics', 'MTC', null],
  ['Integrated Science', 'science', 'SCI', null],
  ['Social Studies', 'humanity', 'SST', null],
  ['Religious Education', 'general', 'RE', null],
  ['Luganda', 'general', 'LUG', null],
];

/** O and A level subjects of a Ugandan secondary school; A-level subjects sit several papers. */
const SECONDARY_SUBJECTS: SubjectSeed[] = [
  ['English Language', 'english', 'ENG', 'language'],
  ['Mathematics', 'mathematics', 'MTC', 'science', 'S5,S6'],
  ['Physics', 'science', 'PHY', 'science', 'S5,S6'],
  ['Chemistry', 'science', 'CHE', 'science', 'S5,S6'],
  ['Biology', 'science', 'BIO', 'science', 'S5,S6'],
  ['Geography', 'humanity', 'GEO', 'humanity', 'S5,S6'],
  ['History', 'humanity', 'HIS', 'humanity', 'S5,S6'],
  ['Christian Religious Education', 'humanity', 'CRE', 'humanity'],
  ['Literature in English', 'general', 'LIT', 'language'],
  ['Kiswahili', 'general', 'KIS', 'language'],
  ['Agriculture', 'general', 'AGR', 'optional'],
  ['Computer Studies', 'general', 'ICT', 'optional'],
  ['Entrepreneurship', 'general', 'ENT', 'optional'],
  ['General Paper', 'subsidiary', 'GP', null],
  ['Subsidiary Mathematics', 'subsidiary', 'SUBMTC', null],
];

/**
 * The secondary curriculum, by level. O level (S1 to S4): every learner sits the seven subjects
 * of the lower secondary curriculum's core and one elective. A level (S5, S6): every learner sits
 * a combination of three principal subjects with General Paper and a subsidiary. A class offers
 * (has grade sets for) what its learners may sit: O level all but the A-level subsidiaries, A
 * level the subjects of its combinations.
 */
export const O_LEVEL_CORE = ['English Language', 'Mathematics', 'Physics', 'Chemistry', 'Biology', 'Geography', 'History'] as const;
export const O_LEVEL_ELECTIVES = [
  'Christian Religious Education',
  'Literature in English',
  'Kiswahili',
  'Agriculture',
  'Computer Studies',
  'Entrepreneurship',
] as const;
/** Principal subjects and the subsidiary (Subsidiary Mathematics, or Computer Studies as Subsidiary ICT); General Paper for all. */
export const A_LEVEL_COMBINATIONS: ReadonlyArray<{ name: string; subjects: readonly string[] }> = [
  { name: 'PCM', subjects: ['Physics', 'Chemistry', 'Mathematics', 'Computer Studies'] },
  { name: 'BCM', subjects: ['Biology', 'Chemistry', 'Mathematics', 'Computer Studies'] },
  { name: 'BCG', subjects: ['Biology', 'Chemistry', 'Geography', 'Subsidiary Mathematics'] },
  { name: 'HEG', subjects: ['History', 'Entrepreneurship', 'Geography', 'Subsidiary Mathematics'] },
];
export const A_LEVEL_COMMON = ['General Paper'] as const;
const O_LEVEL = /^S[1-4]$/i;
const A_LEVEL = /^S[56]$/i;

/** Whether a class offers a subject: the curriculum's level for S1 to S6, every subject elsewhere. */
export function offers(form: string, subject: string): boolean {
  if (O_LEVEL.test(form))
    return (O_LEVEL_CORE as readonly string[]).includes(subject) || (O_LEVEL_ELECTIVES as readonly string[]).includes(subject);
  if (A_LEVEL.test(form))
    return (
      (A_LEVEL_COMMON as readonly string[]).includes(subject) ||
      A_LEVEL_COMBINATIONS.some((combination) => combination.subjects.includes(subject))
    );
  return true;
}

/** Papers per subject (UNEB) in the A-level classes; a school without a subject skips it. */
export const A_LEVEL_PAPERS: { forms: readonly string[]; bySubject: Readonly<Record<string, number>> } = {
  forms: ['S5', 'S6'],
  // History: UNEB sets six option papers, of which a candidate sits two.
  bySubject: {
    Mathematics: 2,
    Physics: 3,
    Chemistry: 3,
    Biology: 3,
    Geography: 3,
    History: 2,
    'General Paper': 1,
    'Subsidiary Mathematics': 1,
  },
};

/** Beginning, middle and end of term: the three exams of a Ugandan term, weighted 20/30/50. */
const MARK_TYPES: Array<[label: string, category: string, percentage: number]> = [
  ['BOT', 'test', 20],
  ['MOT', 'test', 30],
  ['EOT', 'exam', 50],
];

/**
 * Automatic subject comments by grade label, for each category the comment screens read
 * ('general': subject comments; 'nc general': the remark on competency under the new
 * curriculum; 'nc skill': generic skills). Every label a demo report can show has one: the grade
 * sets' D1 to F9 and the letters an A-level principal subject is given from its papers (its row
 * shows the letter); the new curriculum's by identifier (Outstanding, Moderate, Basic: the
 * identifier a learner's subject score has). Each names the learner, so the texts read as
 * written for them.
 */
const GENERAL_COMMENTS: Readonly<Record<string, string>> = {
  D1: 'Excellent work, {name}. Keep it up.',
  D2: 'Very good work, {name}. Aim for the top.',
  C3: 'Good work, {name}; a little more effort will earn {him} a distinction.',
  C4: 'Good, {name}. {He} can do better with more revision.',
  C5: 'A fair credit, {name}; more revision is needed.',
  C6: 'A fair result, {name}; {he} must put in more effort.',
  P7: 'A weak pass, {name}. {He} should practise more and ask questions in class.',
  P8: 'Weak, {name}; {he} needs more practice and close guidance.',
  F9: '{name} has not yet grasped this subject; {he} needs extra help and serious effort.',
  A: 'Excellent work, {name}. Keep it up.',
  B: 'Very good work, {name}. Aim for an A.',
  C: 'Good work, {name}; more revision will earn {him} a higher grade.',
  D: 'A fair result, {name}; {he} must revise more.',
  E: 'A weak pass, {name}. {He} should work much harder.',
  O: '{name} earned only a subsidiary pass; {he} needs serious revision.',
  F: '{name} has failed this subject; {he} needs extra help and serious effort.',
};

const NEW_CURRICULUM_COMMENTS: Readonly<Record<string, string>> = {
  Outstanding: '{name} has achieved most or all of the learning outcomes and applies {his} knowledge with confidence.',
  Moderate: '{name} has achieved many of the learning outcomes; {he} should apply them to new situations more often.',
  Basic: '{name} has achieved a few of the learning outcomes; {he} needs regular practice and close guidance.',
};

const GENERIC_SKILLS_COMMENTS: Readonly<Record<string, string>> = {
  Outstanding: '{name} communicates clearly, thinks critically and leads {his} group well.',
  Moderate: '{name} works well with others; {he} should share {his} ideas more in class.',
  Basic: '{name} needs encouragement to take part in group work and to share {his} ideas.',
};

/** The D1..F9 grade each A-level letter reads like, for the categories without texts of their own for letters. */
const LETTER_READS_LIKE: Readonly<Record<AlevelLetter, string>> = { A: 'D1', B: 'D2', C: 'C4', D: 'C6', E: 'P7', O: 'P8', F: 'F9' };

/** Every automatic subject comment of a demo school: each grade label and A-level letter, and each identifier. */
export function demoSubjectComments(): Array<{ category: string; score: string; comment: string }> {
  const withLetters = (texts: Readonly<Record<string, string>>) => ({
    ...texts,
    ...Object.fromEntries(ALEVEL_LETTERS.map((letter) => [letter, texts[letter] ?? (texts[LETTER_READS_LIKE[letter]] as string)])),
  });
  const byCategory = { general: withLetters(GENERAL_COMMENTS), 'nc general': NEW_CURRICULUM_COMMENTS, 'nc skill': GENERIC_SKILLS_COMMENTS };
  return Object.entries(byCategory).flatMap(([category, texts]) =>
    Object.entries(texts).map(([score, comment]) => ({ category, score, comment })),
  );
}

/** The remark types the demo's automatic report comments (and its seeded remarks) are written for. */
export const CLASS_TEACHER_REMARK = "Class teacher's comment";
export const HEAD_TEACHER_REMARK = "Head teacher's comment";

type ReportBand = readonly [from: number, to: number, classTeacher: string, headTeacher: string];

/**
 * Automatic report comments by the result a class's remarks are matched to (remarks.service.ts
 * resultOf): the PLE aggregate of four subjects in a primary school (4 best, 36 worst), the UCE
 * aggregate of the best eight at O level (1 to 72: fewer than eight graded subjects make a
 * smaller one), the UACE points at A level (0 to 20, 20 best). Each level's bands cover its whole
 * range with no gap (results are whole numbers) and follow its divisions.
 */
const REPORT_COMMENTS: Readonly<Record<'primary' | 'olevel' | 'alevel' | 'newCurriculum', readonly ReportBand[]>> = {
  // The overall score of a new-curriculum learner (the mean of the subject scores, 1 to 3, cut
  // to two decimals), by the identifier bands.
  newCurriculum: [
    [
      2.5,
      3,
      '{name} has achieved most of the learning outcomes this term; {he} should keep it up.',
      'Outstanding work. Congratulations, {name}.',
    ],
    [
      1.5,
      2.49,
      '{name} has achieved many of the learning outcomes; with more practice {he} can do better still.',
      'A moderate achievement; {name} should aim for outstanding.',
    ],
    [
      0,
      1.49,
      '{name} is still building the basic competences; {he} needs regular practice.',
      "{name}'s parents should see me about {his} progress.",
    ],
  ],
  primary: [
    [4, 8, '{name} has worked very hard this term; {he} should keep it up.', 'An excellent first grade. Congratulations, {name}.'],
    [9, 12, 'A very good performance, {name}. Keep working hard.', 'A good first grade; well done, {name}.'],
    [
      13,
      18,
      '{name} has done well this term; with more effort {he} can reach a first grade.',
      'A good second grade. {name} can reach division one.',
    ],
    [19, 23, 'A fair second grade; {name} needs to revise more.', '{name} should work harder to improve {his} grade.'],
    [24, 29, '{name} can do better; {he} should put in more effort next term.', 'A third grade; {name} needs to work much harder.'],
    [
      30,
      34,
      '{name} needs more help at school and at home to improve.',
      'A weak performance, {name}; {his} parents should follow {him} up closely.',
    ],
    [35, 36, '{name} has found this term very hard; {he} needs close support.', "{name}'s parents should see me about {his} progress."],
  ],
  olevel: [
    [1, 20, 'An excellent performance, {name}. Keep it up.', 'A distinguished first grade; congratulations, {name}.'],
    [21, 32, '{name} has worked hard this term; {he} should keep it up.', 'A first grade. Well done, {name}.'],
    [33, 45, 'A good performance; {name} can reach a first grade with more effort.', 'A second grade. {name} should aim higher.'],
    [46, 58, '{name} can do better; {he} needs to revise more and manage {his} time well.', 'A third grade; {name} must work harder.'],
    [
      59,
      68,
      '{name} is struggling in several subjects; {he} needs to work much harder.',
      'A weak fourth grade, {name}; {he} needs close support.',
    ],
    [
      69,
      72,
      '{name} has performed poorly this term; {he} must change {his} attitude to work.',
      "{name}'s parents should see me about {his} performance.",
    ],
  ],
  alevel: [
    [17, 20, 'An excellent performance, {name}; keep up this hard work.', 'Excellent results. Congratulations, {name}.'],
    [13, 16, '{name} has worked hard this term; {he} should keep it up.', 'Very good results; {name} should aim for the top.'],
    [9, 12, 'A fair performance; {name} can do better with more private study.', '{name} must work harder to secure a university place.'],
    [5, 8, '{name} needs to revise much more and consult {his} teachers.', 'Weak results; {name} must put in far more effort.'],
    [0, 4, '{name} has performed poorly; {he} needs close guidance.', "{name}'s parents should see me about {his} results."],
  ],
};

/** A class's automatic report comment bands: its level's (the report cards' level of the class), the new curriculum's for S1-S4 of a secondary school. */
export function demoReportBands(schooltype: string, form: string): readonly ReportBand[] {
  if (defaultCurriculum(schooltype, form) === 'new') return REPORT_COMMENTS.newCurriculum;
  const level = reportLevel(schooltype, 'exam', isPerPaperForm(form));
  return level === 'plain' ? [] : REPORT_COMMENTS[level];
}

/**
 * Settings a school needs before marks can be entered (issue 4): subjects, mark types, grade
 * sets and proportions for every term of `year` and every subject each class offers (`offers`),
 * remark types and automatic comments. The subjects are the `curriculum`'s (the school type's
 * unless named); the automatic report comments follow the school type, as its cards do. Runs
 * inside the tenant's transaction; a school that already has subjects is left as it is (false).
 */
export async function seedSchoolSettings(
  trx: Trx,
  tenantId: string,
  school: { schooltype: string; classes: readonly string[]; curriculum?: SchoolDefaults },
  year: number,
): Promise<boolean> {
  const existing = await trx.selectFrom('subjects').select('id').where('tenant_id', '=', tenantId).executeTakeFirst();
  if (existing) return false;
  const row = () => ({ tenant_id: tenantId, id: newId() });

  await trx
    .insertInto('student_categories')
    .values([
      { ...row(), name: 'Day scholar', remarks: 'Goes home every evening' },
      { ...row(), name: 'Boarder', remarks: 'Lives at school during term' },
    ])
    .execute();

  const subjectSeeds = (school.curriculum ?? school.schooltype) === 'secondary' ? SECONDARY_SUBJECTS : PRIMARY_SUBJECTS;
  const subjects = subjectSeeds.map(([name, category, abbreviation, olevelcategory, paperForms], index) => ({
    ...row(),
    name,
    category,
    abbreviation,
    olevelcategory,
    position: index + 1,
    weeklylabel: null,
    multiple_papers: Boolean(paperForms),
    multiple_paper_forms: paperForms ?? null,
  }));
  await trx.insertInto('subjects').values(subjects).execute();

  const markTypes = MARK_TYPES.map(([label, category, percentage], index) => ({
    ...row(),
    label,
    category,
    position: index + 1,
    percentage,
  }));
  await trx
    .insertInto('mark_types')
    .values(markTypes.map(({ percentage: _percentage, ...markType }) => markType))
    .execute();

  const grades = [];
  const proportions = [];
  for (const form of school.classes) {
    for (const subject of subjects.filter((offered) => offers(form, offered.name))) {
      for (const term of TERMS) {
        for (const [grade, lower, upper] of DEFAULT_GRADE_BANDS.default) {
          grades.push({ ...row(), subject_id: subject.id, form, term, year, grade, lower, upper });
        }
        for (const markType of markTypes) {
          proportions.push({
            ...row(),
            form,
            term,
            year,
            subject_id: subject.id,
            marktype_id: markType.id,
            percentage: markType.percentage,
          });
        }
      }
    }
  }
  await inBatches(grades, (batch) => trx.insertInto('grades').values(batch).execute());
  await inBatches(proportions, (batch) => trx.insertInto('proportions').values(batch).execute());

  const classTeacher = { ...row(), label: CLASS_TEACHER_REMARK, category: 'exam', parent_id: null, position: 1, forms: null };
  const headTeacher = { ...row(), label: HEAD_TEACHER_REMARK, category: 'exam', parent_id: null, position: 2, forms: null };
  const skills = {
    ...row(),
    label: 'Skills and values',
    category: 'exam',
    parent_id: null,
    position: 3,
    forms: null,
    displaytype: 'table',
  };
  await trx.insertInto('remark_types').values([classTeacher, headTeacher, skills]).execute();
  await trx
    .insertInto('remark_types')
    .values(
      ['Conduct', 'Neatness', 'Punctuality'].map((label, index) => ({
        ...row(),
        label,
        category: 'exam',
        parent_id: skills.id,
        position: index + 1,
        forms: null,
        displaytype: 'table',
      })),
    )
    .execute();

  await trx
    .insertInto('auto_mark_comments')
    .values(demoSubjectComments().map((auto) => ({ ...row(), ...auto })))
    .execute();

  const reportComments = school.classes.flatMap((form) =>
    demoReportBands(school.schooltype, form).flatMap(([from, to, classComment, headComment]) => [
      { ...row(), form, remarktype_id: classTeacher.id, score: from, upper: to, comment: classComment },
      { ...row(), form, remarktype_id: headTeacher.id, score: from, upper: to, comment: headComment },
    ]),
  );
  if (reportComments.length > 0) await trx.insertInto('auto_report_comments').values(reportComments).execute();
  return true;
}

/** The Ugandan defaults a school may start with: a primary or a secondary school's. */
export type SchoolDefaults = 'primary' | 'secondary';

/** A grading key as report cards print it: "D1 80-100, D2 75-79, …, F9 0-34". */
export function gradingKey(bands: ReadonlyArray<readonly [grade: string, lower: number, upper: number]>): string {
  return bands.map(([grade, lower, upper]) => `${grade} ${lower}-${upper}`).join(', ');
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** A day as a Ugandan report card writes it: "Friday, 1 May 2026" (from YYYY-MM-DD, no time zone involved). */
export function longDate(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return `${WEEKDAYS[date.getUTCDay()]}, ${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

/** The first day of the term after `term` (Term III's is Term I of the next year), by the Ugandan default calendar. */
export function nextTermStarts(term: Term, year: number): string {
  const index = TERMS.indexOf(term);
  return index < TERMS.length - 1 ? defaultTermDates(year)[index + 1]!.starts : defaultTermDates(year + 1)[0]!.starts;
}

/** A line to sign or to fill in by hand on the printed card. */
export const HAND_LINE = '______________________________';

/**
 * The line at the foot of a new school's end-of-term card, for each class and a term, that the
 * card does not print by itself: next term's fees, a line to fill in by hand until the school
 * writes the amount (Settings, Report footers). The card prints the signature lines of the class
 * and head teacher, next term's dates (from the school's own calendar) and each learner's fees
 * balance by default; a footer titled so would take their place, fixed, so none is written.
 */
export function defaultFooterRows(classes: readonly string[], term: Term, year: number) {
  return classes.map((form) => ({
    title: 'Fees for next term',
    form,
    term,
    year,
    category: 'exam' as const,
    position: 1,
    remarks: `UGX ${HAND_LINE}`,
  }));
}

/** The year a new school's settings are for: the current term's (in December's holiday, the next year's). */
export function defaultsYear(day: string = localDay()): number {
  return currentTerm(day, defaultTermDates(Number(day.slice(0, 4)))).year;
}

/** What a school has after the defaults, counted (a school that had subjects already keeps its own). */
export interface DefaultsSummary {
  subjects: number;
  markTypes: number;
  grades: number;
  proportions: number;
  remarkTypes: number;
  autoComments: number;
  footers: number;
}

async function count(
  tx: TenantTx,
  table:
    | 'subjects'
    | 'mark_types'
    | 'grades'
    | 'proportions'
    | 'remark_types'
    | 'auto_mark_comments'
    | 'auto_report_comments'
    | 'report_footers',
): Promise<number> {
  const row = await tx.trx
    .selectFrom(table)
    .select(sql<number>`count(*)::int`.as('n'))
    .$call(inTenant(tx.tenantId))
    .executeTakeFirstOrThrow();
  return row.n;
}

/**
 * Gives a new school the Ugandan primary or secondary defaults (issue 24 point 1), in the
 * caller's transaction (the tenant's own, so a school is never left half set up): the settings
 * of `seedSchoolSettings` for each of its classes and the three terms of `year`, a grading key
 * for each class, the foot of its cards for each term, and (secondary) the UNEB papers of each
 * A-level subject. Nothing of the demo's learners,
 * people, marks or fees. A school that already has subjects is left as it is.
 */
export async function seedSchoolDefaults(
  tx: TenantTx,
  school: { schooltype: string; classes: readonly string[] },
  defaults: SchoolDefaults,
  year: number = defaultsYear(),
): Promise<DefaultsSummary> {
  const { trx, tenantId } = tx;
  const seeded = await seedSchoolSettings(trx, tenantId, { ...school, curriculum: defaults }, year);
  if (seeded) {
    const row = () => ({ tenant_id: tenantId, id: newId() });
    const key = gradingKey(DEFAULT_GRADE_BANDS.default);
    await trx
      .insertInto('grade_footers')
      .values(school.classes.map((form) => ({ ...row(), form, stream: null, details: key })))
      .onConflict((oc) => oc.doNothing())
      .execute();
    if (defaults === 'secondary') {
      const subjects = await trx.selectFrom('subjects').select(['id', 'name']).$call(inTenant(tenantId)).execute();
      const papers = TERMS.flatMap((term) =>
        A_LEVEL_PAPERS.forms
          .filter((form) => school.classes.includes(form))
          .flatMap((form) =>
            subjects
              .filter((subject) => A_LEVEL_PAPERS.bySubject[subject.name] !== undefined)
              .map((subject) => ({ ...row(), form, term, year, subject_id: subject.id, papers: A_LEVEL_PAPERS.bySubject[subject.name]! })),
          ),
      );
      if (papers.length > 0)
        await trx
          .insertInto('subject_papers')
          .values(papers)
          .onConflict((oc) => oc.doNothing())
          .execute();
    }
    const footers = TERMS.flatMap((term) => defaultFooterRows(school.classes, term, year));
    await inBatches(footers, (batch) =>
      trx
        .insertInto('report_footers')
        .values(batch.map((footer) => ({ ...row(), ...footer })))
        .onConflict((oc) => oc.doNothing())
        .execute(),
    );
  }
  return {
    subjects: await count(tx, 'subjects'),
    markTypes: await count(tx, 'mark_types'),
    grades: await count(tx, 'grades'),
    proportions: await count(tx, 'proportions'),
    remarkTypes: await count(tx, 'remark_types'),
    autoComments: (await count(tx, 'auto_mark_comments')) + (await count(tx, 'auto_report_comments')),
    footers: await count(tx, 'report_footers'),
  };
}
