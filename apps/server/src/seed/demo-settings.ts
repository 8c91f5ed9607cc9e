import { DEFAULT_GRADE_BANDS, TERMS } from '@mustard/shared';
import { newId } from '../db/ids.js';
import type { Trx } from '../db/tenant.js';

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

/** Beginning, middle and end of term: the three exams of a Ugandan term, weighted 20/30/50. */
const MARK_TYPES: Array<[label: string, category: string, percentage: number]> = [
  ['BOT', 'test', 20],
  ['MOT', 'test', 30],
  ['EOT', 'exam', 50],
];

const SUBJECT_COMMENTS: Array<[grade: string, comment: string]> = [
  ['D1', 'Excellent work. Keep it up.'],
  ['D2', 'Very good work.'],
  ['C3', 'Good work.'],
  ['C4', 'Good; aim higher.'],
  ['C5', 'Fair work.'],
  ['C6', 'Fair; more effort is needed.'],
  ['P7', 'Weak; work harder.'],
  ['P8', 'Very weak; see your teacher.'],
  ['F9', 'Failed; needs serious attention.'],
];

/** Report comments by aggregate (primary, 4 best is 4) or average mark (secondary). */
const REPORT_COMMENTS = {
  primary: [
    [4, 12, 'An excellent performance, {name}. Keep it up.', 'A first grade. Well done, {name}.'],
    [13, 23, 'A good performance; aim for first grade.', 'Good work; push for a first grade.'],
    [24, 29, 'Fair; more effort is needed.', 'You can do better with more effort.'],
    [30, 36, 'Weak; let us work together to improve.', 'Needs close support at school and at home.'],
  ],
  secondary: [
    [80, 100, 'An excellent performance, {name}. Keep it up.', 'Outstanding. Well done, {name}.'],
    [60, 79.99, 'A good performance; aim higher.', 'Good work; keep pushing.'],
    [40, 59.99, 'Fair; more effort is needed.', 'You can do better with more effort.'],
    [0, 39.99, 'Weak; let us work together to improve.', 'Needs close support at school and at home.'],
  ],
} as const;

/**
 * Settings a demo school needs before marks can be entered (issue 4): subjects, mark types,
 * grade sets and proportions for every term of `year` and every subject each class offers
 * (`offers`), remark types and automatic comments. Runs inside the tenant's transaction; a
 * school that already has subjects is left as it is.
 */
export async function seedSchoolSettings(
  trx: Trx,
  tenantId: string,
  school: { schooltype: string; classes: string[] },
  year: number,
): Promise<void> {
  const existing = await trx.selectFrom('subjects').select('id').where('tenant_id', '=', tenantId).executeTakeFirst();
  if (existing) return;
  const row = () => ({ tenant_id: tenantId, id: newId() });

  await trx
    .insertInto('student_categories')
    .values([
      { ...row(), name: 'Day scholar', remarks: 'Goes home every evening' },
      { ...row(), name: 'Boarder', remarks: 'Lives at school during term' },
    ])
    .execute();

  const subjectSeeds = school.schooltype === 'secondary' ? SECONDARY_SUBJECTS : PRIMARY_SUBJECTS;
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
  for (let start = 0; start < grades.length; start += 500)
    await trx
      .insertInto('grades')
      .values(grades.slice(start, start + 500))
      .execute();
  for (let start = 0; start < proportions.length; start += 500) {
    await trx
      .insertInto('proportions')
      .values(proportions.slice(start, start + 500))
      .execute();
  }

  const classTeacher = { ...row(), label: "Class teacher's comment", category: 'exam', parent_id: null, position: 1, forms: null };
  const headTeacher = { ...row(), label: "Head teacher's comment", category: 'exam', parent_id: null, position: 2, forms: null };
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
    .values(SUBJECT_COMMENTS.map(([score, comment]) => ({ ...row(), score, comment, category: 'general' })))
    .execute();

  const bands = REPORT_COMMENTS[school.schooltype === 'secondary' ? 'secondary' : 'primary'];
  await trx
    .insertInto('auto_report_comments')
    .values(
      school.classes.flatMap((form) =>
        bands.flatMap(([from, to, classComment, headComment]) => [
          { ...row(), form, remarktype_id: classTeacher.id, score: from, upper: to, comment: classComment },
          { ...row(), form, remarktype_id: headTeacher.id, score: from, upper: to, comment: headComment },
        ]),
      ),
    )
    .execute();
}

/** A shop's two stock locations. */
export async function seedShopSettings(trx: Trx, tenantId: string): Promise<void> {
  const existing = await trx.selectFrom('locations').select('id').where('tenant_id', '=', tenantId).executeTakeFirst();
  if (existing) return;
  await trx
    .insertInto('locations')
    .values([
      { tenant_id: tenantId, id: newId(), name: 'Main store', code: 'MS' },
      { tenant_id: tenantId, id: newId(), name: 'Shop front', code: 'SF' },
    ])
    .execute();
}
