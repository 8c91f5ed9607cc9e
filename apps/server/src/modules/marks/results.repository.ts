import {
  type GradingMark,
  genericDescriptor,
  gradeClass,
  isPerPaperForm,
  learnerHistoryScope,
  printedNumber,
  type StudentResults,
  type SubjectResult,
} from '@mustard/shared';
import { sql } from 'kysely';
import type { TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';
import { type GradingLoad, gradingInputsOf, loadGradingInputs } from '../reports/pipeline/loader.js';
import { classTermKey } from '../students/class-learners.repository.js';

/**
 * A learner's academic records: one per class, term and year in which they have marks, newest
 * first; in each, the exams (mark types) and for each subject the mark as entered and the grade
 * the report card gives that exam: the one grader (`gradeClass`, packages/shared reports) on
 * the report pipeline's grading inputs (its loader, one query per table), so a 40 out of 50 is 80% and D1
 * here as on the card. S5 and S6 show each paper with its grade, and the subject's total and
 * letter as the card has them (the mean of the papers out of 100). Marks of a competency (topic)
 * are the new curriculum's: per subject, each topic's score with its generic descriptor, and the
 * average.
 */
export async function studentResults(tx: TenantTx, studentId: string): Promise<StudentResults> {
  const { trx, tenantId } = tx;
  const rows = await trx
    .selectFrom('marks as m')
    .innerJoin('subjects as s', (join) => join.onRef('s.tenant_id', '=', 'm.tenant_id').onRef('s.id', '=', 'm.subject_id'))
    .innerJoin('mark_types as t', (join) => join.onRef('t.tenant_id', '=', 'm.tenant_id').onRef('t.id', '=', 'm.marktype_id'))
    .leftJoin('topics as c', (join) => join.onRef('c.tenant_id', '=', 'm.tenant_id').onRef('c.id', '=', 'm.topic_id'))
    .select([
      'm.form',
      'm.term',
      'm.year',
      'm.paper',
      'm.subject_id',
      's.name as subject',
      's.category',
      's.position',
      's.multiple_papers',
      'm.marktype_id',
      'm.topic_id',
      'c.title as topic',
      't.label as marktype',
      't.position as marktype_position',
      't.outof',
      sql<number | null>`m.mark::float8`.as('mark'),
      'm.absent',
    ])
    .$call(inTenant(tenantId, 'm.tenant_id'))
    .where('m.student_id', '=', studentId)
    .orderBy('m.year', 'desc')
    .orderBy(sql`CASE m.term WHEN 'III' THEN 3 WHEN 'II' THEN 2 ELSE 1 END`, 'desc')
    .orderBy(sql`t.position`, (order) => order.asc().nullsLast())
    .orderBy(sql`s.position`, (order) => order.asc().nullsLast())
    .orderBy('s.name')
    .orderBy('m.paper')
    .orderBy(sql`c.created_at`, (order) => order.asc().nullsFirst())
    .execute();
  // The grading inputs of every class and term of the learner's marks, one query per table (the report pipeline's loader).
  const load = await loadGradingInputs(tx, learnerHistoryScope(studentId));
  /** Each exam's marks, to grade once its subjects are known. */
  const examMarks = new Map<object, { form: string; term: string; year: number; outof: number; marks: GradingMark[] }>();

  const results: StudentResults['results'] = [];
  for (const row of rows) {
    let record = results.at(-1);
    if (!record || record.form !== row.form || record.term !== row.term || record.year !== row.year) {
      record = { form: row.form, term: row.term, year: row.year, exams: [], ncresults: [] };
      results.push(record);
    }
    if (row.topic_id) {
      // A competency a learner missed has no score to average.
      if (row.mark === null) continue;
      // A competency score (1 to 3) of the new curriculum: grouped by subject, not by exam.
      let subject = record.ncresults.find((candidate) => candidate.subject_id === row.subject_id);
      if (!subject) {
        subject = { subject_id: row.subject_id, subject: row.subject, topics: [], average: 0, score: '' };
        record.ncresults.push(subject);
      }
      subject.topics.push({ topic_id: row.topic_id, title: row.topic ?? '', mark: row.mark, score: genericDescriptor(row.mark) });
      continue;
    }
    let exam = record.exams.find((candidate) => candidate.marktype_id === row.marktype_id);
    if (!exam) {
      exam = { marktype_id: row.marktype_id, marktype: row.marktype, subjects: [] };
      record.exams.push(exam);
      examMarks.set(exam, { form: row.form, term: row.term, year: row.year, outof: Number(row.outof) || 100, marks: [] });
    }
    examMarks.get(exam)?.marks.push({
      student_id: studentId,
      subject_id: row.subject_id,
      marktype_id: row.marktype_id,
      paper: row.paper ?? 'I',
      mark: row.mark,
      absent: row.absent,
    });
    let subject = exam.subjects.find((candidate) => candidate.subject_id === row.subject_id);
    // Every mark names its paper (I for a subject written in one); only a subject of several shows them.
    const perPaper = isPerPaperForm(row.form) && row.multiple_papers;
    if (!subject) {
      subject = { subject_id: row.subject_id, subject: row.subject, category: row.category, mark: null, score: null } as SubjectResult;
      if (perPaper) subject.papers = [];
      exam.subjects.push(subject);
    }
    // An absence (ABS) is no mark: shown as absent, with no grade, never counted as 0 (grading.md).
    if (perPaper && subject.papers) {
      subject.papers.push({ paper: row.paper as string, mark: row.mark, score: null, ...(row.absent ? { absent: true } : {}) });
    } else {
      subject.mark = row.mark;
      if (row.absent) subject.absent = true;
    }
  }

  for (const record of results) {
    for (const exam of record.exams) {
      const of = examMarks.get(exam);
      if (of) gradeExam(exam, of, load);
    }
  }

  for (const record of results) {
    for (const subject of record.ncresults) {
      const average = subject.topics.reduce((sum, topic) => sum + topic.mark, 0) / subject.topics.length;
      subject.average = Math.round(average * 100) / 100;
      subject.score = genericDescriptor(subject.average);
    }
  }

  const history = await trx
    .selectFrom('student_class_history')
    .select(['form', 'stream', 'year', 'outcome'])
    .$call(inTenant(tenantId))
    .where('student_id', '=', studentId)
    .orderBy('recorded_at', 'desc')
    .execute();
  return { results, history };
}

/**
 * Grades one exam of a record as a report card of that one mark type grades it (the one grader,
 * gradeClass, on the class and term's grading inputs): each subject's mark out of the mark
 * type's maximum through the subject's grade set, each paper of S5 and S6 graded and the
 * subject's letter from its papers.
 */
function gradeExam(
  exam: StudentResults['results'][number]['exams'][number],
  of: { form: string; term: string; year: number; outof: number; marks: GradingMark[] },
  load: GradingLoad,
) {
  const inputs = load.classes.find((each) => classTermKey(each) === classTermKey(of));
  if (!inputs) return;
  const subjects = exam.subjects.map((subject) => ({
    id: subject.subject_id,
    name: subject.subject,
    code: null,
    category: subject.category,
  }));
  const [graded] = gradeClass([{ id: of.marks[0]?.student_id ?? '', stream: null }], of.marks, {
    ...gradingInputsOf(load, inputs, { rawmark: true }),
    level: isPerPaperForm(of.form) ? 'alevel' : 'plain',
    markTypes: [{ id: exam.marktype_id, label: exam.marktype, outof: of.outof }],
    subjects,
    // One exam alone: its mark out of the mark type's maximum, unweighted.
    proportions: new Map(),
  }).results;
  for (const subject of exam.subjects) {
    const result = graded?.subjects.find((each) => each.row.subject_id === subject.subject_id)?.row;
    if (!result) continue;
    subject.score = result.grade;
    if (subject.papers) {
      // Printed as the card prints it: cut to two decimals.
      subject.total = result.total === null ? null : printedNumber(result.total);
      for (const paper of subject.papers) paper.score = result.papers?.find((each) => each.paper === paper.paper)?.grade ?? null;
    }
  }
}
