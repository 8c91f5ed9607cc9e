import {
  type ClassStreams,
  IN_USE_MESSAGES,
  matchClass,
  matchStream,
  type PromoteResponse,
  STUDENT_MESSAGES,
  type Student,
  type StudentInput,
  type StudentListQuery,
} from '@mustard/shared';
import { recordAudit } from '../../audit/audit.repository.js';
import { newId } from '../../db/ids.js';
import { lockInTenant, type TenantTx } from '../../db/tenant.js';
import { conflict, invalid, notFound, stillReferenced } from '../../errors.js';
import type { ActionContext } from '../../plugins/endpoints.js';
import { rowsToWorkbook } from '../../resources/excel.js';
import { giveLearnerCodes, lockStudentIds, nextStudentIds, schoolLearnerCodes } from './student-ids.js';
import {
  classStreams,
  completeClass,
  deleteStudentRow,
  findStudent,
  findStudentCategory,
  insertStudent,
  listStudents,
  lockStudent,
  moveClasses,
  promotionCounts,
  recentClassHistory,
  recordClassHistory,
  schoolStreams,
  studentColumns,
  studentHolding,
  updateStudent,
} from './students.repository.js';

/** The class list's spreadsheet columns (spec §2 "Students" table). */
const CLASS_LIST_COLUMNS: Array<[keyof Student, string]> = [
  ['studentid', 'Student ID'],
  ['fullname', 'Name'],
  ['form', 'Class'],
  ['stream', 'Stream'],
  ['gender', 'Gender'],
  ['phone', 'Phone'],
  ['email', 'Email'],
  ['studentcategory', 'Category'],
  ['code', 'Passcode'],
  ['house', 'House'],
  ['lin', 'LIN'],
  ['guardian_email', 'Guardian email'],
];

/** `Classlist-P4-East.xlsx`: the class and stream, with nothing a file name should not hold. */
export function classListFileName(form?: string, stream?: string): string {
  const part = (text: string | undefined, fallback: string) => (text ?? '').replace(/[^A-Za-z0-9-]+/g, '') || fallback;
  return `Classlist-${part(form, 'All')}-${part(stream, 'All')}.xlsx`;
}

/** The class list as a page of the screen, or whole (`excel`) as a workbook named for the class. */
export async function classList({ tx }: ActionContext, query: StudentListQuery) {
  const { excel, page, per_page, ...filters } = query;
  const answer = await listStudents(tx, filters, excel ? null : { page, perPage: per_page });
  if (!excel) return { answer };
  const workbook = await rowsToWorkbook(
    'Class list',
    CLASS_LIST_COLUMNS.map(([field, header]) => ({
      header,
      value: (row: Student) => (field === 'studentcategory' ? (row.studentcategory?.name ?? null) : row[field]),
    })),
    answer.students,
  );
  return { workbook, fileName: classListFileName(filters.form, filters.stream) };
}

export async function studentById({ tx }: ActionContext, id: string): Promise<Student> {
  const student = await findStudent(tx, id);
  if (!student) throw notFound();
  return student;
}

async function checkCategory(tx: TenantTx, categoryId: string | null): Promise<void> {
  if (!categoryId) return;
  const found = await findStudentCategory(tx, categoryId);
  if (!found) throw invalid({ studentcategory_id: [STUDENT_MESSAGES.categoryUnknown] });
}

/**
 * A student id, passcode or payment code is one learner's: a bank's payment matched by code must
 * find one learner, and a parent's passcode must open one report. Only values that change are
 * given (a school's older data may hold a pair already).
 */
async function checkUnique(
  tx: TenantTx,
  values: { studentid: string; code: string | null; paymentcode: string | null },
  exceptId: string | null,
): Promise<void> {
  const messages = {
    studentid: STUDENT_MESSAGES.studentidTaken,
    code: STUDENT_MESSAGES.codeTaken,
    paymentcode: STUDENT_MESSAGES.paymentcodeTaken,
  } as const;
  const errors: Record<string, string[]> = {};
  for (const field of ['code', 'paymentcode', 'studentid'] as const) {
    const value = values[field];
    if (!value) continue;
    if (await studentHolding(tx, field, value, exceptId)) errors[field] = [messages[field]];
  }
  if (Object.keys(errors).length > 0) throw invalid(errors);
}

export interface SaveStudent {
  /** The learner edited; null adds one. */
  id: string | null;
  input: StudentInput;
  /** The photo file just stored for this learner, if the form carried one. */
  photo: string | null;
}

/**
 * Adds or edits a learner: the category is the school's, the class one the school offers (in
 * its spelling), the stream as the school already writes it; a new learner without an id gets
 * the school's next one, and a passcode and payment code unless the form gives them. Answers the
 * learner as saved and the photo file the new one replaced (to remove once committed).
 */
export async function saveStudent({ tx, school }: ActionContext, { id, input, photo }: SaveStudent) {
  const before = id ? await findStudent(tx, id) : null;
  if (id && !before) throw notFound();
  await checkCategory(tx, input.studentcategory_id);
  const form = matchClass(school.classes, input.form);
  if (form === null) throw invalid({ form: [STUDENT_MESSAGES.classUnknown] });
  input.form = form;
  input.stream = matchStream(await schoolStreams(tx), input.stream);
  const studentid = input.studentid ?? before?.studentid ?? (await nextStudentIds(tx, school.name, 1))[0] ?? '';
  if (before) {
    // Codes printed on letters stay: a blank in an edit keeps the learner's own.
    input.code ??= before.code;
    input.paymentcode ??= before.paymentcode;
  } else {
    // The school's lock keeps two learners added at once from drawing the same codes.
    await lockStudentIds(tx);
    giveLearnerCodes([input], await schoolLearnerCodes(tx));
  }
  await checkUnique(
    tx,
    {
      studentid: studentid === before?.studentid ? '' : studentid,
      code: input.code === before?.code ? null : input.code,
      paymentcode: input.paymentcode === before?.paymentcode ? null : input.paymentcode,
    },
    id,
  );
  const columns = { ...studentColumns({ ...input, studentid }), ...(photo ? { photo_path: photo } : {}) };
  const studentId = id ?? newId();
  if (id) await updateStudent(tx, id, columns);
  else await insertStudent(tx, studentId, columns);
  const after = (await findStudent(tx, studentId)) as Student;
  await recordAudit(tx, {
    action: id ? 'update' : 'create',
    entity: 'students',
    entityId: studentId,
    before,
    after,
  });
  return { saved: after, replaced: photo && before?.photo_path ? before.photo_path : null };
}

/**
 * A learner entered by mistake can be removed while nothing hangs on them: no marks and no
 * fee lines (the database's foreign keys decide, so a mark saved a moment earlier still
 * counts). Anyone else is made inactive instead, keeping their history and balance. Answers
 * the learner removed (its photo file goes once the removal is committed).
 */
export async function deleteStudent({ tx }: ActionContext, id: string): Promise<Student> {
  // Locked first: an edit committing meanwhile (a new photo) is seen, not overwritten in the audit.
  const locked = await lockStudent(tx, id);
  // The same delete sent twice at once: the second waited for the first and finds nothing.
  const before = locked ? await findStudent(tx, locked.id) : undefined;
  if (!before) throw notFound();
  await deleteStudentRow(tx, before.id).catch((error: unknown) => {
    throw stillReferenced(error) ? conflict(IN_USE_MESSAGES.students) : error;
  });
  await recordAudit(tx, { action: 'delete', entity: 'students', entityId: before.id, before });
  return before;
}

/**
 * Promotion (spec §4): every active learner moves to the next class of the school's list (P1
 * to P2 … S5 to S6); the top class leaves the active list as completed. One transaction; the
 * class each learner left is kept in their history. Without `commit` nothing moves and the
 * answer says what would.
 */
export async function promoteLearners({ tx, school }: ActionContext, { commit }: { commit: boolean }): Promise<PromoteResponse> {
  const { classes } = school;
  const top = classes.at(-1) as string;
  const moving = classes.slice(0, -1);
  const year = new Date().getFullYear();
  if (commit) {
    // One promotion at a time per school, and not twice in a row: a second click (or a
    // retried request on a dropping connection) must not move every learner up again.
    await lockInTenant(tx, 'promote');
    const recent = await recentClassHistory(tx);
    if (recent) throw conflict(STUDENT_MESSAGES.promotedRecently);
  }
  const counts = await promotionCounts(tx, classes, top);
  if (!commit) return { message: STUDENT_MESSAGES.promoteConfirm, promoted: counts.promoted, completed: counts.completed };
  await recordClassHistory(tx, classes, top, year);
  await completeClass(tx, top);
  // Each class's learners move to the next class of the list, all in one statement.
  if (moving.length > 0)
    await moveClasses(
      tx,
      moving.map((form, index) => [form, classes[index + 1] as string] as const),
    );
  await recordAudit(tx, { action: 'promote', entity: 'students', after: { ...counts, year } });
  return { message: STUDENT_MESSAGES.promoted, promoted: counts.promoted, completed: counts.completed };
}

/** Each class's streams (the class sheets' Stream choices): every member reads them, as the class list. */
export async function streamsOfClasses({ tx }: ActionContext): Promise<ClassStreams> {
  return { classes: await classStreams(tx) };
}
