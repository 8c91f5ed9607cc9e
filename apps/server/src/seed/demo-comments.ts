import {
  type AutoReportComment,
  type AutoSubjectComment,
  defaultCurriculum,
  matchReportComment,
  matchSubjectComment,
  personalise,
  type ReportModel,
  schoolTermScope,
  type Term,
  TerminalReportQuerySchema,
} from '@mustard/shared';
import { sql } from 'kysely';
import { newId } from '../db/ids.js';
import { bindTenant, type TenantTx, type Trx } from '../db/tenant.js';
import { inTenant } from '../db/tenant-filter.js';
import { classAois, learnerScores, overallScore } from '../modules/comments/nc-scores.js';
import { resultOf } from '../modules/comments/remarks.service.js';
import { loadGradingInputs } from '../modules/reports/pipeline/loader.js';
import { buildReportModel } from '../modules/reports/report-model.js';
import { terminalReportInputs } from '../modules/reports/terminal-report.kind.js';
import { classTermKey } from '../modules/students/class-learners.repository.js';
import { eotForms, REPORT_FORMS, type TeacherOf, teacherLookup } from './demo-marks.js';
import { CLASS_TEACHER_REMARK, HEAD_TEACHER_REMARK } from './demo-settings.js';

/*
 * The demo schools' comments (issue 16 point 8), for the marks term (demo-marks.ts):
 *
 * - half the classes are commented, the other half left for the teachers to write (and to try
 *   "Fill empty comments" on): the candidate classes, whose report cards the demo prints (P7,
 *   S4, S6), and every other class of those that sat the end-of-term exam (P1, P3; S1), so every
 *   commented class has a complete report card;
 * - in those classes a subject comment for each learner in each subject they have a result in,
 *   and the class teacher's and head teacher's remarks;
 * - each text is what a teacher gets from the school's own automatic comments: the learner's
 *   grade (subject comments) or aggregate or points (remarks) from the report model
 *   (report-model.ts, fed from a few reads of the whole school: classInputs), with the same
 *   matching (shared comments/auto.ts) as the comment screens, personalised with the learner's
 *   first name and pronouns. Nothing is graded here;
 * - written by whom the school would have them from: the subject teacher of the class and
 *   stream, its class teacher, and for the head teacher's remark the deputy head teacher over
 *   the class (the head teacher has no account in the demo).
 *
 * No comment_history rows, for the reason demo-marks.ts writes no mark history: a seeded
 * comment is nobody's change. Two statements per school (every subject comment, every remark),
 * each row's values as arrays (unnest), each skipping what a unique key already holds: seeding
 * again adds nothing, and a comment the school changed stays as it is.
 */

/** The report category the comments are written for: the end-of-term card's. */
const CATEGORY = 'exam';

/* ---- Deciding: pure. ---- */

/**
 * The classes with comments, half the school's (rounded down), in its order: the candidate
 * classes first, then every other of the rest that sat EOT. Half, not more: each commented
 * class is some 500 rows the first start writes.
 */
export function commentedForms(classes: readonly string[]): string[] {
  const candidates = classes.filter((form) => REPORT_FORMS.includes(form));
  const others = eotForms(classes)
    .filter((form) => !REPORT_FORMS.includes(form))
    .filter((_, index) => index % 2 === 0);
  const chosen = new Set([...candidates, ...others].slice(0, Math.floor(classes.length / 2)));
  return classes.filter((form) => chosen.has(form));
}

/** Who writes a class's comments, as the staff seed assigned them. */
export interface CommentWriters {
  subjectTeacher: TeacherOf;
  classTeacher: (form: string, stream: string | null) => string | null;
  headTeacher: (form: string) => string | null;
}

export interface SubjectCommentPlan {
  student_id: string;
  subject_id: string;
  form: string;
  stream: string | null;
  comment: string;
  user_id: string | null;
}

export interface RemarkPlan {
  student_id: string;
  remarktype_id: string;
  form: string;
  stream: string | null;
  comment: string;
  user_id: string | null;
}

/**
 * A class's comments from its report model: each learner's subject comment matched to the
 * subject's grade (or total), and their remarks matched to their result; none where nothing
 * matches (a subject or result without a mark, an absence from a counted exam).
 */
export function planClassComments(input: {
  model: ReportModel;
  firstnames: ReadonlyMap<string, string>;
  subjectAutos: ReadonlyArray<AutoSubjectComment>;
  reportAutos: ReadonlyArray<AutoReportComment>;
  remarkTypes: { classTeacher: string | null; headTeacher: string | null };
  writers: CommentWriters;
}): { comments: SubjectCommentPlan[]; remarks: RemarkPlan[] } {
  const { model, writers } = input;
  const form = model.report.form;
  const comments: SubjectCommentPlan[] = [];
  const remarks: RemarkPlan[] = [];
  for (const learner of model.learners) {
    const person = { firstname: input.firstnames.get(learner.id) ?? learner.fullname.split(' ')[0] ?? '', gender: learner.gender };
    for (const subject of learner.subjects) {
      const text = matchSubjectComment(input.subjectAutos, { grade: subject.grade, total: subject.total });
      if (!text) continue;
      comments.push({
        student_id: learner.id,
        subject_id: subject.subject_id,
        form,
        stream: learner.stream,
        comment: personalise(text, person),
        user_id: writers.subjectTeacher(form, learner.stream, subject.subject_id),
      });
    }
    const value = resultOf(model.report.level, learner);
    const writerOf = [
      [input.remarkTypes.classTeacher, writers.classTeacher(form, learner.stream)],
      [input.remarkTypes.headTeacher, writers.headTeacher(form)],
    ] as const;
    for (const [remarktypeId, userId] of writerOf) {
      if (!remarktypeId) continue;
      const text = matchReportComment(input.reportAutos, { form, remarktypeId, value });
      if (!text) continue;
      remarks.push({
        student_id: learner.id,
        remarktype_id: remarktypeId,
        form,
        stream: learner.stream,
        comment: personalise(text, person),
        user_id: userId,
      });
    }
  }
  return { comments, remarks };
}

/**
 * A new-curriculum class's comments (issue 27 point 6): each learner's remark on competency
 * ("nc general") and generic skills ("nc skill") matched to the subject score's identifier, and
 * their remarks matched to their overall score, as the new-curriculum comment screens match them.
 * A subject without a score (every activity missed) gets none.
 */
export function planNcClassComments(input: {
  form: string;
  learners: ReadonlyArray<{ id: string; firstname: string; gender: 'F' | 'M' | null; stream: string | null }>;
  scores: ReadonlyMap<
    string,
    ReadonlyArray<
      Parameters<typeof overallScore>[0][number] & { subject_id: string; score: { score: number | null; identifier: string | null } }
    >
  >;
  ncAutos: ReadonlyArray<AutoSubjectComment>;
  skillAutos: ReadonlyArray<AutoSubjectComment>;
  reportAutos: ReadonlyArray<AutoReportComment>;
  remarkTypes: { classTeacher: string | null; headTeacher: string | null };
  writers: CommentWriters;
}): { comments: SubjectCommentPlan[]; skills: SubjectCommentPlan[]; remarks: RemarkPlan[] } {
  const { form, writers } = input;
  const comments: SubjectCommentPlan[] = [];
  const skills: SubjectCommentPlan[] = [];
  const remarks: RemarkPlan[] = [];
  for (const learner of input.learners) {
    const person = { firstname: learner.firstname, gender: learner.gender };
    const subjects = input.scores.get(learner.id) ?? [];
    for (const subject of subjects) {
      const result = { grade: subject.score.identifier, total: subject.score.score };
      const row = { student_id: learner.id, subject_id: subject.subject_id, form, stream: learner.stream };
      const user_id = writers.subjectTeacher(form, learner.stream, subject.subject_id);
      const remark = matchSubjectComment(input.ncAutos, result);
      if (remark) comments.push({ ...row, comment: personalise(remark, person), user_id });
      const skill = matchSubjectComment(input.skillAutos, result);
      if (skill) skills.push({ ...row, comment: personalise(skill, person), user_id });
    }
    const value = overallScore(subjects).value;
    const writerOf = [
      [input.remarkTypes.classTeacher, writers.classTeacher(form, learner.stream)],
      [input.remarkTypes.headTeacher, writers.headTeacher(form)],
    ] as const;
    for (const [remarktypeId, userId] of writerOf) {
      if (!remarktypeId || value === null) continue;
      const text = matchReportComment(input.reportAutos, { form, remarktypeId, value });
      if (text)
        remarks.push({
          student_id: learner.id,
          remarktype_id: remarktypeId,
          form,
          stream: learner.stream,
          comment: personalise(text, person),
          user_id: userId,
        });
    }
  }
  return { comments, skills, remarks };
}

/* ---- The shell: read the school, write what is missing. ---- */

const key = (...parts: Array<string | null>) => parts.map((part) => (part ?? '').trim().toLowerCase()).join('|');

/** The school's automatic comments and remark types, and who writes what, read once for every class. */
async function schoolCommentSettings(trx: Trx, tenantId: string, term: Term, staffYear: number) {
  const autosOf = (category: string) =>
    trx
      .selectFrom('auto_mark_comments')
      .select(['score', 'comment'])
      .$call(inTenant(tenantId))
      .where('category', '=', category)
      .orderBy('score')
      .orderBy('id')
      .execute();
  const subjectAutos = await autosOf('general');
  const ncAutos = await autosOf('nc general');
  const skillAutos = await autosOf('nc skill');
  const reportAutos = await trx
    .selectFrom('auto_report_comments')
    .select(['form', 'remarktype_id', sql<number>`score::float8`.as('score'), sql<number>`upper::float8`.as('upper'), 'comment'])
    .$call(inTenant(tenantId))
    .orderBy('score')
    .orderBy('id')
    .execute();
  const types = await trx
    .selectFrom('remark_types')
    .select(['id', 'label'])
    .$call(inTenant(tenantId))
    .where('label', 'in', [CLASS_TEACHER_REMARK, HEAD_TEACHER_REMARK])
    .where('parent_id', 'is', null)
    .where('active', '=', true)
    .execute();
  const subjectTeachers = await trx
    .selectFrom('subject_teachers')
    .select(['user_id', 'form', 'stream', 'subject_id'])
    .$call(inTenant(tenantId))
    .where('year', '=', staffYear)
    .where('term', '=', term)
    .orderBy('id')
    .execute();
  const classTeachers = await trx
    .selectFrom('class_teachers')
    .select(['user_id', 'form', 'stream'])
    .$call(inTenant(tenantId))
    .where('year', '=', staffYear)
    .where('term', '=', term)
    .where('category', '=', 'primary')
    .orderBy('id')
    .execute();
  const deputies = await trx.selectFrom('deputies').select(['user_id', 'form']).$call(inTenant(tenantId)).orderBy('id').execute();

  const classTeacherOf = new Map<string, string>();
  for (const row of classTeachers)
    if (!classTeacherOf.has(key(row.form, row.stream))) classTeacherOf.set(key(row.form, row.stream), row.user_id);
  const deputyOf = new Map<string, string>();
  for (const row of deputies) if (!deputyOf.has(key(row.form))) deputyOf.set(key(row.form), row.user_id);
  return {
    subjectAutos,
    ncAutos,
    skillAutos,
    reportAutos: reportAutos.map((auto) => ({ ...auto, score: Number(auto.score), upper: Number(auto.upper) })),
    remarkTypes: {
      classTeacher: types.find((type) => type.label === CLASS_TEACHER_REMARK)?.id ?? null,
      headTeacher: types.find((type) => type.label === HEAD_TEACHER_REMARK)?.id ?? null,
    },
    writers: {
      subjectTeacher: teacherLookup(subjectTeachers),
      classTeacher: (form: string, stream: string | null) => classTeacherOf.get(key(form, stream)) ?? null,
      headTeacher: (form: string) => deputyOf.get(key(form)) ?? null,
    } satisfies CommentWriters,
  };
}

/**
 * The inputs of each class's end-of-term report (report-model.ts) with marks, the whole school's
 * term read at once by the report pipeline's loader (one query per table, as the cards read a
 * class) and made a card's inputs without its sources (no remarks, footers or photos yet: the
 * seed is writing them). The mark types are those the class has marks of, as an end-of-term
 * report without chosen mark types has them; weighted parts, whatever the layout.
 */
async function classInputs(tx: TenantTx, forms: readonly string[], at: { term: Term; year: number }) {
  if (forms.length === 0) return [];
  const load = await loadGradingInputs(tx, schoolTermScope([...forms], at.term, at.year, CATEGORY));
  return load.classes
    .filter((inputs) => inputs.marks.length > 0)
    .map((inputs) => {
      const query = TerminalReportQuerySchema.parse({ form: inputs.form, term: at.term, year: at.year, category: CATEGORY });
      const card = terminalReportInputs({ query, load: { ...load, classes: [inputs] }, sources: new Map([[classTermKey(inputs), {}]]) });
      return {
        inputs: { ...card, report: { ...card.report, rawmark: false } },
        firstnames: new Map(inputs.learners.map((learner) => [learner.id, learner.firstname])),
      };
    });
}

/** Subject comments of one kind: `general` (a subject comment, a remark on competency) or `skill` (generic skills). */
async function insertSubjectComments(
  trx: Trx,
  tenantId: string,
  at: { term: Term; year: number },
  rows: readonly SubjectCommentPlan[],
  kind: 'general' | 'skill' = 'general',
) {
  if (rows.length === 0) return;
  const column = <K extends keyof SubjectCommentPlan>(name: K) => rows.map((row) => row[name]);
  await sql`
    INSERT INTO mark_comments (tenant_id, term, year, category, kind, id, student_id, subject_id, form, stream, comment, user_id)
    SELECT ${tenantId}::uuid, ${at.term}, ${at.year}::integer, ${CATEGORY}, ${kind}, given.*
    FROM unnest(
      ${rows.map(() => newId())}::uuid[], ${column('student_id')}::uuid[], ${column('subject_id')}::uuid[], ${column('form')}::text[],
      ${column('stream')}::text[], ${column('comment')}::text[], ${column('user_id')}::uuid[]
    ) AS given
    ON CONFLICT DO NOTHING
  `.execute(trx);
}

async function insertRemarks(trx: Trx, tenantId: string, at: { term: Term; year: number }, rows: readonly RemarkPlan[]) {
  if (rows.length === 0) return;
  const column = <K extends keyof RemarkPlan>(name: K) => rows.map((row) => row[name]);
  await sql`
    INSERT INTO remarks (tenant_id, term, year, id, student_id, remarktype_id, form, stream, comment, user_id)
    SELECT ${tenantId}::uuid, ${at.term}, ${at.year}::integer, given.*
    FROM unnest(
      ${rows.map(() => newId())}::uuid[], ${column('student_id')}::uuid[], ${column('remarktype_id')}::uuid[], ${column('form')}::text[],
      ${column('stream')}::text[], ${column('comment')}::text[], ${column('user_id')}::uuid[]
    ) AS given
    ON CONFLICT DO NOTHING
  `.execute(trx);
}

/**
 * Writes a demo school's subject comments and remarks for the marks term `at` (in the caller's
 * tenant transaction, after its marks). The staff's rows are of `staffYear` (the seed's), read
 * for the same term, as demo-marks.ts reads them. Answers how many of each were planned.
 */
export async function seedDemoComments(
  trx: Trx,
  tenantId: string,
  school: { classes: readonly string[]; schooltype?: string },
  at: { term: Term; year: number },
  staffYear: number,
): Promise<{ comments: number; remarks: number }> {
  const tx = await bindTenant(trx, tenantId);
  const settings = await schoolCommentSettings(trx, tenantId, at.term, staffYear);
  const comments: SubjectCommentPlan[] = [];
  const skills: SubjectCommentPlan[] = [];
  const remarks: RemarkPlan[] = [];
  // The demo keeps every class on its default curriculum: S1-S4 of a secondary school are the new one's.
  const commented = commentedForms(school.classes);
  const isNew = (form: string) => defaultCurriculum(school.schooltype, form) === 'new';
  for (const { inputs, firstnames } of await classInputs(
    tx,
    commented.filter((form) => !isNew(form)),
    at,
  )) {
    const planned = planClassComments({ ...settings, model: buildReportModel(inputs), firstnames });
    comments.push(...planned.comments);
    remarks.push(...planned.remarks);
  }
  for (const form of commented.filter(isNew)) {
    const learners = await trx
      .selectFrom('students')
      .select(['id', 'firstname', 'gender', 'stream'])
      .$call(inTenant(tenantId))
      .where('form', '=', form)
      .where('status', '=', 'active')
      .orderBy('id')
      .execute();
    const scores = learnerScores(await classAois(tx, { form, term: at.term, year: at.year }, null));
    const planned = planNcClassComments({
      ...settings,
      form,
      learners: learners.map((learner) => ({
        ...learner,
        gender: learner.gender === 'F' || learner.gender === 'M' ? learner.gender : null,
      })),
      scores,
    });
    comments.push(...planned.comments);
    skills.push(...planned.skills);
    remarks.push(...planned.remarks);
  }
  await insertSubjectComments(trx, tenantId, at, comments);
  await insertSubjectComments(trx, tenantId, at, skills, 'skill');
  await insertRemarks(trx, tenantId, at, remarks);
  return { comments: comments.length + skills.length, remarks: remarks.length };
}
