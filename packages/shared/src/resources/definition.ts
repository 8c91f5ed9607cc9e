import { z } from 'zod';
import type { SubjectClass } from '../abilities.js';
import type { IN_USE_MESSAGES } from '../messages.js';
import { text } from '../schemas/common.js';

/**
 * A resource: one kind of record a school keeps (subjects, mark types, grades, …) and the one
 * description both sides build from. The server turns it into list, read, create, update,
 * delete and spreadsheet routes; the web into a list screen and a form. Each resource states
 * only what differs from the common case.
 */
export interface ResourceDefinition<
  Record extends z.ZodObject = z.ZodObject,
  Input extends z.ZodObject = z.ZodObject,
  Filters extends z.ZodObject = z.ZodObject,
> {
  /** Name in URLs and locale keys: `studentcategories`. */
  name: string;
  /** Collection path: `/api/school/studentcategories`. */
  path: string;
  /** The list answer's field for the records (spec §7): `studentcategories`. */
  listKey: string;
  /** A stored record as the API answers it (always with `id`). */
  record: Record;
  /** The body of a create or an update: the form's fields. */
  input: Input;
  /**
   * The body of an update where it is less than a create's: a school changes a member's roles,
   * never the name and e-mail that are the person's own. The edit form shows only its fields.
   */
  updateInput?: z.ZodObject;
  /** Exact-match list filters besides the free-text search (class, term, …). */
  filters: Filters;
  /** Fields the free-text search looks in (case-insensitive, anywhere in the text). */
  searchFields: ReadonlyArray<string>;
  /** The list's order. */
  sort: ReadonlyArray<readonly [field: string, direction: 'asc' | 'desc']>;
  /** Rows a page (spec §9). */
  pageSize: number;
  /** Who may add, change and delete: `manage` on this subject class. Every member may read. */
  subject: SubjectClass;
  /**
   * The action every write needs, where each write's own (create, update, delete) grants too
   * much: competencies and projects are set by those who manage marks, not by a teacher who may
   * create marks.
   */
  writeAction?: 'manage';
  /** The 409 text when a record cannot be deleted because others depend on it (from the catalogue). */
  inUse: (typeof IN_USE_MESSAGES)[keyof typeof IN_USE_MESSAGES];
  /** Spreadsheet columns (`excel=1`): field and English header, in order. */
  exportColumns: ReadonlyArray<readonly [field: string, header: string]>;
  /**
   * Fields that name a class, which must be one of the school's classes and are stored in its
   * spelling (issue 10 point 2); `list` for a comma-separated list of classes.
   */
  classFields?: ReadonlyArray<{ field: string; list?: boolean }>;
}

export function defineResource<Record extends z.ZodObject, Input extends z.ZodObject, Filters extends z.ZodObject>(
  definition: ResourceDefinition<Record, Input, Filters>,
): ResourceDefinition<Record, Input, Filters> {
  return definition;
}

/** The list call's query: search and paging, the resource's filters, and `excel=1`. */
export function listQuerySchema<Filters extends z.ZodObject>(definition: ResourceDefinition<z.ZodObject, z.ZodObject, Filters>) {
  return definition.filters.extend({
    search: text().trim().max(100).optional(),
    page: z.coerce.number().int().min(1).default(1),
    per_page: z.coerce.number().int().min(1).max(1000).default(definition.pageSize),
    excel: z
      .enum(['0', '1', 'true', 'false'])
      .optional()
      .transform((value) => value === '1' || value === 'true'),
  });
}

/** `{ <listKey>: records, totalRecords }`, the answer of every list call. */
export function listResponseSchema<Record extends z.ZodObject>(definition: ResourceDefinition<Record>) {
  return z.object({ [definition.listKey]: z.array(definition.record), totalRecords: z.number() });
}

/** A list answer as the web reads it. */
export interface ListAnswer<Row> {
  rows: Row[];
  totalRecords: number;
}
