import { z } from 'zod';
import { STATUSES } from '../constants.js';
import { nullableId, optionalId } from '../endpoints/fields.js';
import { STUDENT_MESSAGES as M } from '../messages.js';
import { isStorableText, optionalText, requiredText, text, textOnly } from './common.js';

/*
 * Learners (spec §3 "Student"): the class list, the add and edit form, bulk upload and
 * promotion. Fees and statements: fees.ts; academic results: marks.ts.
 */

export const GENDERS = ['F', 'M'] as const;
export const STUDENT_STATUSES = [...STATUSES, 'completed'] as const;

/** A learner as lists and the detail page show them. */
export const StudentSchema = z.object({
  id: z.uuid(),
  studentid: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  othername: z.string().nullable(),
  fullname: z.string(),
  gender: z.enum(GENDERS).nullable(),
  dob: z.string().nullable(),
  form: z.string(),
  stream: z.string().nullable(),
  status: z.enum(STUDENT_STATUSES),
  studentcategory_id: z.uuid().nullable(),
  studentcategory: z.object({ name: z.string() }).nullable(),
  paymentcode: z.string().nullable(),
  address: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  house: z.string().nullable(),
  lin: z.string().nullable(),
  code: z.string().nullable(),
  /** Where the report cards are e-mailed (the Email option of the report screens). */
  guardian_email: z.string().nullable(),
  /** Whether a photo is on file; it is fetched from `/api/school/students/{id}/photo`. */
  photo_path: z.string().nullable(),
});
export type Student = z.infer<typeof StudentSchema>;

/** YYYY-MM-DD naming a day that exists (JavaScript would roll 2020-02-30 over to March 1). */
function realDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
}

/** The earliest date of birth taken: no learner was born before 1900. */
export const EARLIEST_BIRTH_DATE = '1900-01-01';

/**
 * Today where the day is furthest ahead (UTC+14), so that a child born today in any time zone
 * is taken while a date of birth in the future (a year 9999 typed for 1999) is not.
 */
function latestToday(now = Date.now()): string {
  return new Date(now + 14 * 3600 * 1000).toISOString().slice(0, 10);
}

/** A date of birth (YYYY-MM-DD) that exists in the calendar, from 1900 to today, or nothing (issue 23 item 14). */
const dateOfBirth = text()
  .trim()
  .nullish()
  .transform((value) => (value ? value : null))
  .refine((value) => value === null || realDate(value), M.dateInvalid)
  .refine((value) => value === null || !realDate(value) || value >= EARLIEST_BIRTH_DATE, M.dobTooEarly)
  .refine((value) => value === null || !realDate(value) || value <= latestToday(), M.dobInFuture);

/**
 * One e-mail address or none (blank). An address is one recipient: a line break, a comma or a
 * second address is refused here, before anything could put it in a message's header.
 */
const emailOrNone = () =>
  text()
    .trim()
    .nullish()
    .transform((value) => (value ? value : null))
    .refine((value) => value === null || (value.length <= MAX_EMAIL_LENGTH && z.email().safeParse(value).success), M.emailInvalid);

/** The longest address a message may be sent to (RFC 5321's path limit). */
const MAX_EMAIL_LENGTH = 254;

/**
 * The add and edit form (and one row of an upload). Multipart forms send text, so every field
 * accepts text; blanks become null.
 */
export const StudentInputSchema = z.strictObject({
  studentid: text()
    .trim()
    .max(40)
    .nullish()
    .transform((value) => (value ? value : null)),
  // Names are text only: a JSON `true` or `5` is no name (see textOnly).
  firstname: textOnly(requiredText(M.firstnameRequired).max(80)),
  lastname: textOnly(requiredText(M.lastnameRequired).max(80)),
  othername: textOnly(optionalText.clone()),
  gender: z.preprocess(
    (value) => (typeof value === 'string' ? value.trim().toUpperCase().slice(0, 1) || null : (value ?? null)),
    z.enum(GENDERS, { error: M.genderInvalid }).nullable(),
  ),
  dob: dateOfBirth,
  form: requiredText(M.classRequired).max(40),
  stream: optionalText,
  status: z.preprocess(
    (value) => (value === '' || value === undefined ? 'active' : value),
    z.enum(STUDENT_STATUSES, { error: M.statusInvalid }),
  ),
  studentcategory_id: nullableId,
  paymentcode: optionalText,
  address: optionalText,
  phone: optionalText,
  email: emailOrNone(),
  house: optionalText,
  lin: optionalText,
  code: optionalText,
  guardian_email: emailOrNone(),
});
export type StudentInput = z.infer<typeof StudentInputSchema>;

/** The class list's filter bar (spec §2 "Students"). */
export const StudentListQuerySchema = z.object({
  form: text().trim().max(40).optional(),
  stream: text().trim().max(40).optional(),
  name: text().trim().max(100).optional(),
  studentid: text().trim().max(40).optional(),
  studentcategory_id: optionalId,
  status: z.enum(STUDENT_STATUSES).optional(),
  excel: z
    .enum(['0', '1', 'true', 'false'])
    .optional()
    .transform((value) => value === '1' || value === 'true'),
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(1000).default(50),
});

export type StudentListQuery = z.output<typeof StudentListQuerySchema>;

export const StudentListResponseSchema = z.object({ students: z.array(StudentSchema), totalRecords: z.number() });

export const PromoteResponseSchema = z.object({ message: z.string(), promoted: z.number(), completed: z.number() });
export type PromoteResponse = z.infer<typeof PromoteResponseSchema>;

/**
 * The fields a column of a learners' upload may fill (issue 24 point 2): the template's columns,
 * and `name`, one column with the whole name ("SURNAME First Other", or "First SURNAME" with the
 * surname in capitals), split into the name fields. `ignore` leaves a column out.
 */
export const STUDENT_UPLOAD_FIELDS = [
  'name',
  'studentid',
  'firstname',
  'lastname',
  'othername',
  'gender',
  'dob',
  'form',
  'stream',
  'category',
  'paymentcode',
  'address',
  'phone',
  'email',
  'house',
  'lin',
  'code',
  'status',
  'guardian_email',
] as const;
export type StudentUploadField = (typeof STUDENT_UPLOAD_FIELDS)[number];
export const IGNORE_COLUMN = 'ignore';
export const StudentUploadTargetSchema = z.enum([...STUDENT_UPLOAD_FIELDS, IGNORE_COLUMN]);
export type StudentUploadTarget = z.infer<typeof StudentUploadTargetSchema>;

/** At most this many columns a mapping names (a sheet is read to column 100). */
const MAX_MAPPED_COLUMNS = 100;

/**
 * The person's choice of field for columns, as JSON text in the multipart form:
 * `{"RESIDENCE": "address", "HOME DISTRICT": "ignore"}`, keyed by the column's heading as the
 * file writes it. Answered as pairs (never a plain object: a heading "__proto__" is just text).
 */
const MappingSchema = text()
  .max(20_000)
  .optional()
  .transform((value, context): Array<[string, StudentUploadTarget]> => {
    if (value === undefined || value.trim() === '') return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      parsed = undefined;
    }
    const entries =
      typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? Object.entries(parsed as Record<string, unknown>) : null;
    const pairs: Array<[string, StudentUploadTarget]> = [];
    for (const [header, field] of entries ?? []) {
      const target = StudentUploadTargetSchema.safeParse(field);
      if (!target.success || header.length > 200 || !isStorableText(header)) break;
      pairs.push([header, target.data]);
    }
    if (entries === null || pairs.length !== entries.length || pairs.length > MAX_MAPPED_COLUMNS) {
      context.addIssue({ code: 'custom', message: M.mappingInvalid });
      return z.NEVER;
    }
    return pairs;
  });

/**
 * The learners upload's fields besides the file: `autoid` ('1', 'true', 'on' or 'yes') gives
 * learners without a student id the school's next ids; `mapping` the person's fields for the
 * file's columns (remembered for the school); `form` and `stream` one class and stream for every
 * row whose file names none (a register without a class column).
 */
export const StudentUploadFieldsSchema = z.object({
  autoid: z
    .string()
    .optional()
    .transform((value) => ['1', 'true', 'on', 'yes'].includes((value ?? '').trim().toLowerCase())),
  mapping: MappingSchema,
  form: text()
    .trim()
    .max(40)
    .optional()
    .transform((value) => (value ? value : null)),
  stream: text()
    .trim()
    .max(40)
    .optional()
    .transform((value) => (value ? value : null)),
});
export type StudentUploadFields = z.output<typeof StudentUploadFieldsSchema>;

/** The preview's fields besides the file: a mapping to try (nothing is remembered by a preview). */
export const StudentUploadPreviewFieldsSchema = z.object({ mapping: MappingSchema });

/**
 * What the upload found in a file before anything is written: the header row (below any title
 * rows), each column with the field it would fill and why (`known`: a heading the upload knows;
 * `remembered`: the school mapped it before; `chosen`: the mapping sent; `unrecognised`: nobody
 * said yet, so it would be ignored), the first rows as text, and whether the person must map
 * something first (`needs_mapping`) or the file imports as it is.
 */
export const StudentUploadPreviewSchema = z.object({
  header_row: z.number(),
  columns: z.array(
    z.object({
      /** The column's letter (A, B, … AA). */
      column: z.string(),
      header: z.string(),
      field: StudentUploadTargetSchema.nullable(),
      source: z.enum(['known', 'remembered', 'chosen', 'unrecognised']),
    }),
  ),
  rows: z.array(z.object({ number: z.number(), cells: z.array(z.string().nullable()) })),
  total_rows: z.number(),
  has_class: z.boolean(),
  needs_mapping: z.boolean(),
});
export type StudentUploadPreview = z.infer<typeof StudentUploadPreviewSchema>;

/** The upload's answer: the counts, and the headings of the columns left out. */
export const StudentUploadResultSchema = z.object({
  message: z.string(),
  created: z.number(),
  updated: z.number(),
  unchanged: z.number(),
  header_row: z.number(),
  ignored: z.array(z.string()),
});
export type StudentUploadResult = z.infer<typeof StudentUploadResultSchema>;

/** Promotion: without `promote=1` nothing moves and the answer says what would. */
export const PromoteQuerySchema = z.object({ promote: z.enum(['0', '1']).optional() });
