import {
  type AttendanceRequest,
  type AttendanceRows,
  type LearnerValuesSaved,
  MARK_MESSAGES,
  MAX_GRID_CELLS,
  MAX_TARGET,
  MAX_TOTAL_DAYS,
  type MarkTargetRequest,
  type MarkTargetRows,
  markTargets,
  RESULT_MESSAGES,
  type ReadLearnerValue,
  readDaysAttended,
  readTarget,
  readTotalDays,
  SETTINGS_MESSAGES,
} from '@mustard/shared';
import type { z } from 'zod';
import { recordAudit } from '../../audit/audit.repository.js';
import type { TenantTx } from '../../db/tenant.js';
import { type FieldErrors, invalid } from '../../errors.js';
import type { ActionContext } from '../../plugins/endpoints.js';
import { timestampedFileName } from '../../resources/excel.js';
import { EXPORT_LIMIT, listWorkbook } from '../../resources/resource-routes.js';
import {
  type ClassTerm,
  countTargets,
  deleteAttendance,
  deleteTargets,
  setAttendanceTotal,
  storedAttendance,
  storedTargets,
  subjectById,
  targetListRows,
  upsertAttendance,
  upsertTargets,
} from './class-records.repository.js';
import { existingStudentids, type Learner, learnersOf } from './entry.repository.js';
import { type LearnerSheet, type ReadLearnerSheet, sheetValues } from './learner-sheet.js';

/*
 * A class's one value per learner for a term (issue 14 points 6 and 7): the days each learner
 * attended out of the term's total, and each learner's target in a subject. Each is loaded for
 * the class's active learners, saved from the page (values by learner id; empty clears) or from
 * a filled sheet (learner-sheet.ts; empty leaves), one transaction per action, all or nothing:
 * every value and learner is checked before anything is written.
 */

/** A value to write for a learner, or null to clear it; `before` is what is stored. */
type Change = { studentId: string; value: number | null; before: number | null };

/** The changes a save makes: values that differ from the stored ones (the same save twice changes nothing). */
function changesOf(values: ReadonlyMap<string, number | null>, stored: ReadonlyMap<string, number>) {
  const changes: Change[] = [];
  for (const [studentId, value] of values) {
    const before = stored.get(studentId) ?? null;
    if (before !== value) changes.push({ studentId, value, before });
  }
  return { changes, unchanged: values.size - changes.length };
}

/** §8's words for a save: created when it added a value (or changed nothing), else updated. */
const savedMessage = (changes: readonly Change[]) =>
  changes.length === 0 || changes.some((change) => change.before === null) ? RESULT_MESSAGES.created : RESULT_MESSAGES.updated;

/**
 * A page's values by learner id, each read by `read` and its learner checked to be of the
 * class: 422 naming each bad `<field>.<learner id>`, nothing saved.
 */
function pageValues(
  field: string,
  sent: Readonly<Record<string, string | number | null>>,
  learners: ReadonlyMap<string, Learner>,
  read: (value: unknown) => ReadLearnerValue,
): Map<string, number | null> {
  const errors: FieldErrors = {};
  const values = new Map<string, number | null>();
  for (const [studentId, raw] of Object.entries(sent)) {
    const path = `${field}.${studentId}`;
    if (!learners.has(studentId)) errors[path] = [MARK_MESSAGES.learnerNotInClass];
    else {
      const value = read(raw);
      if (value.ok) values.set(studentId, value.value);
      else errors[path] = [value.error];
    }
  }
  if (Object.keys(errors).length > 0) throw invalid(errors);
  return values;
}

/** The class's learners, by id and by student id (a sheet's key), within a page's bound. */
async function classOf(tx: TenantTx, where: ClassTerm) {
  const learners = await learnersOf(tx, where);
  if (learners.length > MAX_GRID_CELLS) throw invalid({ form: [MARK_MESSAGES.gridTooLarge] });
  return {
    learners,
    byId: new Map(learners.map((learner) => [learner.id, learner])),
    byStudentid: new Map(learners.map((learner) => [learner.studentid, learner])),
  };
}

/** A sheet's values checked against the class (learner-sheet.ts's rules): learners of another class or none named by row. */
async function sheetValuesOf(
  tx: TenantTx,
  sheet: ReadLearnerSheet,
  header: string,
  read: (value: unknown) => ReadLearnerValue,
  byStudentid: ReadonlyMap<string, Learner>,
) {
  const strangers = sheet.rows.flatMap((row) => (row.studentid !== null && !byStudentid.has(row.studentid) ? [row.studentid] : []));
  return sheetValues(sheet, header, read, { inGrid: byStudentid, elsewhere: await existingStudentids(tx, strangers) });
}

/* ---- Attendance ---- */

/** The attendance sheet's words: its value column and the block's keys. */
export const ATTENDANCE_SHEET = { name: 'Attendance', header: 'Days attended', totalDays: 'Total days' } as const;

/** The term's total days as recorded for the class: the most common (a class records one total). */
function recordedTotal(rows: ReadonlyArray<{ total_days: number }>): number | null {
  const counts = new Map<number, number>();
  for (const row of rows) counts.set(row.total_days, (counts.get(row.total_days) ?? 0) + 1);
  let best: number | null = null;
  for (const [total, count] of counts) if (best === null || count > (counts.get(best) ?? 0)) best = total;
  return best;
}

/** A class's attendance for a term: every active learner with their days (null if none recorded), and the total. */
export async function loadAttendance({ tx }: ActionContext, query: AttendanceRequest): Promise<AttendanceRows> {
  const { learners } = await classOf(tx, query);
  const stored = await storedAttendance(
    tx,
    query,
    learners.map((learner) => learner.id),
  );
  const days = new Map(stored.map((row) => [row.student_id, row.days]));
  return {
    students: learners.map((student) => ({ student, daysattended: days.get(student.id) ?? null })),
    totaldays: recordedTotal(stored),
  };
}

/**
 * Writes a class's attendance in the action's transaction: each changed learner's days with the
 * term's total days (a learner whose days are cleared loses the row), and every other recorded
 * learner of the class given the new total, so the class keeps one total.
 */
async function writeAttendance(
  tx: TenantTx,
  where: ClassTerm,
  classIds: readonly string[],
  values: ReadonlyMap<string, number | null>,
  totalDays: number,
): Promise<LearnerValuesSaved> {
  const stored = await storedAttendance(tx, where, classIds, true);
  const days = new Map(stored.map((row) => [row.student_id, row.days]));
  // Days above a new, smaller total are refused by name, as if typed.
  const errors: FieldErrors = {};
  for (const row of stored)
    if (!values.has(row.student_id) && row.days > totalDays) errors[`daysattended.${row.student_id}`] = [MARK_MESSAGES.daysAboveTotal];
  if (Object.keys(errors).length > 0) throw invalid(errors);
  const { changes, unchanged } = changesOf(values, days);
  const totalChanged = stored.some((row) => row.total_days !== totalDays);
  const writes = changes.filter((change) => change.value !== null);
  const cleared = changes.filter((change) => change.value === null).map((change) => change.studentId);
  await upsertAttendance(
    tx,
    where,
    writes.map((change) => ({ studentId: change.studentId, value: change.value as number })),
    totalDays,
  );
  await deleteAttendance(tx, where, cleared);
  if (totalChanged) await setAttendanceTotal(tx, where, classIds, totalDays);
  if (changes.length > 0 || totalChanged)
    await recordAudit(tx, {
      action: 'update',
      entity: 'attendances',
      entityId: `${where.form}/${where.stream ?? ''}/${where.term}/${where.year}`,
      after: { saved: changes.length, totalDays },
    });
  return { message: savedMessage(changes), saved: changes.length, unchanged };
}

/** The total days sent, or 422 naming `totaldays`. */
function totalDaysOf(value: unknown): number {
  const total = readTotalDays(value);
  if (!total.ok || total.value === null) throw invalid({ totaldays: [MARK_MESSAGES.totalDaysInvalid] });
  return total.value;
}

/** Saves the page's attendance: `daysattended` by learner id (empty clears) out of `totaldays`. */
export async function saveAttendance({ tx }: ActionContext, body: AttendanceRequest): Promise<LearnerValuesSaved> {
  const totalDays = totalDaysOf(body.totaldays);
  const { learners, byId } = await classOf(tx, body);
  const values = pageValues('daysattended', body.daysattended ?? {}, byId, (raw) => readDaysAttended(raw, totalDays));
  return writeAttendance(
    tx,
    body,
    learners.map((learner) => learner.id),
    values,
    totalDays,
  );
}

/** The attendance sheet of a class: the block names class, stream, term and year, and holds the total days to fill. */
export async function attendanceSheet(
  context: ActionContext,
  query: AttendanceRequest,
): Promise<{ sheet: LearnerSheet; fileName: string }> {
  const rows = await loadAttendance(context, query);
  const part = (text: string | null, fallback: string) => (text ?? '').replace(/[^A-Za-z0-9]+/g, '') || fallback;
  const about = [
    { key: 'Class', value: query.form },
    { key: 'Stream', value: query.stream },
    { key: 'Term', value: query.term },
    { key: 'Year', value: query.year },
    { key: ATTENDANCE_SHEET.totalDays, value: rows.totaldays },
  ];
  // The days column's rule reads the total from its cell in the block (column B).
  const totalCell = `$B$${about.length}`;
  return {
    fileName: `Attendance-${part(query.form, 'Class')}-${part(query.stream, 'All')}-Term${query.term}-${query.year}.xlsx`,
    sheet: {
      name: ATTENDANCE_SHEET.name,
      about,
      column: {
        header: ATTENDANCE_SHEET.header,
        note: `Days the learner attended: a whole number from 0 to the total days (row ${ATTENDANCE_SHEET.totalDays}).`,
        rule: (cell) => `AND(ISNUMBER(${cell}),${cell}>=0,INT(${cell})=${cell},${cell}<=${totalCell})`,
        error: 'Enter a whole number from 0 to the total days, or leave it empty.',
      },
      learners: rows.students.map(({ student, daysattended }) => ({ ...student, value: daysattended })),
      instructions: [
        `Fill in the total days of the term (${ATTENDANCE_SHEET.totalDays}, from 1 to ${MAX_TOTAL_DAYS}) and each learner's days attended on the ${ATTENDANCE_SHEET.name} sheet, then upload this file with the same class, stream, term and year.`,
        'An empty cell leaves the days recorded as they are: to remove them, clear them on the attendance page.',
        'Keep the rows above the table and the Student ID column: they say which class and which learner each row is for. Rows may be sorted.',
        'Every row is checked before anything is saved: if any row is wrong, nothing is saved and each problem is listed by its row.',
      ],
    },
  };
}

/** The sheet's identity: what its block must name for the request it is uploaded with. */
export const attendanceSheetIdentity = (query: ClassTerm) => ({
  Class: query.form,
  Stream: query.stream,
  Term: query.term,
  Year: query.year,
});

/** Saves a filled attendance sheet: its total days (from the block) and every filled learner's days, all or nothing. */
export async function saveAttendanceSheet(
  { tx }: ActionContext,
  query: AttendanceRequest,
  sheet: ReadLearnerSheet,
): Promise<LearnerValuesSaved> {
  const total = readTotalDays(sheet.about.get('totaldays') ?? null);
  if (!total.ok || total.value === null) throw invalid({ file: [MARK_MESSAGES.totalDaysInvalid] });
  const totalDays = total.value;
  const { learners, byStudentid } = await classOf(tx, query);
  const values = await sheetValuesOf(tx, sheet, ATTENDANCE_SHEET.header, (raw) => readDaysAttended(raw, totalDays), byStudentid);
  const answer = await writeAttendance(
    tx,
    query,
    learners.map((learner) => learner.id),
    values,
    totalDays,
  );
  return answer;
}

/* ---- Mark targets ---- */

/** The targets sheet's words. */
export const TARGETS_SHEET = { name: 'Targets', header: 'Target' } as const;

/** The subject a targets page names: the school's, else 422 naming `subject_id`. */
async function subjectOf(tx: TenantTx, subjectId: string) {
  const subject = await subjectById(tx, subjectId);
  if (!subject) throw invalid({ subject_id: [SETTINGS_MESSAGES.referenceMissing] });
  return subject;
}

/** A class's targets in a subject for a term: every active learner with `targets.target`, or `targets` null. */
export async function loadTargets({ tx }: ActionContext, query: MarkTargetRequest): Promise<MarkTargetRows> {
  await subjectOf(tx, query.subject_id);
  const { learners } = await classOf(tx, query);
  const stored = await storedTargets(
    tx,
    query,
    learners.map((learner) => learner.id),
  );
  return learners.map((student) => {
    const target = stored.get(student.id);
    return { student, targets: target === undefined ? null : { target } };
  });
}

/** Writes a class's changed targets in the action's transaction (a cleared one is deleted). */
async function writeTargets(
  tx: TenantTx,
  where: MarkTargetRequest,
  values: ReadonlyMap<string, number | null>,
): Promise<LearnerValuesSaved> {
  const stored = await storedTargets(tx, where, [...values.keys()], true);
  const { changes, unchanged } = changesOf(values, stored);
  const writes = changes.filter((change) => change.value !== null);
  const cleared = changes.filter((change) => change.value === null).map((change) => change.studentId);
  await upsertTargets(
    tx,
    where,
    writes.map((change) => ({ studentId: change.studentId, value: change.value as number })),
  );
  await deleteTargets(tx, where, cleared);
  if (changes.length > 0)
    await recordAudit(tx, {
      action: 'update',
      entity: 'mark_targets',
      entityId: `${where.form}/${where.stream ?? ''}/${where.subject_id}/${where.term}/${where.year}`,
      after: { saved: changes.length },
    });
  return { message: savedMessage(changes), saved: changes.length, unchanged };
}

/** Saves the page's targets: `target` by learner id (empty clears). */
export async function saveTargets({ tx }: ActionContext, body: MarkTargetRequest): Promise<LearnerValuesSaved> {
  await subjectOf(tx, body.subject_id);
  const { byId } = await classOf(tx, body);
  return writeTargets(tx, body, pageValues('target', body.target ?? {}, byId, readTarget));
}

/** The targets sheet of a class in a subject, named Mark_Targets-<timestamp>.xlsx (spec §9). */
export async function targetsSheet(context: ActionContext, query: MarkTargetRequest): Promise<{ sheet: LearnerSheet; fileName: string }> {
  const subject = await subjectOf(context.tx, query.subject_id);
  const rows = await loadTargets(context, query);
  return {
    fileName: timestampedFileName('Mark_Targets'),
    sheet: {
      name: TARGETS_SHEET.name,
      about: [
        { key: 'Class', value: query.form },
        { key: 'Stream', value: query.stream },
        { key: 'Subject', value: subject.name },
        { key: 'Term', value: query.term },
        { key: 'Year', value: query.year },
        { key: 'Subject ID', value: subject.id, hidden: true },
      ],
      column: {
        header: TARGETS_SHEET.header,
        note: `The mark the learner aims at: from 0 to ${MAX_TARGET}, at most one decimal.`,
        rule: (cell) => `AND(ISNUMBER(${cell}),${cell}>=0,${cell}<=${MAX_TARGET},ROUND(${cell},1)=${cell})`,
        error: `Enter a number from 0 to ${MAX_TARGET} with at most one decimal, or leave it empty.`,
      },
      learners: rows.map(({ student, targets }) => ({ ...student, value: targets?.target ?? null })),
      instructions: [
        `Fill in each learner's target on the ${TARGETS_SHEET.name} sheet, then upload this file with the same class, stream, subject, term and year.`,
        'An empty cell leaves the target as it is: to remove one, clear it on the mark targets page.',
        'Keep the rows above the table and the Student ID column: they say which class, subject and learner each row is for. Rows may be sorted.',
        'Every row is checked before anything is saved: if any row is wrong, nothing is saved and each problem is listed by its row.',
      ],
    },
  };
}

export const targetsSheetIdentity = (query: MarkTargetRequest) => ({
  Class: query.form,
  Stream: query.stream,
  Term: query.term,
  Year: query.year,
  'Subject ID': query.subject_id,
});

/** Saves a filled targets sheet: every filled learner's target, all or nothing. */
export async function saveTargetsSheet(
  { tx }: ActionContext,
  query: MarkTargetRequest,
  sheet: ReadLearnerSheet,
): Promise<LearnerValuesSaved> {
  await subjectOf(tx, query.subject_id);
  const { byStudentid } = await classOf(tx, query);
  return writeTargets(tx, query, await sheetValuesOf(tx, sheet, TARGETS_SHEET.header, readTarget, byStudentid));
}

/** The targets list's query as the route reads it: the resource's filters, paging and `excel`. */
export type MarkTargetsListQuery = z.infer<typeof markTargets.filters> & { page: number; per_page: number; excel: boolean };

/** The mark targets list (`/school/marktargets`): a school's targets as the spec's table shows them; `excel` for all of them. */
export async function listTargets({ tx }: ActionContext, query: MarkTargetsListQuery) {
  const paging = query.excel ? { limit: EXPORT_LIMIT, offset: 0 } : { limit: query.per_page, offset: (query.page - 1) * query.per_page };
  const rows = await targetListRows(tx, query, paging);
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
    subject: row.subject,
    subject_id: row.subject_id,
    target: Number(row.target),
  }));
  if (query.excel) return listWorkbook(markTargets, records);
  return { marktargets: records, totalRecords: await countTargets(tx, query) };
}
