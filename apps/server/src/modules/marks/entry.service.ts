import {
  ABSENT,
  allows,
  type CellChange,
  cellKey,
  competencyScale,
  currentTerm,
  defaultTermDates,
  localDay,
  MARK_MESSAGES,
  MAX_GRID_CELLS,
  type MarkConflict,
  type MarkHistoryQuerySchema,
  type MarkScale,
  type MarksDeleteSchema,
  type MarksGrid,
  type MarksGridQuery,
  type MarksSave,
  type MarksSaved,
  type MarkValue,
  marks,
  markTypeScale,
  mayOpen,
  PAPERS,
  planSave,
  RESULT_MESSAGES,
  readMarkValue,
  type SavePlan,
  SETTINGS_MESSAGES,
  type StoredMark,
  savedCells,
  streamsToEnter,
  TERMS,
} from '@mustard/shared';
import type { z } from 'zod';
import { recordAudit } from '../../audit/audit.repository.js';
import type { TenantTx } from '../../db/tenant.js';
import { AppError, type FieldErrors, invalid } from '../../errors.js';
import type { ActingMember, ActionContext } from '../../plugins/endpoints.js';
import { EXPORT_LIMIT, listWorkbook } from '../../resources/resource-routes.js';
import { curriculumSettings } from '../settings/class-curricula.repository.js';
import { assignmentsOf } from '../staff/staff.repository.js';
import {
  applyMarkChanges,
  claimSaveId,
  countMarks,
  deleteMarksWithHistory,
  existingStudentids,
  gridSubject,
  keepSaveAnswer,
  type Learner,
  learnersOf,
  markHistoryRows,
  markListRows,
  markOf,
  markTypesByIds,
  publishedMarkTypes,
  savedAnswer,
  storedMarks,
  subjectPapers,
  subjectTopic,
  termDatesOf,
  userNames,
} from './entry.repository.js';
import { gridFileName, type ReadGridSheet, type SheetAbout, sheetCells } from './grid-sheet.js';

/*
 * Entering marks (issue 14): the grid's load and its save, and the grid as a sheet (download,
 * and a filled sheet saved; its layout and reading in grid-sheet.ts). The route opens one
 * transaction per action; a save decides everything (validation, assignments, published marks,
 * conflicts) before it writes, so a grid or a sheet is saved whole or not at all.
 */

/** Who acts: their rights in the school (the assignment rule and the published lock read them). */
type Member = Pick<ActingMember, 'userId' | 'ability'>;

/** What a grid is about, as the load and the save both name it. */
interface GridTarget {
  form: string;
  stream: string | null;
  term: (typeof TERMS)[number];
  year: number;
  subject_id: string;
  paper: (typeof PAPERS)[number];
  topic_id: string | null;
}

/** The mark type category of the end-of-term exam (the summative part of a new-curriculum card). */
const EXAM_CATEGORY = 'exam';

const termIndex = (term: string) => TERMS.indexOf(term as (typeof TERMS)[number]);

/** The school's terms of a year (its own dates, else the Ugandan defaults). */
async function termsOf(tx: TenantTx, year: number) {
  const rows = await termDatesOf(tx, year);
  return rows.length > 0 ? rows.map((row) => ({ ...row, term: row.term as (typeof TERMS)[number] })) : defaultTermDates(year);
}

/**
 * Checks what a grid names before anything is read or written: the subject and its papers, the
 * mark types (the school's, active), a term no later than the current one (the school's calendar;
 * in the holidays the coming term, which every term filter starts with, so the page's defaults
 * are never refused), and that the member may enter marks here (their assignments, unless they
 * manage marks). Answers the mark types, in order, and
 * the subject and topic by name (a sheet writes them).
 */
async function checkTarget(tx: TenantTx, target: GridTarget, marktypeIds: readonly string[], member: Member) {
  const errors: FieldErrors = {};
  const subject = await gridSubject(tx, target.subject_id);
  if (!subject) errors.subject_id = [SETTINGS_MESSAGES.referenceMissing];
  if (subject && target.paper !== 'I') {
    const paperForms = (subject.multiple_paper_forms ?? '').split(',').map((form) => form.trim().toLowerCase());
    const papers = await subjectPapers(tx, { subject_id: subject.id, form: target.form, term: target.term, year: target.year });
    const allowed = subject.multiple_papers && paperForms.includes(target.form.toLowerCase()) ? (papers?.papers ?? PAPERS.length) : 1;
    if (PAPERS.indexOf(target.paper) + 1 > allowed) errors.paper = [MARK_MESSAGES.paperTooHigh];
  }
  // A competency's scores: the topic must be the school's, of this subject, class and term, in
  // a class that follows the new curriculum that year; its scores run on the identifier scale.
  const topic = subject && target.topic_id ? await subjectTopic(tx, target.topic_id, subject.id) : undefined;
  let competency: MarkScale | null = null;
  if (target.topic_id && !topic) errors.topic_id = [SETTINGS_MESSAGES.referenceMissing];
  else if (topic) {
    const settings = await curriculumSettings(tx, target.year);
    if (topic.form.toLowerCase() !== target.form.toLowerCase() || topic.term !== target.term)
      errors.topic_id = [MARK_MESSAGES.competencyOtherClass];
    else if (!settings.isNew(target.form)) errors.topic_id = [MARK_MESSAGES.competencyOldCurriculum];
    competency = competencyScale(settings.allowZero);
  }
  const unique = [...new Set(marktypeIds)];
  const types = await markTypesByIds(tx, unique);
  if (types.length !== unique.length) errors.marktypes = [MARK_MESSAGES.markTypeUnknown];
  else if (types.some((type) => type.status === 'inactive')) errors.marktypes = [MARK_MESSAGES.markTypeInactive];
  // An exam is the summative part of the card, never an activity of integration of a competency.
  else if (target.topic_id && types.some((type) => type.category === EXAM_CATEGORY)) errors.marktypes = [MARK_MESSAGES.examNotActivity];
  const today = localDay();
  const now = currentTerm(today, await termsOf(tx, Number(today.slice(0, 4))));
  if (target.year > now.year || (target.year === now.year && termIndex(target.term) > termIndex(now.term)))
    errors.term = [MARK_MESSAGES.futureTerm];
  if (Object.keys(errors).length > 0 || !subject) throw invalid(errors);

  const streams = await streamsOf(tx, target, member);
  if (!mayOpen(streams, target.stream)) throw new AppError(403, MARK_MESSAGES.notAssigned);
  // Each mark type's scale: its maximum, or on a competency the identifier scale whatever its maximum.
  const scales = new Map(types.map((type) => [type.id, competency ?? markTypeScale(Number(type.outof))]));
  return { types, subject, topic: topic ?? null, streams, scales, competency };
}

/**
 * The streams of the grid's class the member may enter marks in: every one for those who manage
 * marks, else those of their assignments (a class opened without a stream is the streams they
 * teach, issue 23 item 18).
 */
async function streamsOf(tx: TenantTx, target: GridTarget, member: Member): Promise<'all' | string[]> {
  if (allows(member.ability, 'manage', 'mark')) return 'all';
  const assignments = await assignmentsOf(tx, member.userId, { term: target.term, year: target.year });
  return streamsToEnter(member.ability, { subjects: assignments.subjects, classes: assignments.classes }, 'marks', target);
}

/** The grid's target as the load, the save and the sheet name it. */
const targetOf = (query: Omit<GridTarget, 'topic_id'> & { topic_id?: string | null | undefined }): GridTarget => ({
  form: query.form,
  stream: query.stream,
  term: query.term,
  year: query.year,
  subject_id: query.subject_id,
  paper: query.paper,
  topic_id: query.topic_id ?? null,
});

/** The grid and what it is about: the subject and topic by name, for the sheet's header. */
async function gridOf(tx: TenantTx, query: MarksGridQuery, member: Member): Promise<{ grid: MarksGrid; about: SheetAbout }> {
  const target = targetOf(query);
  const { types, subject, topic, streams, competency } = await checkTarget(tx, target, query.marktypes, member);
  const learners = await learnersOf(tx, { ...query, streams });
  if (learners.length * types.length > MAX_GRID_CELLS) throw invalid({ marktypes: [MARK_MESSAGES.gridTooLarge] });
  const stored = await storedMarks(tx, target, {
    marktypeIds: types.map((type) => type.id),
    studentIds: learners.map((learner) => learner.id),
  });
  const published = await publishedMarkTypes(tx, target);
  const grid: MarksGrid = {
    students: learners.map((student) => ({
      student,
      marktypes: Object.fromEntries(
        types.flatMap((type) => {
          const mark = stored.get(cellKey(type.id, student.id));
          return mark ? [[type.id, { mark: mark.value, version: mark.version }]] : [];
        }),
      ),
    })),
    marktypes: types.map((type) => ({
      id: type.id,
      label: type.label,
      outof: competency ? competency.highest : Number(type.outof),
      published: published.has(type.id),
    })),
    ...(competency ? { scale: competency } : {}),
  };
  return { grid, about: { ...target, subject: subject.name, topic: topic?.title ?? null } };
}

/** The grid of a class's learners by mark type, with each mark's version (the save's base). */
export async function loadGrid({ tx, member }: ActionContext, query: MarksGridQuery): Promise<MarksGrid> {
  return (await gridOf(tx, query, member)).grid;
}

/**
 * The grid as a sheet to fill offline (grid-sheet.ts says its layout): read in the action's
 * transaction, written into a workbook by the caller once the connection is given back.
 */
export async function loadGridSheet({ tx, member }: ActionContext, query: MarksGridQuery) {
  const { grid, about } = await gridOf(tx, query, member);
  return { grid, about, fileName: gridFileName(about) };
}

/** The cells of a save, read against each mark type's scale; every bad cell named by its path. */
function readCells(body: MarksSave, scales: ReadonlyMap<string, MarkScale>, learners: ReadonlyMap<string, Learner>) {
  const errors: FieldErrors = {};
  const cells: CellChange[] = [];
  for (const [marktypeId, byStudent] of Object.entries(body.marks)) {
    const scale = scales.get(marktypeId);
    for (const [studentId, raw] of Object.entries(byStudent)) {
      const path = `marks.${marktypeId}.${studentId}`;
      if (!learners.has(studentId)) {
        errors[path] = [MARK_MESSAGES.learnerNotInClass];
        continue;
      }
      // Never read without the maximum: a mark type the map does not know is refused, not unbounded.
      if (!scale) {
        errors[path] = [MARK_MESSAGES.markTypeUnknown];
        continue;
      }
      const read = readMarkValue(raw, scale);
      if (!read.ok) {
        errors[path] = [read.error];
        continue;
      }
      cells.push({ marktype_id: marktypeId, student_id: studentId, value: read.value, base: body.base[marktypeId]?.[studentId] ?? 0 });
    }
  }
  if (Object.keys(errors).length > 0) throw invalid(errors);
  return cells;
}

/**
 * The one way marks are written, for the grid's save and the sheet's alike: the cells' stored
 * marks locked, the plan made (a conflict is a 409 naming each cell, and nothing is written),
 * published marks kept to those who manage marks, then every change written with its history
 * in the action's transaction. Cells without a base (a sheet) overwrite.
 */
async function writeCells(
  tx: TenantTx,
  target: GridTarget,
  cells: ReadonlyArray<CellChange>,
  member: Member,
  source: 'grid' | 'sheet',
): Promise<{ plan: SavePlan; stored: Map<string, StoredMark & { id: string; userId: string | null }> }> {
  const where = {
    marktypeIds: [...new Set(cells.map((cell) => cell.marktype_id))],
    studentIds: [...new Set(cells.map((cell) => cell.student_id))],
  };
  const stored = await storedMarks(tx, target, where, true);
  const plan = planSave(cells, stored);
  if (plan.conflicts.length > 0) throw await conflictError(tx, plan.conflicts, stored);
  if (!allows(member.ability, 'manage', 'mark')) {
    const published = await publishedMarkTypes(tx, target);
    // As stored (small letters): a lock must not open to another spelling of its id.
    if (plan.writes.some((write) => published.has(write.marktype_id.toLowerCase()))) throw new AppError(403, MARK_MESSAGES.published);
  }
  await applyMarkChanges(
    tx,
    target,
    plan.writes.map((write) => ({
      student_id: write.student_id,
      marktype_id: write.marktype_id,
      old: write.before?.value ?? null,
      new: write.value,
      id: stored.get(cellKey(write.marktype_id, write.student_id))?.id,
    })),
    source,
  );
  return { plan, stored };
}

/** §8's words for a save: created when it added a mark (or changed nothing), else updated. */
const savedMessage = (plan: SavePlan) =>
  plan.writes.length === 0 || plan.writes.some((write) => !write.before) ? RESULT_MESSAGES.created : RESULT_MESSAGES.updated;

/** The audit's name of a grid: class, stream, subject, paper, term and year. */
const gridEntity = (target: GridTarget) =>
  `${target.form}/${target.stream ?? ''}/${target.subject_id}/${target.paper}/${target.term}/${target.year}`;

/** How long a save's key answers a retry: a draft kept in the browser may be sent again days later. */
const SAVE_ID_DAYS = 30;

/**
 * Saves a grid in the action's one transaction: the same `save_id` again answers what the first
 * answered and writes nothing; a cell changed by someone since the grid was loaded is a 409
 * naming each such cell (theirs and yours) and nothing is written; published marks are locked
 * to those who manage marks. Every change lands in the history.
 */
export async function saveMarks({ tx, member }: ActionContext, body: MarksSave): Promise<MarksSaved> {
  const userId = member.userId;
  const marktypeIds = Object.keys(body.marks);
  const cellCount = Object.values(body.marks).reduce((sum, byStudent) => sum + Object.keys(byStudent).length, 0);
  if (cellCount > MAX_GRID_CELLS) throw invalid({ marks: [MARK_MESSAGES.gridTooLarge] });
  // The save's key first: a retry sent at once waits here for the first, then finds its answer.
  // Keys older than a retry can be are dropped in the same statement (the table stays small).
  const claimed = await claimSaveId(tx, body.save_id, userId, SAVE_ID_DAYS);
  if (!claimed) {
    const earlier = await savedAnswer(tx, body.save_id);
    if (earlier.user_id !== userId || earlier.answer === null) throw invalid({ save_id: [SETTINGS_MESSAGES.referenceMissing] });
    // What the first save answered, and the cells as they are now: the grid's base to carry on from.
    const cells = Object.entries(body.marks).flatMap(([marktype_id, byStudent]) =>
      Object.keys(byStudent).map((student_id) => ({ marktype_id, student_id })),
    );
    const now = await storedMarks(tx, targetOf(body), {
      marktypeIds,
      studentIds: [...new Set(cells.map((cell) => cell.student_id))],
    });
    return { ...(earlier.answer as Omit<MarksSaved, 'marks'>), marks: savedCells(cells, { writes: [] }, now) };
  }

  const target = targetOf(body);
  const { scales, streams } = await checkTarget(tx, target, marktypeIds, member);
  // The learners the grid lists: a cell of any other learner (another class, or a stream the
  // member does not teach) is named and nothing is saved.
  const learners = new Map((await learnersOf(tx, { ...body, streams })).map((learner) => [learner.id, learner]));
  const cells = readCells(body, scales, learners);
  const { plan, stored } = await writeCells(tx, target, cells, member, 'grid');
  // The grid's new base, known from the plan under its lock: no read back.
  const marks = savedCells(cells, plan, stored);
  const answer: MarksSaved = { saved: plan.writes.length, unchanged: plan.unchanged, marks, message: savedMessage(plan) };
  if (plan.writes.length > 0)
    await recordAudit(tx, {
      action: 'update',
      entity: 'marks',
      entityId: gridEntity(target),
      after: { saved: answer.saved, save_id: body.save_id },
    });
  // The key keeps the counts only: a retry reads the cells as they are then.
  const { marks: _cells, ...kept } = answer;
  await keepSaveAnswer(tx, body.save_id, kept);
  return answer;
}

/**
 * Saves a filled grid sheet (read and checked against the request's grid by readGridSheet
 * before the transaction) in the action's one transaction: its mark types checked as a save's
 * (the school's, active, the member's assignment), every row checked (sheetCells), then written
 * like a grid's save, overwriting, with 'sheet' in the history. All or nothing.
 */
export async function saveGridSheet(
  { tx, member }: ActionContext,
  query: MarksGridQuery,
  sheet: ReadGridSheet,
): Promise<{ message: string; saved: number; unchanged: number }> {
  const target = targetOf(query);
  const { types, streams, scales } = await checkTarget(tx, target, sheet.marktypeIds, member);
  const inGrid = new Map((await learnersOf(tx, { ...query, streams })).map((learner) => [learner.studentid, learner]));
  const strangers = sheet.rows.flatMap((row) => (row.studentid !== null && !inGrid.has(row.studentid) ? [row.studentid] : []));
  const cells = sheetCells(
    sheet,
    new Map(types.map((type) => [type.id, { label: type.label, scale: scales.get(type.id) ?? markTypeScale() }])),
    {
      inGrid,
      elsewhere: await existingStudentids(tx, strangers),
    },
  );
  const { plan } = await writeCells(tx, target, cells, member, 'sheet');
  if (plan.writes.length > 0)
    await recordAudit(tx, { action: 'upload', entity: 'marks', entityId: gridEntity(target), after: { saved: plan.writes.length } });
  return { message: savedMessage(plan), saved: plan.writes.length, unchanged: plan.unchanged };
}

/** The 409 of a save: every conflicting cell with theirs (and who wrote it) and yours. */
async function conflictError(
  tx: TenantTx,
  conflicts: ReadonlyArray<MarkConflict>,
  stored: ReadonlyMap<string, { userId: string | null }>,
): Promise<AppError> {
  const writers = conflicts.map((conflict) => stored.get(cellKey(conflict.marktype_id, conflict.student_id))?.userId ?? null);
  const names = await userNames(tx, writers);
  return new AppError(409, MARK_MESSAGES.conflict, undefined, {
    conflicts: conflicts.map((conflict, index) => ({ ...conflict, by: names.get(writers[index] ?? '') ?? null })),
  });
}

/** The marks list's query as the route reads it: the resource's filters, paging and `excel`. */
export type MarksListQuery = z.infer<typeof marks.filters> & { page: number; per_page: number; excel: boolean };

/**
 * The marks list (`/school/marks`): a school's marks, narrowed by class, stream, term, year,
 * subject, paper and mark type, as the spec's table shows them; with `excel` every mark the
 * filter names (to the export limit) as a spreadsheet of the list's columns.
 */
export async function listMarks({ tx }: ActionContext, query: MarksListQuery) {
  const paging = query.excel ? { limit: EXPORT_LIMIT, offset: 0 } : { limit: query.per_page, offset: (query.page - 1) * query.per_page };
  const rows = await markListRows(tx, query, paging);
  const total = await countMarks(tx, query);
  const records = rows.map((row) => ({
    id: row.id,
    student: {
      id: row.student_id,
      studentid: row.studentid,
      fullname: [row.firstname, row.othername, row.lastname].filter(Boolean).join(' '),
    },
    form: row.form,
    stream: row.stream,
    term: row.term,
    year: row.year,
    paper: row.paper,
    sub: row.sub,
    user: row.user,
    marktype: row.marktype,
    mark: markOf(row),
    topic_id: row.topic_id,
  }));
  if (query.excel) return listWorkbook(marks, records);
  return { marks: records, totalRecords: total };
}

/**
 * Deletes the marks the filter names (manage on mark), in the action's transaction; each
 * deleted value stays in the history. Answers how many.
 */
export async function deleteMarks({ tx }: ActionContext, filter: z.infer<typeof MarksDeleteSchema>): Promise<{ records: number }> {
  const records = await deleteMarksWithHistory(tx, filter);
  if (records > 0) await recordAudit(tx, { action: 'delete', entity: 'marks', before: { filter, records } });
  return { records };
}

/** A cell's history, newest first: who changed it, when, from what to what, and how. */
export async function markHistory({ tx }: ActionContext, cell: z.infer<typeof MarkHistoryQuerySchema>) {
  const rows = await markHistoryRows(tx, cell);
  const value = (text: string | null): MarkValue => (text === null ? null : text === ABSENT ? ABSENT : Number(text));
  return {
    history: rows.map((row) => ({ old: value(row.old_value), new: value(row.new_value), source: row.source, user: row.user, at: row.at })),
  };
}
