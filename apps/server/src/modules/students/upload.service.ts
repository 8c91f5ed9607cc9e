import {
  IGNORE_COLUMN,
  STUDENT_MESSAGES as M,
  matchClass,
  matchStream,
  type StudentInput,
  StudentInputSchema,
  type StudentUploadField,
  type StudentUploadPreview,
  type StudentUploadTarget,
} from '@mustard/shared';
import { recordAudit } from '../../audit/audit.repository.js';
import type { TenantTx } from '../../db/tenant.js';
import { AppError, type FieldErrors, invalid, sqlState } from '../../errors.js';
import type { ActionContext } from '../../plugins/endpoints.js';
import { type Cell, cellText, type Sheet, type SheetRow, SPREADSHEET_LIMITS } from '../../resources/spreadsheet.js';
import { giveLearnerCodes, idSequence, initialsOf, lockStudentIds } from './student-ids.js';
import { LEARNER_COLUMNS, type LearnerColumn, schoolStreams } from './students.repository.js';
import {
  type ExistingLearner,
  insertLearners,
  learnersToCompare,
  learnerUploadMappings,
  saveLearnerUploadMappings,
  studentCategories,
  updateLearners,
} from './upload.repository.js';
import type { UploadColumnKey } from './upload-columns.js';
import {
  type ColumnPlan,
  columnLetter,
  findHeaderRow,
  headerKey,
  headingText,
  isUploadField,
  planColumns,
  readDate,
  recognise,
  splitName,
} from './upload-register.js';

/*
 * Bulk upload of learners (issue 5 point 3; security.md items 16, 18, 19).
 *
 * 1. Every row is checked first: the shared StudentInputSchema after the category NAME is turned
 *    into the school's category id; a missing student id (without autoid) and a student id
 *    repeated on a later row are errors too. Any error: a 422 naming each `<row>.<field>`, and
 *    nothing is written.
 * 2. Then, in the same one transaction (one upload of a school at a time): the school's learners
 *    are read with one query, each row is matched by its student id (the key), new learners are
 *    written with multi-row INSERTs and changed ones with multi-row INSERT … ON CONFLICT
 *    (tenant_id, studentid) DO UPDATE, in chunks; no query per row. Rows identical to the
 *    learner on file are not written at all, so the same file twice changes nothing. One audit
 *    entry records the counts.
 *
 * Columns: only the columns the file has are written; a column left out of the file keeps
 * what existing learners have (new learners get nothing, or `active` for status). A blank cell
 * in a column the file has clears that field.
 *
 * autoid, rows without a student id: a row is first matched to an existing learner of the
 * school whose first name, last name, other name, class, stream and date of birth (those of
 * these columns the file has) are the same ignoring case and surrounding spaces, and who is not
 * named by a student id elsewhere in the file; each learner is matched once, in sheet order.
 * That learner is updated, so uploading the same file again never duplicates anyone. The rows
 * left get new ids in sheet order: PREFIX/NNNN continuing the school's sequence, PREFIX being
 * the prefix most used by the school's ids of that form (and the file's), else the initials of
 * the school's name (at most four letters); NNNN the highest serial of that prefix plus one,
 * zero-padded to four digits (or as wide as the school's widest).
 */

export interface UploadCounts {
  created: number;
  updated: number;
  unchanged: number;
}

/** Where a learner may be: the school's classes (its spelling) and the streams it already has. */
export interface Placement {
  classes: ReadonlyArray<string>;
  streams: ReadonlyArray<string>;
}

export interface UploadOptions {
  autoid: boolean;
  /** The school's classes (spec §3 class options): a row must name one of them. */
  classes: ReadonlyArray<string>;
  /** The school's name: its initials start the ids when the school has none of the form PREFIX/NNNN. */
  tenantName: string;
}

/** The learner columns an upload can write: every stored field (the sheet's `category` is `studentcategory_id`). */
type WritableColumn = LearnerColumn;

const WRITABLE: ReadonlyArray<[UploadColumnKey, WritableColumn]> = LEARNER_COLUMNS.map((column) => [
  column === 'studentcategory_id' ? 'category' : column,
  column,
]);

/** The fields that identify a learner without a student id (autoid). */
const IDENTITY: ReadonlyArray<WritableColumn> = ['firstname', 'lastname', 'othername', 'form', 'stream', 'dob'];

export interface CheckedRow {
  /** The row's number in the sheet. */
  number: number;
  input: StudentInput;
}

export interface CheckedSheet {
  rows: CheckedRow[];
  /** The learner columns the file has, so the only ones written. */
  columns: WritableColumn[];
}

/**
 * A cell as text (cellText), except that a date cell no calendar has (a huge serial number in a
 * date format reads as an invalid Date) is text the schema refuses, not a crash.
 */
function textOf(cell: Cell | undefined): string | null {
  if (cell instanceof Date && Number.isNaN(cell.getTime())) return 'Invalid Date';
  return cellText(cell);
}

function addError(errors: FieldErrors, row: number, field: string, message: string): void {
  const key = `${row}.${field}`;
  // Keys are "<row>.<field>" texts, never "__proto__"; errors is a null-prototype object anyway.
  errors[key] = [...(errors[key] ?? []), message];
}

/** One class and stream for every row whose file names none (a register without a class column). */
export interface Defaults {
  form: string | null;
  stream: string | null;
}

/**
 * Every row checked against the shared schema and the school's categories (by lower-case name).
 * `fields` says which column fills which field (planColumns). Answers the rows ready to write,
 * or throws a 422 naming every bad `<row>.<field>`, all of them.
 */
export function checkRows(
  rows: ReadonlyArray<SheetRow>,
  fields: ReadonlyMap<StudentUploadField, number>,
  categories: ReadonlyMap<string, string>,
  autoid: boolean,
  placement: Placement,
  defaults: Defaults = { form: null, stream: null },
): CheckedSheet {
  // Streams in one spelling: the school's, and the first spelling a new one has in the file.
  const streams = [...placement.streams];
  const nameColumn = fields.get('name');
  const fills = (column: WritableColumn): boolean => {
    const key: StudentUploadField = column === 'studentcategory_id' ? 'category' : column;
    if (fields.has(key)) return true;
    if (nameColumn !== undefined && (column === 'firstname' || column === 'lastname' || column === 'othername')) return true;
    return (column === 'form' && defaults.form !== null) || (column === 'stream' && defaults.stream !== null);
  };
  const columns = WRITABLE.filter(([, column]) => fills(column)).map(([, column]) => column);
  const errors: FieldErrors = Object.create(null);
  const checked: CheckedRow[] = [];
  const firstRowOf = new Map<string, number>();
  const text = (cells: Cell[], key: UploadColumnKey): string | null => {
    const index = fields.get(key);
    return index === undefined ? null : textOf(cells[index]);
  };

  for (const { number, cells } of rows) {
    const dobIndex = fields.get('dob');
    const categoryName = text(cells, 'category');
    let categoryId: string | null = null;
    if (categoryName !== null) {
      categoryId = categories.get(categoryName.toLowerCase()) ?? null;
      if (categoryId === null) addError(errors, number, 'category', M.categoryUnknown);
    }
    let dob: string | null = null;
    if (dobIndex !== undefined) {
      const read = readDate(cells[dobIndex]);
      // The cell that is not a date, by its place and what it holds: "Not a date (…): E7 “31/13/2015”".
      if (read === undefined)
        addError(errors, number, 'dob', `${M.notADate}: ${columnLetter(dobIndex)}${number} “${textOf(cells[dobIndex])}”`);
      else dob = read;
    }
    // The whole name in one column fills the name fields no column of their own fills.
    const split = nameColumn === undefined ? null : splitName(textOf(cells[nameColumn]));
    const candidate = {
      studentid: text(cells, 'studentid'),
      firstname: text(cells, 'firstname') ?? split?.firstname ?? null,
      lastname: text(cells, 'lastname') ?? split?.lastname ?? null,
      othername: fields.has('othername') ? text(cells, 'othername') : (split?.othername ?? null),
      gender: text(cells, 'gender'),
      dob,
      form: text(cells, 'form') ?? defaults.form,
      stream: text(cells, 'stream') ?? defaults.stream,
      status: text(cells, 'status')?.toLowerCase() ?? '',
      studentcategory_id: categoryId,
      paymentcode: text(cells, 'paymentcode'),
      address: text(cells, 'address'),
      phone: text(cells, 'phone'),
      email: text(cells, 'email'),
      house: text(cells, 'house'),
      lin: text(cells, 'lin'),
      code: text(cells, 'code'),
      guardian_email: text(cells, 'guardian_email'),
    };
    if (candidate.form !== null) {
      const form = matchClass(placement.classes, candidate.form);
      if (form === null) addError(errors, number, 'form', M.classUnknown);
      else candidate.form = form;
    }
    candidate.stream = matchStream(streams, candidate.stream);
    if (candidate.stream !== null && !streams.includes(candidate.stream)) streams.push(candidate.stream);
    const parsed = StudentInputSchema.safeParse(candidate);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? '_');
        const fromName = split !== null && !fields.has(field as StudentUploadField) && (field === 'firstname' || field === 'lastname');
        // A name cell that gave no first name (or nothing): said of the name column, once.
        if (fromName) {
          if (!errors[`${number}.name`]) addError(errors, number, 'name', M.nameIncomplete);
        } else addError(errors, number, field === 'studentcategory_id' ? 'category' : field, issue.message);
      }
    }
    const studentid = parsed.success ? parsed.data.studentid : candidate.studentid;
    if (studentid === null) {
      if (!autoid) addError(errors, number, 'studentid', M.studentidRequired);
    } else if (firstRowOf.has(studentid)) {
      addError(errors, number, 'studentid', M.studentidRepeated);
    } else {
      firstRowOf.set(studentid, number);
    }
    if (parsed.success) checked.push({ number, input: parsed.data });
  }
  if (Object.keys(errors).length > 0) throw new AppError(422, M.rowsInvalid, { ...errors });
  return { rows: checked, columns };
}

const identityKey = (values: Partial<Record<WritableColumn, string | null>>, fields: ReadonlyArray<WritableColumn>) =>
  fields.map((field) => (values[field] ?? '').trim().toLowerCase()).join('\u0000');

interface Plan {
  /** New learners and changed ones, with their final student id, in sheet order. */
  creates: Array<{ studentid: string; input: StudentInput }>;
  updates: Array<{ studentid: string; input: StudentInput }>;
  counts: UploadCounts;
}

/** Matches the rows to the school's learners, gives out new ids, and sorts created, updated and unchanged. */
export function planUpload(checked: CheckedSheet, existing: ReadonlyArray<ExistingLearner>, options: UploadOptions): Plan {
  const byStudentid = new Map(existing.map((learner) => [learner.studentid, learner]));
  const named = new Set(checked.rows.flatMap((row) => (row.input.studentid ? [row.input.studentid] : [])));
  const finalIds: Array<string | null> = checked.rows.map((row) => row.input.studentid);

  if (finalIds.some((id) => id === null)) {
    const identity = IDENTITY.filter((field) => checked.columns.includes(field));
    const pool = new Map<string, ExistingLearner[]>();
    for (const learner of existing) {
      if (named.has(learner.studentid)) continue;
      const key = identityKey(learner, identity);
      const same = pool.get(key);
      if (same) same.push(learner);
      else pool.set(key, [learner]);
    }
    checked.rows.forEach((row, index) => {
      if (finalIds[index] !== null) return;
      const match = pool.get(identityKey(row.input, identity))?.shift();
      if (match) finalIds[index] = match.studentid;
    });
    const next = idSequence([...byStudentid.keys(), ...named], initialsOf(options.tenantName));
    finalIds.forEach((id, index) => {
      if (id === null) finalIds[index] = next();
    });
  }

  const counts: UploadCounts = { created: 0, updated: 0, unchanged: 0 };
  const plan: Plan = { creates: [], updates: [], counts };
  checked.rows.forEach((row, index) => {
    const studentid = finalIds[index] as string;
    const learner = byStudentid.get(studentid);
    // A blank passcode or payment code keeps the one the learner has (it was generated for
    // them, and the school's sheet may not carry it): a re-upload never wipes it.
    if (learner) for (const field of ['code', 'paymentcode'] as const) row.input[field] ??= learner[field];
    if (!learner) {
      counts.created += 1;
      plan.creates.push({ studentid, input: row.input });
    } else if (checked.columns.some((column) => (learner[column] ?? null) !== (row.input[column] ?? null))) {
      counts.updated += 1;
      plan.updates.push({ studentid, input: row.input });
    } else {
      counts.unchanged += 1;
    }
  });
  return plan;
}

/**
 * Inserts the new learners and updates the changed ones, in batches (upload.repository.ts). New
 * learners are plain INSERTs: if another request gave one of their student ids to a learner since
 * the school's learners were read, the upload stops with a 409 rather than overwrite that learner.
 */
async function writeLearners(tx: TenantTx, plan: Plan, columns: ReadonlyArray<WritableColumn>): Promise<void> {
  // New learners always carry their passcode and payment code, given or generated.
  await insertLearners(tx, plan.creates, [...new Set<WritableColumn>([...columns, 'code', 'paymentcode'])]).catch((error: unknown) => {
    throw sqlState(error) === '23505' ? new AppError(409, M.studentidTaken) : error;
  });
  // Changed learners: only the columns the file has.
  await updateLearners(tx, plan.updates, columns);
}

/** The school's student categories, by name (the template's list, the upload's check). */
export { studentCategories };

/** What a school told the upload its columns mean, by heading (headerKey). */
async function rememberedMapping(tx: TenantTx): Promise<Map<string, StudentUploadTarget>> {
  const rows = await learnerUploadMappings(tx);
  return new Map(
    rows.flatMap((row) =>
      isUploadField(row.field) || row.field === IGNORE_COLUMN ? [[row.header, row.field as StudentUploadTarget]] : [],
    ),
  );
}

/** Remembers the fields chosen for the headings this file has, for the next register of the same shape. */
async function rememberMapping(tx: TenantTx, columns: ReadonlyArray<ColumnPlan>, chosen: ReadonlyMap<string, StudentUploadTarget>) {
  const rows = [...new Set(columns.filter((column) => chosen.has(column.key)).map((column) => column.key))].map((key) => ({
    header: key,
    field: chosen.get(key) as string,
  }));
  if (rows.length === 0) return;
  await saveLearnerUploadMappings(tx, rows);
}

/** A mapping as sent (pairs of heading and field), keyed as headings are compared. */
export function chosenMapping(pairs: ReadonlyArray<readonly [string, StudentUploadTarget]>): Map<string, StudentUploadTarget> {
  const chosen = new Map<string, StudentUploadTarget>();
  for (const [heading, field] of pairs) {
    const key = headerKey(heading);
    if (key !== '') chosen.set(key, field);
  }
  return chosen;
}

export interface Register {
  /** The header row's number in the sheet. */
  headerRow: number;
  columns: ColumnPlan[];
  fields: Map<StudentUploadField, number>;
  repeated: StudentUploadField[];
  /** The rows below the header. */
  rows: SheetRow[];
}

/**
 * A register read as the school's: the header row found below any title rows, with the headings
 * the upload knows, the school's remembered ones and the mapping sent; its columns' fields; the
 * rows below it. `raw` is the sheet read with no header set apart (readSpreadsheet 'none').
 */
export function readRegister(
  raw: Sheet,
  remembered: ReadonlyMap<string, StudentUploadTarget>,
  chosen: ReadonlyMap<string, StudentUploadTarget>,
): Register {
  const fieldOf = (heading: string) => {
    const key = headerKey(heading);
    return chosen.get(key) ?? remembered.get(key) ?? recognise(heading);
  };
  const all = raw.header.length > 0 ? [{ number: 1, cells: raw.header as Cell[] }, ...raw.rows] : raw.rows;
  // No row names a field the upload knows: the first row is the header, as the template's is.
  const at = Math.max(0, findHeaderRow(all, fieldOf));
  const headerCells = all[at]?.cells ?? [];
  const rows = all.slice(at + 1);
  if (rows.length > SPREADSHEET_LIMITS.rows) throw new AppError(422, M.tooManyRows);
  const plan = planColumns(
    headerCells.map((cell) => headingText(cell)),
    remembered,
    chosen,
  );
  return { headerRow: all[at]?.number ?? 1, ...plan, rows };
}

/** The headings of the columns an upload leaves out (nobody mapped them, or mapped them to ignore). */
const ignoredHeadings = (columns: ReadonlyArray<ColumnPlan>) =>
  columns.filter((column) => column.field === null || column.field === IGNORE_COLUMN).map((column) => column.header);

/** Whether the columns give the learners' names: one name column, or first and last names. */
const hasNames = (fields: ReadonlyMap<StudentUploadField, number>) =>
  fields.has('name') || (fields.has('firstname') && fields.has('lastname'));

/** Rows a preview shows. */
const PREVIEW_ROWS = 5;

/** What an upload of this sheet would read, with the mapping sent; writes nothing. */
export async function previewUpload(
  { tx }: ActionContext,
  raw: Sheet,
  chosen: ReadonlyMap<string, StudentUploadTarget>,
): Promise<StudentUploadPreview> {
  const register = readRegister(raw, await rememberedMapping(tx), chosen);
  const width = Math.max(0, ...register.columns.map((column) => column.index + 1));
  return {
    header_row: register.headerRow,
    columns: register.columns.map((column) => ({
      column: columnLetter(column.index),
      header: column.header,
      field: column.field,
      source: column.source,
    })),
    rows: register.rows.slice(0, PREVIEW_ROWS).map((row) => ({
      number: row.number,
      cells: Array.from({ length: width }, (_, index) => textOf(row.cells[index])),
    })),
    total_rows: register.rows.length,
    has_class: register.fields.has('form'),
    needs_mapping: register.columns.some((column) => column.source === 'unrecognised') || !hasNames(register.fields),
  };
}

export interface StudentUploadAnswer extends UploadCounts {
  headerRow: number;
  ignored: string[];
}

/**
 * The whole upload in the action's one transaction: find the header, check every row, then
 * write, remember the mapping sent, audit; all or nothing. `raw` is the sheet with no header
 * set apart (readSpreadsheet 'none').
 */
export async function uploadStudents(
  { tx, school }: ActionContext,
  raw: Sheet,
  asked: Pick<UploadOptions, 'autoid'> & { chosen?: ReadonlyMap<string, StudentUploadTarget>; defaults?: Defaults },
): Promise<StudentUploadAnswer> {
  const options = { ...asked, classes: school.classes, tenantName: school.name };
  const chosen = options.chosen ?? new Map<string, StudentUploadTarget>();
  const register = readRegister(raw, await rememberedMapping(tx), chosen);
  if (register.repeated.length > 0) throw invalid({ mapping: [`${M.mappingRepeated}: ${register.repeated.join(', ')}`] });
  const defaults = options.defaults ?? { form: null, stream: null };
  if (defaults.form !== null) {
    const form = matchClass(options.classes, defaults.form);
    if (form === null) throw invalid({ form: [M.classUnknown] });
    defaults.form = form;
  }
  if (register.rows.length === 0) throw new AppError(422, M.emptySheet);
  // One upload of a school at a time: a second one waits, then reads the first one's learners
  // (so autoid never hands out the same id twice). Released when the transaction ends.
  await lockStudentIds(tx);
  const categories = new Map((await studentCategories(tx)).map((row) => [row.name.trim().toLowerCase(), row.id]));
  const checked = checkRows(
    register.rows,
    register.fields,
    categories,
    options.autoid,
    {
      classes: options.classes,
      streams: await schoolStreams(tx),
    },
    defaults,
  );
  const existing = await learnersToCompare(tx);
  const plan = planUpload(checked, existing, options);
  // New learners get a passcode and a payment code where the sheet gives none (issue 10).
  // Codes the sheet gives changed learners count as taken too.
  giveLearnerCodes(
    plan.creates.map((create) => create.input),
    [...existing, ...plan.updates.map((update) => update.input)],
  );
  await writeLearners(tx, plan, checked.columns);
  await rememberMapping(tx, register.columns, chosen);
  await recordAudit(tx, { action: 'upload', entity: 'students', after: plan.counts });
  return { ...plan.counts, headerRow: register.headerRow, ignored: ignoredHeadings(register.columns) };
}
