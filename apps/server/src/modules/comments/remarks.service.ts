import {
  type AutoReportComment,
  COMMENT_MESSAGES,
  classReportScope,
  entryReach,
  gradeClass,
  idOfKey,
  isHeadTeacherRemark,
  MAX_REMARKS_PER_SAVE,
  matchReportComment,
  mayOpen,
  personalise,
  REMARK_MESSAGES,
  REPORT_MESSAGES,
  RESULT_MESSAGES,
  type RemarkConflict,
  type RemarkStudent,
  type Remarks,
  type RemarksDelete,
  type RemarksQuery,
  type RemarksSave,
  type RemarksSaved,
  type RemarkTypeNode,
  type ReportModel,
  remarkTypeKey,
  streamsToEnter,
  studentKey,
  type TERMS,
} from '@mustard/shared';
import { recordAudit } from '../../audit/audit.repository.js';
import { lockInTenant, type TenantTx } from '../../db/tenant.js';
import { type AboutMessage, AppError, type FieldErrors, invalid } from '../../errors.js';
import type { ActingMember, ActionContext } from '../../plugins/endpoints.js';
import { gradingInputsOf, loadGradingInputs } from '../reports/pipeline/loader.js';
import { shownResult } from '../reports/report-model.js';
import { assignmentsOf } from '../staff/staff.repository.js';
import { classAois, isNewCurriculumClass, learnerScores, overallScore } from './nc-scores.js';
import {
  activeLearners,
  applyRemarkWrites,
  autoRemarksOf,
  deleteClassRemarks,
  learnerExists,
  learnersForClass,
  type RemarkClass,
  type RemarkTypeRow,
  type RemarkWrite,
  type StoredRemark,
  schoolRemarkTypes,
  storedRemarks,
  userNames,
} from './remarks.repository.js';

/*
 * Report comments (issue 16 points 2 to 5): a class's learners with their results (the report
 * one grader's, never computed here) and remarks; a save checked whole before anything is written
 * (who may write for the class, the texts, the remark types, the learners, the versions), then
 * written with its history; deletion with the texts kept in the history.
 */

/** Who acts: who they are and their rights in the school (the class-teacher rule reads them). */
export type Member = Pick<ActingMember, 'userId' | 'ability'>;

/** Whether a remark type is for a class: no classes named is every class. */
export function remarkTypeForClass(type: Pick<RemarkTypeRow, 'forms'>, form: string): boolean {
  if (!type.forms || type.forms.trim() === '') return true;
  const wanted = form.trim().toLowerCase();
  return type.forms.split(',').some((each) => each.trim().toLowerCase() === wanted);
}

const nodeOf = (type: RemarkTypeRow) => ({
  id: type.id,
  label: type.label,
  category: type.category,
  inputtype: type.inputtype,
  displaytype: type.displaytype,
});

/**
 * The remark types the screen shows: one named (with its sub categories) whatever its category,
 * else the active ones of the report's category for the class; each with its active sub
 * categories for the class, by position.
 */
function shownRemarkTypes(all: RemarkTypeRow[], query: RemarksQuery): RemarkTypeNode[] {
  const usable = (type: RemarkTypeRow) => type.active && remarkTypeForClass(type, query.form);
  const childrenOf = (parent: RemarkTypeRow) => all.filter((type) => type.parent_id === parent.id && usable(type)).map(nodeOf);
  if (query.remarktype_id) {
    const named = all.find((type) => type.id === query.remarktype_id);
    if (!named) throw invalid({ remarktype_id: [REMARK_MESSAGES.remarkTypeUnknown] });
    if (!named.active) throw invalid({ remarktype_id: [REMARK_MESSAGES.remarkTypeInactive] });
    if (!remarkTypeForClass(named, query.form)) throw invalid({ remarktype_id: [REMARK_MESSAGES.remarkTypeNotForClass] });
    return [{ ...nodeOf(named), children: childrenOf(named) }];
  }
  return all
    .filter((type) => type.parent_id === null && type.category === query.category && usable(type))
    .map((type) => ({ ...nodeOf(type), children: childrenOf(type) }));
}

/** The result an automatic comment is matched to: the aggregate (primary, O level), the points (A level), else the average. */
export function resultOf(
  level: ReportModel['report']['level'],
  learner: { aggregate: number | null; points: number | null; average: number | null },
) {
  if (level === 'primary' || level === 'olevel') return learner.aggregate;
  if (level === 'alevel') return learner.points;
  return learner.average;
}

const sameStream = (a: string | null, b: string) => (a ?? '').toLowerCase() === b.toLowerCase();

/** The class's learners as the cards count them (the report pipeline's loader), narrowed to the stream and category. */
async function shownLearners(tx: TenantTx, query: RemarksQuery) {
  const load = await loadGradingInputs(tx, classReportScope(query));
  const inputs = load.classes[0];
  if (!inputs || inputs.learners.length === 0) throw invalid({ form: [REPORT_MESSAGES.noLearners] });
  const shown = inputs.learners.filter(
    (learner) =>
      (!query.stream || sameStream(learner.stream, query.stream)) &&
      (!query.studentcategory_id || learner.studentcategory_id === query.studentcategory_id),
  );
  if (shown.length === 0) throw invalid({ stream: [REPORT_MESSAGES.noLearners] });
  return { load, inputs, shown };
}

/**
 * A new-curriculum class's learners (issue 27 point 3): each with their subject scores (the
 * mean of the subject's competencies) and overall score with its identifier; the automatic
 * report comments are matched to the overall score. No marks, aggregates or divisions.
 */
async function learnersWithCompetencies(tx: TenantTx, query: RemarksQuery): Promise<Array<Omit<RemarkStudent, 'suggestions'>>> {
  const { shown } = await shownLearners(tx, query);
  const scores = learnerScores(await classAois(tx, query, null));
  return shown.map((learner) => {
    const subjects = scores.get(learner.id) ?? [];
    const overall = overallScore(subjects);
    return {
      id: learner.id,
      studentid: learner.studentid,
      fullname: learner.fullname,
      firstname: learner.firstname,
      gender: learner.gender,
      stream: learner.stream,
      marks: [],
      total: null,
      average: null,
      aggregate: null,
      division: null,
      points: null,
      result: overall.value,
      ncsubjects: subjects.map((subject) => ({ subject_id: subject.subject_id, subject: subject.subject, ...subject.score })),
      score: overall.score,
      identifier: overall.identifier,
    };
  });
}

/**
 * The class's learners (a stream, a category) with their results: the class's grading inputs
 * (the report pipeline's loader, no card sources) graded by the one grader, ranked in the whole
 * class; without any mark of these learners yet, the learners alone.
 */
async function learnersWithResults(tx: TenantTx, query: RemarksQuery) {
  const { load, inputs, shown } = await shownLearners(tx, query);
  const ids = new Set(shown.map((learner) => learner.id));
  if (!inputs.marks.some((mark) => ids.has(mark.student_id))) return { graded: null, plain: await activeLearners(tx, query) };
  const graded = gradeClass(
    inputs.learners,
    inputs.marks,
    gradingInputsOf(load, inputs, { rawmark: query.rawmark || load.settings.layout.markValues !== 'weighted' }),
  );
  return {
    graded: {
      level: inputs.level,
      markTypes: inputs.markTypes.map(({ id, label }) => ({ id, label })),
      learners: graded.results
        .filter((result) => ids.has(result.learner.id))
        .map((result) => ({ ...result.learner, ...shownResult(result) })),
    },
    plain: null,
  };
}

/**
 * A class's learners (a stream, a category) with their marks and results as the report model
 * has them, the remark types to write, their stored remarks with versions, and the class's
 * automatic comments, each learner's matching one personalised.
 */
export async function loadRemarks({ tx }: ActionContext, query: RemarksQuery): Promise<Remarks> {
  const remarktypes = shownRemarkTypes(await schoolRemarkTypes(tx), query);
  // Report comments refuse a new-curriculum class and the new-curriculum remarks an old one, each naming the screen to use.
  const fresh = await isNewCurriculumClass(tx, query);
  if (query.nc && !fresh) throw invalid({ form: [REMARK_MESSAGES.oldCurriculumClass] });
  if (!query.nc && fresh) throw invalid({ form: [REMARK_MESSAGES.newCurriculumClass] });
  const { graded, plain } = fresh ? { graded: null, plain: null } : await learnersWithResults(tx, query);
  const level = graded?.level ?? 'plain';
  const learners: Array<Omit<RemarkStudent, 'suggestions'>> = fresh
    ? await learnersWithCompetencies(tx, query)
    : graded
      ? graded.learners.map((learner) => ({
          id: learner.id,
          studentid: learner.studentid,
          fullname: learner.fullname,
          firstname: learner.firstname,
          gender: learner.gender,
          stream: learner.stream,
          marks: learner.subjects.map((subject) => ({
            subject_id: subject.subject_id,
            subject: subject.subject,
            code: subject.code,
            marks: subject.marks,
            total: subject.total,
            grade: subject.grade,
          })),
          total: learner.total,
          average: learner.average,
          aggregate: learner.aggregate,
          division: learner.division,
          points: learner.points,
          result: resultOf(level, learner),
        }))
      : (plain ?? []).map((learner) => ({
          ...learner,
          marks: [],
          total: null,
          average: null,
          aggregate: null,
          division: null,
          points: null,
          result: null,
        }));

  const typeIds = remarktypes.flatMap((type) => [type.id, ...type.children.map((child) => child.id)]);
  const stored = await storedRemarks(tx, query, { studentIds: learners.map((learner) => learner.id), remarktypeIds: typeIds });
  const remarks: Remarks['remarks'] = {};
  for (const row of stored) {
    put(remarks, row.remarktype_id, row.student_id, { comment: row.comment, version: row.version });
  }
  const order = new Map(typeIds.map((id, index) => [id, index]));
  const autos = (await autoRemarksOf(tx, query.form, typeIds)).sort(
    (a, b) => (order.get(a.remarktype_id) ?? 0) - (order.get(b.remarktype_id) ?? 0) || a.score - b.score || a.upper - b.upper,
  );
  const matchable: AutoReportComment[] = autos;
  const students: RemarkStudent[] = learners.map((learner) => {
    const suggestions: Record<string, string> = {};
    for (const id of typeIds) {
      const found = matchReportComment(matchable, { form: query.form, remarktypeId: id, value: learner.result });
      if (found) suggestions[remarkTypeKey(id)] = personalise(found, learner);
    }
    return { ...learner, suggestions };
  });
  return {
    remarks,
    students,
    remarktypes,
    autocomments: autos.map((auto) => ({ remarktype_id: auto.remarktype_id, score: auto.score, upper: auto.upper, comment: auto.comment })),
    marktypes: graded?.markTypes ?? [],
  };
}

/**
 * The member may write this class's remarks: those who manage remarks anywhere, others as its
 * class teacher in the term. Answers the streams they write for: a class without a stream is
 * the streams they are class teacher of (issue 23 item 18).
 */
async function checkMayWrite(
  tx: TenantTx,
  member: Member,
  target: { form: string; stream: string | null; term: string; year: number },
): Promise<'all' | string[]> {
  const reach = entryReach(member.ability).reportComments;
  if (reach === 'all') return 'all';
  const assignments =
    reach === 'assigned'
      ? await assignmentsOf(tx, member.userId, { term: target.term as (typeof TERMS)[number], year: target.year })
      : { subjects: [], classes: [] };
  const streams = streamsToEnter(member.ability, assignments, 'reportComments', target);
  if (!mayOpen(streams, target.stream)) throw new AppError(403, REMARK_MESSAGES.notClassTeacher);
  return streams;
}

/**
 * The head teacher's remarks (and their sub categories) are written only by those who manage
 * remarks anywhere; a class teacher writes the other remark types of their class (issue 23
 * item 8). Unknown remark types are left to the checks of the save, which name them.
 */
function checkMayWriteTypes(member: Member, types: ReadonlyMap<string, RemarkTypeRow>, typeIds: Iterable<string>) {
  if (entryReach(member.ability).reportComments === 'all') return;
  for (const id of typeIds) {
    const type = types.get(id);
    if (type && isHeadTeacherRemark(type, types)) throw new AppError(403, REMARK_MESSAGES.headTeacherOnly);
  }
}

/** Where a class's remarks are written, as the lock names it: one save of a class at a time. */
const classLock = (where: RemarkClass) => `remarks:${where.form.trim().toLowerCase()}:${where.term}:${where.year}`;

interface Cell {
  remarktype_id: string;
  student_id: string;
  path: string;
  text: string;
  base: number;
}

/** Puts a remark in a map by `rt_<remark type id>`, then `s_<learner id>`. */
function put(map: Remarks['remarks'], remarktypeId: string, studentId: string, cell: { comment: string; version: number }) {
  const key = remarkTypeKey(remarktypeId);
  const byStudent = map[key] ?? {};
  byStudent[studentKey(studentId)] = cell;
  map[key] = byStudent;
}

const cellKey = (remarktypeId: string, studentId: string) => `${remarktypeId}|${studentId}`;

/**
 * Saves remarks in the action's one transaction. Everything is checked first (the member may
 * write for the class; each remark type the school's, active and for the class; each learner the
 * class's), the class's stored remarks are locked, and a comment someone changed since its base
 * is a 409 naming it (theirs and yours), nothing written. An empty text deletes. Every change
 * lands in comment_history. The same save twice answers the second as unchanged.
 */
export async function saveRemarks({ tx, member }: ActionContext, body: RemarksSave): Promise<RemarksSaved> {
  const cells: Cell[] = Object.entries(body.comment).flatMap(([typeKey, byStudent]) =>
    Object.entries(byStudent).map(([learnerKey, text]) => ({
      remarktype_id: idOfKey(typeKey).toLowerCase(),
      student_id: idOfKey(learnerKey).toLowerCase(),
      path: `comment.${typeKey}.${learnerKey}`,
      text,
      base: body.base[typeKey]?.[learnerKey] ?? 0,
    })),
  );
  if (cells.length > MAX_REMARKS_PER_SAVE) throw invalid({ comment: [REMARK_MESSAGES.tooMany] });
  // Keys that differ only in capitals name one comment: sent twice, it is refused, not written twice.
  const seen = new Set<string>();
  const repeated: FieldErrors = {};
  for (const cell of cells) {
    const key = cellKey(cell.remarktype_id, cell.student_id);
    if (seen.has(key)) repeated[cell.path] = [COMMENT_MESSAGES.repeated];
    seen.add(key);
  }
  if (Object.keys(repeated).length > 0) throw invalid(repeated);
  const streams = await checkMayWrite(tx, member, body);
  const types = new Map((await schoolRemarkTypes(tx)).map((type) => [type.id, type]));
  checkMayWriteTypes(
    member,
    types,
    cells.map((cell) => cell.remarktype_id),
  );
  const where: RemarkClass = { form: body.form, term: body.term, year: body.year };
  // One save of a class at a time: a second (the same save sent twice) reads what the first wrote.
  await lockInTenant(tx, classLock(where));

  const errors: FieldErrors = {};
  for (const [typeKey] of Object.entries(body.comment)) {
    const type = types.get(idOfKey(typeKey).toLowerCase());
    const path = `comment.${typeKey}`;
    if (!type) errors[path] = [REMARK_MESSAGES.remarkTypeUnknown];
    else if (!type.active) errors[path] = [REMARK_MESSAGES.remarkTypeInactive];
    else if (!remarkTypeForClass(type, body.form)) errors[path] = [REMARK_MESSAGES.remarkTypeNotForClass];
  }
  const learners = await learnersForClass(tx, where, [...new Set(cells.map((cell) => cell.student_id))]);
  // The save's stream, or without one the streams the member writes for.
  const wanted = body.stream !== null ? [body.stream] : streams === 'all' ? null : streams;
  const sameStream = (stream: string | null) =>
    wanted === null || wanted.some((each) => (stream ?? '').trim().toLowerCase() === each.trim().toLowerCase());
  for (const cell of cells) {
    const learner = learners.get(cell.student_id);
    if (!learner) errors[cell.path] = [REMARK_MESSAGES.learnerUnknown];
    else if (!learner.inClass || !sameStream(learner.stream)) errors[cell.path] = [REMARK_MESSAGES.learnerNotInClass];
  }
  if (Object.keys(errors).length > 0) throw invalid(errors);

  const stored = new Map(
    (
      await storedRemarks(
        tx,
        where,
        { studentIds: [...learners.keys()], remarktypeIds: [...new Set(cells.map((cell) => cell.remarktype_id))] },
        true,
      )
    ).map((row) => [cellKey(row.remarktype_id, row.student_id), row]),
  );
  const writes: RemarkWrite[] = [];
  const conflicts: Array<{ cell: Cell; stored: StoredRemark | undefined }> = [];
  let unchanged = 0;
  for (const cell of cells) {
    const before = stored.get(cellKey(cell.remarktype_id, cell.student_id));
    if ((before?.comment ?? '') === cell.text) {
      unchanged += 1;
      continue;
    }
    if ((before?.version ?? 0) !== cell.base) {
      conflicts.push({ cell, stored: before });
      continue;
    }
    if (!before) writes.push({ kind: 'insert', ...cell, comment: cell.text, stream: learners.get(cell.student_id)?.stream ?? body.stream });
    else if (cell.text === '') writes.push({ kind: 'delete', stored: before });
    else writes.push({ kind: 'update', stored: before, comment: cell.text });
  }
  if (conflicts.length > 0) throw await conflictError(tx, conflicts, learners, types);

  const versions = await applyRemarkWrites(tx, where, writes);
  const saved = writes.filter((write) => write.kind !== 'delete').length;
  const deleted = writes.length - saved;
  if (writes.length > 0)
    await recordAudit(tx, {
      action: 'update',
      entity: 'remarks',
      entityId: `${body.form}/${body.stream ?? ''}/${body.term}/${body.year}`,
      after: { saved, deleted },
    });
  const remarks: RemarksSaved['remarks'] = {};
  for (const cell of cells) {
    const key = cellKey(cell.remarktype_id, cell.student_id);
    const before = stored.get(key);
    const version = versions.get(key) ?? before?.version ?? 0;
    put(remarks, cell.remarktype_id, cell.student_id, { comment: version === 0 ? '' : cell.text, version });
  }
  const created = writes.length === 0 || writes.some((write) => write.kind === 'insert');
  return { message: created ? RESULT_MESSAGES.created : RESULT_MESSAGES.updated, saved, deleted, unchanged, remarks };
}

/** The 409 of a save: the conflict's text names the comments (learner and remark type); each with theirs, by whom, and yours. */
async function conflictError(
  tx: TenantTx,
  conflicts: ReadonlyArray<{ cell: Cell; stored: StoredRemark | undefined }>,
  learners: ReadonlyMap<string, { fullname: string }>,
  types: ReadonlyMap<string, { label: string }>,
): Promise<AppError> {
  const names = await userNames(
    tx,
    conflicts.map((conflict) => conflict.stored?.user_id ?? null),
  );
  const named = conflicts.map(
    ({ cell }) => `${learners.get(cell.student_id)?.fullname ?? cell.student_id} (${types.get(cell.remarktype_id)?.label ?? ''})`,
  );
  const about = named.length > 3 ? `${named.slice(0, 3).join(', ')} …` : named.join(', ');
  const details: RemarkConflict[] = conflicts.map(({ cell, stored }) => ({
    remarktype_id: cell.remarktype_id,
    student_id: cell.student_id,
    theirs: stored?.comment ?? '',
    version: stored?.version ?? 0,
    yours: cell.text,
    by: stored?.user_id ? (names.get(stored.user_id) ?? null) : null,
  }));
  return new AppError(409, `${REMARK_MESSAGES.conflict}: ${about}` as AboutMessage, undefined, { conflicts: details });
}

/**
 * Deletes a class's remarks of a remark type and its sub categories (one learner's, or a
 * stream's, or the class's) in the action's one transaction; the texts stay in the history.
 */
export async function deleteRemarks({ tx }: ActionContext, body: RemarksDelete): Promise<{ message: string; records: number }> {
  const types = await schoolRemarkTypes(tx);
  const errors: FieldErrors = {};
  const chosen = types.find((type) => type.id === body.remarktype_id);
  if (!chosen) errors.remarktype_id = [REMARK_MESSAGES.remarkTypeUnknown];
  if (body.student_id && !(await learnerExists(tx, body.student_id))) errors.student_id = [REMARK_MESSAGES.learnerUnknown];
  if (Object.keys(errors).length > 0 || !chosen) throw invalid(errors);
  const ids = [chosen.id, ...types.filter((type) => type.parent_id === chosen.id).map((type) => type.id)];
  const where = { form: body.form, term: body.term, year: body.year };
  await lockInTenant(tx, classLock(where));
  const records = await deleteClassRemarks(tx, { ...where, stream: body.stream, studentId: body.student_id ?? null }, ids);
  if (records > 0) await recordAudit(tx, { action: 'delete', entity: 'remarks', before: { filter: body, records } });
  return { message: REMARK_MESSAGES.deleted, records };
}
