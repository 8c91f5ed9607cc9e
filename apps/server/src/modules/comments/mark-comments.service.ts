import {
  type Assignments,
  COMMENT_MESSAGES,
  type CommentConflict,
  classReportScope,
  entryReach,
  gradeClass,
  isPerPaperForm,
  type MarkComments,
  type MarkCommentsQuery,
  type MarkCommentsSave,
  type MarkCommentsSaved,
  mayOpen,
  REPORT_MESSAGES,
  RESULT_MESSAGES,
  type ReportSubject,
  shownMarkTypeIds,
  streamsToEnter,
} from '@mustard/shared';
import { recordAudit } from '../../audit/audit.repository.js';
import { lockInTenant, type TenantTx } from '../../db/tenant.js';
import { type AboutMessage, AppError, type FieldErrors, invalid } from '../../errors.js';
import type { ActingMember, ActionContext } from '../../plugins/endpoints.js';
import { gradingInputsOf, loadGradingInputs } from '../reports/pipeline/loader.js';
import { shownResult } from '../reports/report-model.js';
import { assignmentsOf } from '../staff/staff.repository.js';
import {
  activeSubjects,
  applyCommentWrites,
  autoComments,
  type CommentKey,
  type CommentLearner,
  type CommentWrite,
  classLearners,
  markTypesByIds,
  storedComments,
  subjectById,
  userNames,
} from './mark-comments.repository.js';
import { classAois, classTopics, isNewCurriculumClass, learnerScores } from './nc-scores.js';

/*
 * Subject comments and generic skills (issue 16 points 1 and 6): one screen, two kinds of
 * text. The load shows each learner's marks, total and grade as the report card computes them
 * (the one grader on the report pipeline's grading inputs, never a second grading) beside the stored comment and its version; the
 * save checks everything first (the subject, the learners, the member's assignments), takes
 * the screen's lock so two saves of it take turns, reads the stored comments under lock, and
 * writes only when no comment changed since it was loaded (else a 409 naming the learners and
 * nothing written). A comment sent as it is stored is unchanged whatever its base, so the same
 * save sent twice at once writes once.
 */

/** Who acts: who they are and their rights in the school (the assignment rule reads them). */
export type Member = Pick<ActingMember, 'userId' | 'ability'>;

/** The comments of a screen: subject comments, or generic skills. */
export type CommentKind = 'general' | 'skill';

/** The automatic comments each screen starts from (auto subject comments' categories, spec §3). */
const AUTO_CATEGORY = { general: 'general', ncGeneral: 'nc general', skill: 'nc skill' } as const;

const keyOf = (target: MarkCommentsQuery, kind: CommentKind): CommentKey => ({
  form: target.form,
  stream: target.stream,
  term: target.term,
  year: target.year,
  subject_id: target.subject_id,
  category: target.category,
  kind,
});

/**
 * Checks what a screen names before anything else is read: the subject and mark types are the
 * school's, and the member may write this subject's comments for this class, stream and term
 * (everywhere with `manage` on mark or remark; else only where assigned as subject teacher).
 * Answers the member's assignments when they are limited to them (null when they are not).
 */
async function checkTarget(
  tx: TenantTx,
  query: MarkCommentsQuery,
  member: Member,
): Promise<{ assignments: Assignments | null; streams: 'all' | string[] }> {
  const errors: FieldErrors = {};
  const subject = await subjectById(tx, query.subject_id);
  if (!subject) errors.subject_id = [COMMENT_MESSAGES.subjectUnknown];
  const wanted = shownMarkTypeIds(query);
  if (wanted.length > 0 && (await markTypesByIds(tx, wanted)).length !== wanted.length)
    errors.marktype_id = [REPORT_MESSAGES.markTypeUnknown];
  if (Object.keys(errors).length > 0) throw invalid(errors);

  const reach = entryReach(member.ability).subjectComments;
  if (reach === 'all') return { assignments: null, streams: 'all' };
  if (reach === 'none') throw new AppError(403, COMMENT_MESSAGES.notAssigned);
  const held = await assignmentsOf(tx, member.userId, { term: query.term, year: query.year });
  const assignments = { subjects: held.subjects, classes: held.classes };
  // A class opened without a stream is the streams the member teaches (issue 23 item 18).
  const streams = streamsToEnter(member.ability, assignments, 'subjectComments', query);
  if (!mayOpen(streams, query.stream)) throw new AppError(403, COMMENT_MESSAGES.notAssigned);
  return { assignments, streams };
}

/** The screen's learners: the class's (and stream's), only those of the member's streams when he teaches some of them. */
async function screenLearners(tx: TenantTx, target: MarkCommentsQuery, streams: 'all' | readonly string[]) {
  const learners = await classLearners(tx, target);
  if (streams === 'all') return learners;
  const taught = new Set(streams.map((stream) => stream.trim().toLowerCase()));
  return learners.filter((learner) => taught.has((learner.stream ?? '').trim().toLowerCase()));
}

/**
 * Each learner's result in the subject as the report card has it (marks by mark type label,
 * papers in S5 and S6, total, grade), and the mark types shown: the class's grading inputs
 * (the report pipeline's loader, no card sources) graded by the one grader for the one subject
 * (a subject's total and grade rest on its own marks, grade set and proportions alone). A class
 * without marks yet has no results (its comments can still be written).
 */
async function subjectResults(
  tx: TenantTx,
  query: MarkCommentsQuery,
): Promise<{ results: Map<string, ReportSubject>; markTypes: Array<{ id: string; label: string }> }> {
  const load = await loadGradingInputs(tx, classReportScope({ ...query, stream: undefined }));
  const inputs = load.classes[0];
  if (!inputs || inputs.marks.length === 0) return { results: new Map(), markTypes: await markTypesByIds(tx, shownMarkTypeIds(query)) };
  const subjects = inputs.subjects.filter((subject) => subject.id === query.subject_id);
  const graded = gradeClass(
    inputs.learners,
    inputs.marks.filter((mark) => mark.subject_id === query.subject_id),
    gradingInputsOf(load, { ...inputs, subjects }, { rawmark: query.rawmark || load.settings.layout.markValues !== 'weighted' }),
  );
  const results = new Map<string, ReportSubject>();
  for (const result of graded.results) {
    const [subject] = shownResult(result).subjects;
    if (subject) results.set(result.learner.id, subject);
  }
  return { results, markTypes: inputs.markTypes.map(({ id, label }) => ({ id, label })) };
}

/** The subjects the member may choose for this class and term: the school's active ones, or those assigned. */
async function subjectChoices(tx: TenantTx, query: MarkCommentsQuery, assignments: Assignments | null) {
  const all = await activeSubjects(tx);
  if (!assignments) return all;
  const form = query.form.trim().toLowerCase();
  const held = new Set(assignments.subjects.filter((row) => row.form.trim().toLowerCase() === form).map((row) => row.subject_id));
  return all.filter((subject) => held.has(subject.id));
}

/**
 * The class's curriculum that year, checked against the screen (issue 27 point 3): subject
 * comments (`nc` off) refuse a new-curriculum class and the new-curriculum comments (`nc` on)
 * an old-curriculum one, each naming the screen to use; generic skills take either.
 */
async function checkCurriculum(tx: TenantTx, target: MarkCommentsQuery, kind: CommentKind): Promise<boolean> {
  const fresh = await isNewCurriculumClass(tx, target);
  if (kind === 'general' && target.nc && !fresh) throw invalid({ form: [COMMENT_MESSAGES.oldCurriculumClass] });
  if (kind === 'general' && !target.nc && fresh) throw invalid({ form: [COMMENT_MESSAGES.newCurriculumClass] });
  return fresh;
}

/**
 * A new-curriculum class's results in the subject: each learner's competency scores (by
 * competency id) and subject score with its identifier, and the subject's competencies for the
 * class and term.
 */
async function competencyResults(tx: TenantTx, query: MarkCommentsQuery) {
  const aois = await classAois(tx, query, query.subject_id);
  const scores = learnerScores(aois);
  const topics = await classTopics(tx, query, query.subject_id);
  return { scores, topics };
}

/** A class's learners in one subject with their marks, total, grade and comment; the automatic comments to start from. */
export async function loadMarkComments({ tx, member }: ActionContext, query: MarkCommentsQuery, kind: CommentKind): Promise<MarkComments> {
  const { assignments, streams } = await checkTarget(tx, query, member);
  const fresh = await checkCurriculum(tx, query, kind);
  const learners = await screenLearners(tx, query, streams);
  if (fresh) return loadNcComments(tx, query, kind, { learners, assignments });
  const { results, markTypes } = await subjectResults(tx, query);
  const stored = await storedComments(
    tx,
    keyOf(query, kind),
    learners.map((learner) => learner.id),
  );
  const perPaper = isPerPaperForm(query.form);
  const category = kind === 'skill' ? AUTO_CATEGORY.skill : query.nc ? AUTO_CATEGORY.ncGeneral : AUTO_CATEGORY.general;
  return {
    students: learners.map(({ id, studentid, fullname, firstname, gender }) => ({ id, studentid, fullname, firstname, gender })),
    records: learners.map((learner) => {
      const result = results.get(learner.id);
      const comment = stored.get(learner.id);
      return {
        student_id: learner.id,
        marks: result?.marks ?? {},
        ...(perPaper ? { papers: result?.papers ?? [] } : {}),
        total: result?.total ?? null,
        grade: result?.grade ?? null,
        comment: comment?.comment ?? null,
        version: comment?.version ?? null,
      };
    }),
    curriculum: 'old',
    autocomments: await autoComments(tx, category),
    marktypes: markTypes,
    subjects: await subjectChoices(tx, query, assignments),
  };
}

/**
 * A new-curriculum class's learners in one subject (issue 27 point 3): each competency's score,
 * the subject's score and identifier, and the remark on competency (the subject comment) or
 * the generic skills text; the automatic comments of "nc general" or "nc skill".
 */
async function loadNcComments(
  tx: TenantTx,
  query: MarkCommentsQuery,
  kind: CommentKind,
  { learners, assignments }: { learners: CommentLearner[]; assignments: Assignments | null },
): Promise<MarkComments> {
  const { scores, topics } = await competencyResults(tx, query);
  const stored = await storedComments(
    tx,
    keyOf(query, kind),
    learners.map((learner) => learner.id),
  );
  return {
    students: learners.map(({ id, studentid, fullname, firstname, gender }) => ({ id, studentid, fullname, firstname, gender })),
    records: learners.map((learner) => {
      const subject = scores.get(learner.id)?.[0];
      const comment = stored.get(learner.id);
      return {
        student_id: learner.id,
        marks: {},
        total: null,
        grade: null,
        comment: comment?.comment ?? null,
        version: comment?.version ?? null,
        competencies: subject?.competencies ?? {},
        score: subject?.score.score ?? null,
        identifier: subject?.score.identifier ?? null,
      };
    }),
    curriculum: 'new',
    topics,
    autocomments: await autoComments(tx, kind === 'skill' ? AUTO_CATEGORY.skill : AUTO_CATEGORY.ncGeneral),
    marktypes: [],
    subjects: await subjectChoices(tx, query, assignments),
  };
}

/** The plan of a save: what to write, what is as sent already, and the conflicts. */
function planSave(
  body: MarkCommentsSave,
  learners: ReadonlyMap<string, CommentLearner>,
  stored: ReadonlyMap<string, { id: string; comment: string; version: number; userId: string | null }>,
) {
  const writes: CommentWrite[] = [];
  const conflicts: Array<Omit<CommentConflict, 'by'> & { userId: string | null }> = [];
  let unchanged = 0;
  for (const [studentId, text] of Object.entries(body.comment)) {
    const row = stored.get(studentId);
    const learner = learners.get(studentId) as CommentLearner;
    if ((row?.comment ?? '') === text) {
      unchanged += 1;
      continue;
    }
    const base = body.base[studentId] ?? null;
    if ((row?.version ?? null) !== base) {
      conflicts.push({
        student_id: studentId,
        fullname: learner.fullname,
        theirs: row?.comment ?? null,
        version: row?.version ?? null,
        yours: text === '' ? null : text,
        userId: row?.userId ?? null,
      });
      continue;
    }
    if (!row) writes.push({ action: 'insert', studentId, stream: learner.stream, comment: text });
    else if (text === '') writes.push({ action: 'delete', studentId, stored: row });
    else writes.push({ action: 'update', studentId, stored: row, comment: text });
  }
  return { writes, conflicts, unchanged };
}

/**
 * Saves a screen's comments in the action's one transaction: every learner must be of the
 * class and stream (a learner of another class or school is named, nothing saved); a comment
 * someone changed since it was loaded is a 409 naming the learners (theirs, by whom, and
 * yours), nothing saved; an empty comment deletes. Each change lands in the comment history.
 */
export async function saveMarkComments(
  { tx, member }: ActionContext,
  body: MarkCommentsSave,
  kind: CommentKind,
): Promise<MarkCommentsSaved> {
  const { streams } = await checkTarget(tx, body, member);
  await checkCurriculum(tx, body, kind);
  const key = keyOf(body, kind);
  const learners = new Map((await screenLearners(tx, body, streams)).map((learner) => [learner.id, learner]));
  const errors: FieldErrors = {};
  for (const studentId of Object.keys(body.comment))
    if (!learners.has(studentId)) errors[`comment.${studentId}`] = [COMMENT_MESSAGES.learnerNotInClass];
  if (Object.keys(errors).length > 0) throw invalid(errors);

  // Saves of the same screen take turns: the second reads what the first wrote.
  await lockInTenant(tx, `mark-comments:${key.subject_id}:${key.form.toLowerCase()}:${key.term}:${key.year}:${key.category}:${key.kind}`);
  const stored = await storedComments(tx, key, Object.keys(body.comment), true);
  const plan = planSave(body, learners, stored);
  if (plan.conflicts.length > 0) {
    const names = await userNames(
      tx,
      plan.conflicts.map((conflict) => conflict.userId),
    );
    const about = plan.conflicts.map((conflict) => conflict.fullname).join(', ');
    throw new AppError(409, `${COMMENT_MESSAGES.conflict}: ${about}` as AboutMessage, undefined, {
      conflicts: plan.conflicts.map(({ userId, ...conflict }) => ({ ...conflict, by: names.get(userId ?? '') ?? null })),
    });
  }

  const now = await applyCommentWrites(tx, key, plan.writes);
  const comments: MarkCommentsSaved['comments'] = {};
  for (const studentId of Object.keys(body.comment)) {
    const row = stored.get(studentId);
    comments[studentId] = now.get(studentId) ?? { comment: row?.comment ?? null, version: row?.version ?? null };
  }
  const deleted = plan.writes.filter((write) => write.action === 'delete').length;
  if (plan.writes.length > 0)
    await recordAudit(tx, {
      action: 'update',
      entity: kind === 'skill' ? 'generic_comments' : 'mark_comments',
      entityId: `${key.form}/${key.stream ?? ''}/${key.subject_id}/${key.category}/${key.term}/${key.year}`,
      after: { saved: plan.writes.length - deleted, deleted },
    });
  return {
    message:
      plan.writes.some((write) => write.action === 'insert') || plan.writes.length === 0
        ? RESULT_MESSAGES.created
        : RESULT_MESSAGES.updated,
    saved: plan.writes.length - deleted,
    deleted,
    unchanged: plan.unchanged,
    comments,
  };
}
