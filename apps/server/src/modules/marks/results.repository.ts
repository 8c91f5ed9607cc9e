import {
  ABSENT,
  type AoiScore,
  competencyScores,
  displayScore,
  type GradingMark,
  gradeClass,
  isPerPaperForm,
  learnerHistoryScope,
  printedNumber,
  type StudentResults,
  type SubjectResult,
  subjectCompetencyScore,
} from '@mustard/shared';
import { sql } from 'kysely';
import type { TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';
import { type GradingLoad, gradingInputsOf, loadGradingInputs } from '../reports/pipeline/loader.js';
import { curriculumSettings } from '../settings/class-curricula.repository.js';
import { classTermKey } from '../students/class-learners.repository.js';

/**
 * A learner's academic records: one per class, term and year in which they have marks, newest
 * first; in each, the exams (mark types) and for each subject the mark as entered and the grade
 * the report card gives that exam: the one grader (`gradeClass`, packages/shared reports) on
 * the report pipeline's grading inputs (its loader, one query per table), so a 40 out of 50 is 80% and D1
 * here as on the card. S5 and S6 show each paper with its grade, and the subject's total and
 * letter as the card has them (the mean of the papers out of 100). In a class on the new
 * curriculum that year (issue 26 point 6) the exams show marks without grades, and the
 * competencies' scores (marks carrying a topic) are the learner's results: per subject each
 * competency with its activities of integration and their mean and identifier, the subject's
 * mean, and the subject's projects with the learner's score and comment.
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
  /** Each record's competency scores by subject, to score once every AOI is in. */
  const aoisOf = new Map<object, Map<string, { subject: string; aois: Array<AoiScore & { marktype: string; title: string }> }>>();
  for (const row of rows) {
    let record = results.at(-1);
    if (!record || record.form !== row.form || record.term !== row.term || record.year !== row.year) {
      record = { form: row.form, term: row.term, year: row.year, curriculum: 'old', exams: [], ncresults: [] };
      results.push(record);
      aoisOf.set(record, new Map());
    }
    if (row.topic_id) {
      // An activity of integration of a competency (1 to 3, ABS apart): grouped by subject, not by exam.
      const bySubject = aoisOf.get(record);
      const subject = bySubject?.get(row.subject_id) ?? { subject: row.subject, aois: [] };
      bySubject?.set(row.subject_id, subject);
      subject.aois.push({
        topic_id: row.topic_id,
        marktype_id: row.marktype_id,
        marktype: row.marktype,
        title: row.topic ?? '',
        value: row.absent ? ABSENT : row.mark,
      });
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

  // Each year's curricula: a record of a new-curriculum class shows no grades, and its competencies.
  const years = new Map<number, Awaited<ReturnType<typeof curriculumSettings>>>();
  for (const year of new Set(results.map((record) => record.year))) years.set(year, await curriculumSettings(tx, year));
  const projects = await projectScoresOf(tx, studentId);
  for (const record of results) {
    const newCurriculum = years.get(record.year)?.isNew(record.form) ?? false;
    record.curriculum = newCurriculum ? 'new' : 'old';
    if (!newCurriculum)
      for (const exam of record.exams) {
        const of = examMarks.get(exam);
        if (of) gradeExam(exam, of, load);
      }
    record.ncresults = ncResults(
      aoisOf.get(record) ?? new Map(),
      projects.filter(
        (project) =>
          project.form.toLowerCase() === record.form.toLowerCase() && project.term === record.term && project.year === record.year,
      ),
    );
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

/** The learner's project scores, each with its project's class, term, year and subject. */
function projectScoresOf(tx: TenantTx, studentId: string) {
  return tx.trx
    .selectFrom('project_scores as ps')
    .innerJoin('projects as p', (join) => join.onRef('p.tenant_id', '=', 'ps.tenant_id').onRef('p.id', '=', 'ps.project_id'))
    .innerJoin('subjects as s', (join) => join.onRef('s.tenant_id', '=', 'p.tenant_id').onRef('s.id', '=', 'p.subject_id'))
    .select([
      'p.id as project_id',
      'p.title',
      'p.form',
      'p.term',
      'p.year',
      'p.max_score',
      'p.subject_id',
      's.name as subject',
      sql<number | null>`ps.score::float8`.as('score'),
      'ps.comment',
    ])
    .$call(inTenant(tx.tenantId, 'ps.tenant_id'))
    .where('ps.student_id', '=', studentId)
    .orderBy('p.created_at')
    .execute();
}

type ProjectScoreRow = Awaited<ReturnType<typeof projectScoresOf>>[number];

/**
 * A record's new-curriculum results: per subject (as the marks first name it, then subjects
 * with projects alone) each competency scored from its AOIs, the subject's mean, and its
 * projects. The means are exact (competencies.ts); the numbers handed out are to one decimal.
 */
function ncResults(
  bySubject: ReadonlyMap<string, { subject: string; aois: ReadonlyArray<AoiScore & { marktype: string; title: string }> }>,
  projects: ReadonlyArray<ProjectScoreRow>,
): StudentResults['results'][number]['ncresults'] {
  const subjects = new Map([...bySubject].map(([id, entry]) => [id, entry.subject]));
  for (const project of projects) if (!subjects.has(project.subject_id)) subjects.set(project.subject_id, project.subject);
  return [...subjects].map(([subjectId, name]) => {
    const aois = bySubject.get(subjectId)?.aois ?? [];
    const topics = competencyScores(aois).map((topic) => {
      const own = aois.filter((aoi) => aoi.topic_id === topic.topic_id);
      return {
        topic_id: topic.topic_id,
        title: own[0]?.title ?? '',
        aois: own.map((aoi) => ({ marktype_id: aoi.marktype_id, marktype: aoi.marktype, mark: aoi.value })),
        mark: displayScore(topic.score),
        score: topic.identifier,
      };
    });
    const subject = subjectCompetencyScore(competencyScores(aois));
    return {
      subject_id: subjectId,
      subject: name,
      topics,
      average: displayScore(subject.score),
      score: subject.identifier,
      projects: projects
        .filter((project) => project.subject_id === subjectId)
        .map((project) => ({
          project_id: project.project_id,
          title: project.title,
          score: project.score,
          max_score: project.max_score,
          comment: project.comment,
        })),
    };
  });
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
