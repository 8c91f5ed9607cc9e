import { z } from 'zod';
import { REMARK_MESSAGES } from '../comments/remark-messages.js';
import { CommentTextSchema } from '../comments/text.js';
import { SETTINGS_MESSAGES } from '../messages.js';
import { defineEndpoint } from './definition.js';
import { flag, form, lowerId, markTypeIds, optionalId, optionalStream, refineShownMarkTypes, streamField, term, year } from './fields.js';

export { REMARK_MESSAGES } from '../comments/remark-messages.js';

/*
 * Report comments (issue 16 points 2 to 5): a learner's remarks of each remark type (class
 * teacher's, head teacher's, ...) for a class, term and year, written on `/comments/report`
 * beside the learner's results, and deleted on `/comments/delete`. Keys as the spec gives
 * them: `rt_<remark type id>`, then `s_<learner id>`.
 */

/** The report types a remark is written for (the spec's Report Type on Report Comments). */
export const REMARK_REPORT_TYPES = ['assesment', 'exam', 'mid term'] as const;
export type RemarkReportType = (typeof REMARK_REPORT_TYPES)[number];

/** The most comments one save carries: a class of 60 with a dozen remark types, twice over. */
export const MAX_REMARKS_PER_SAVE = 2000;

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const REMARK_TYPE_KEY = new RegExp(`^rt_${UUID}$`);
const STUDENT_KEY = new RegExp(`^s_${UUID}$`);

/** `rt_<id>` of a remark type, `s_<id>` of a learner: the keys of the remarks maps. */
export const remarkTypeKey = (id: string) => `rt_${id}`;
export const studentKey = (id: string) => `s_${id}`;
/** The id in a key (`rt_<id>` or `s_<id>`). */
export const idOfKey = (key: string) => key.slice(key.indexOf('_') + 1);

const category = z.preprocess(
  (value) => (value === '' || value === undefined || value === null ? 'exam' : value),
  z.enum(REMARK_REPORT_TYPES, { error: REMARK_MESSAGES.categoryInvalid }),
);
/** `GET /api/school/remarks`: the class (and stream, category) whose remarks to write, and how to show the marks. */
export const RemarksQuerySchema = z
  .object({
    form,
    stream: optionalStream,
    studentcategory_id: optionalId,
    term,
    year,
    /** Report Type: the remark types of this category, the marks of its mark types. */
    category,
    marktype_id: optionalId,
    marktype_ids: markTypeIds,
    'marktype_ids[]': markTypeIds,
    /** One remark type (and its sub categories) only, whatever its category: "Record Comments" of the remark types list. */
    remarktype_id: optionalId,
    /** Display raw marks: each mark as entered. */
    rawmark: flag,
    /** Display Long text: a text area per comment (the screen's choice; the answer is the same). */
    ta: flag,
    /** New curriculum (the spec's flag; `/api/school/ncremarks` sets it): competency scores, no marks; an old-curriculum class is refused. */
    nc: flag,
  })
  .superRefine(refineShownMarkTypes);
export type RemarksQuery = z.output<typeof RemarksQuerySchema>;

/** A stored remark: its text and version (a save sends the version back as its base). */
export const RemarkCellSchema = z.object({ comment: z.string(), version: z.number() });
export type RemarkCell = z.infer<typeof RemarkCellSchema>;

/** Remarks by `rt_<remark type id>`, then `s_<learner id>`. */
const RemarkMapSchema = z.record(z.string(), z.record(z.string(), RemarkCellSchema));

const ShownMarkSchema = z.union([z.number(), z.literal('ABS'), z.null()]);

export const RemarkStudentSchema = z.object({
  id: z.uuid(),
  studentid: z.string(),
  fullname: z.string(),
  firstname: z.string(),
  gender: z.enum(['F', 'M']).nullable(),
  stream: z.string().nullable(),
  /** Each subject the learner has marks in, as the report card shows it. */
  marks: z.array(
    z.object({
      subject_id: z.uuid(),
      subject: z.string(),
      code: z.string().nullable(),
      /** By mark type label: the raw mark (Display raw marks) or the mark out of 100, weighted by its proportion. */
      marks: z.record(z.string(), ShownMarkSchema),
      total: z.number().nullable(),
      grade: z.string().nullable(),
    }),
  ),
  total: z.number().nullable(),
  average: z.number().nullable(),
  aggregate: z.number().nullable(),
  division: z.string().nullable(),
  points: z.number().nullable(),
  /**
   * The result automatic comments are matched to: the aggregate where the class has one
   * (primary, O level), the points at A level, else the average.
   */
  result: z.number().nullable(),
  /** By `rt_<remark type id>`: the matching automatic comment, personalised; none where nothing matches. */
  suggestions: z.record(z.string(), z.string()),
  /** New curriculum: each subject's score (the mean of its competencies) and identifier. */
  ncsubjects: z
    .array(z.object({ subject_id: z.uuid(), subject: z.string(), score: z.number().nullable(), identifier: z.string().nullable() }))
    .optional(),
  /** New curriculum: the overall score (the mean of the subject scores, one decimal) and its identifier. */
  score: z.number().nullable().optional(),
  identifier: z.string().nullable().optional(),
});
export type RemarkStudent = z.infer<typeof RemarkStudentSchema>;

const RemarkTypeFieldsSchema = z.object({
  id: z.uuid(),
  label: z.string(),
  category: z.string(),
  inputtype: z.string(),
  displaytype: z.string(),
});
export const RemarkTypeNodeSchema = RemarkTypeFieldsSchema.extend({ children: z.array(RemarkTypeFieldsSchema) });
export type RemarkTypeNode = z.infer<typeof RemarkTypeNodeSchema>;

export const AutoRemarkSchema = z.object({
  remarktype_id: z.uuid(),
  /** From and To, both included. */
  score: z.number(),
  upper: z.number(),
  comment: z.string(),
});

export const RemarksSchema = z.object({
  remarks: RemarkMapSchema,
  /** The learners of the class (stream, category), each with their results. */
  students: z.array(RemarkStudentSchema),
  /** The active remark types of the report's category used for this class, by position, each with its active sub categories. */
  remarktypes: z.array(RemarkTypeNodeSchema),
  /** The class's automatic comments of those remark types. */
  autocomments: z.array(AutoRemarkSchema),
  /** The mark types the marks are of, in the school's order. */
  marktypes: z.array(z.object({ id: z.uuid(), label: z.string() })),
});
export type Remarks = z.infer<typeof RemarksSchema>;

/** A key of the comment map that is not `rt_<uuid>` (then `s_<uuid>`), named by the map's own error. */
const keyError = (issue: { code?: string }) => (issue.code === 'invalid_key' ? REMARK_MESSAGES.keyInvalid : undefined);

/** `POST /api/school/remarks`: texts by `rt_`, then `s_`; an empty text deletes the remark. */
export const RemarksSaveSchema = z.object({
  form,
  stream: streamField,
  term,
  year,
  category,
  marktype_id: optionalId,
  comment: z.record(z.string().regex(REMARK_TYPE_KEY), z.record(z.string().regex(STUDENT_KEY), CommentTextSchema, { error: keyError }), {
    error: keyError,
  }),
  /** The version each comment was typed over (0 or none: there was no comment). */
  base: z
    .record(z.string(), z.record(z.string(), z.number().int().min(0)))
    .optional()
    .transform((value) => value ?? {}),
});
export type RemarksSave = z.output<typeof RemarksSaveSchema>;

export const RemarksSavedSchema = z.object({
  message: z.string(),
  saved: z.number(),
  deleted: z.number(),
  unchanged: z.number(),
  /** Every comment sent, as stored now (`{ comment: '', version: 0 }` where there is none): the screen's new base. */
  remarks: RemarkMapSchema,
});
export type RemarksSaved = z.infer<typeof RemarksSavedSchema>;

/** A 409's comment: theirs (and who wrote it) and yours. */
export interface RemarkConflict {
  remarktype_id: string;
  student_id: string;
  /** Their text, empty when they deleted it. */
  theirs: string;
  version: number;
  yours: string;
  by: string | null;
}

/** `POST /api/remark/delete`: a class's remarks of a remark type (and its sub categories), of one learner or all. */
export const RemarksDeleteSchema = z.strictObject({
  form,
  stream: streamField,
  term,
  year,
  remarktype_id: lowerId(SETTINGS_MESSAGES.remarkTypeRequired),
  student_id: optionalId,
});
export type RemarksDelete = z.output<typeof RemarksDeleteSchema>;

export const RemarksDeletedSchema = z.object({ message: z.string(), records: z.number() });

/**
 * New-curriculum report comments (`/school/ncreportremark`, issue 27 point 3): the class's
 * learners with their competency scores by subject and overall score, their remarks, and the
 * automatic report comments matched to the overall score. Saved as every remark is (`POST
 * /api/school/remarks`). An old-curriculum class is refused (422 on `form`).
 */
export const ncRemarksEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/ncremarks',
  access: 'member',
  query: RemarksQuerySchema,
  response: RemarksSchema,
});

/** A class's learners, their results and their remarks, for writing report comments. */
export const remarksEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/remarks',
  access: 'member',
  query: RemarksQuerySchema,
  response: RemarksSchema,
});

/**
 * Saves remarks in one transaction: all or nothing; a comment changed by someone since its
 * base is a 409 naming it. Those who manage remarks write for every class, others for the
 * classes they are class teacher of.
 */
export const saveRemarksEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/school/remarks',
  access: 'member',
  body: RemarksSaveSchema,
  response: RemarksSavedSchema,
});

/** Deletes the remarks the filter names in one transaction; the texts stay in the history. */
export const deleteRemarksEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/remark/delete',
  access: { action: 'manage', subject: 'remark' },
  body: RemarksDeleteSchema,
  response: RemarksDeletedSchema,
});
