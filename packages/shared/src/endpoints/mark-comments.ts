import { z } from 'zod';
import { COMMENT_MESSAGES } from '../comments/messages.js';
import { CommentTextSchema } from '../comments/text.js';
import { MAX_GRID_CELLS } from '../marks/cells.js';
import { defineEndpoint } from './definition.js';
import { flag, form, idKeyed, markTypeIds, optionalId, refineShownMarkTypes, streamField, subjectId, term, year } from './fields.js';

export { COMMENT_MESSAGES } from '../comments/messages.js';

/*
 * Subject comments and generic skills (issue 16 points 1 and 6): a class's learners in one
 * subject with their marks by mark type, total and grade (the grading engine's, as the report
 * cards print them) and the comment a subject teacher writes for each; the school's automatic
 * comments to start from. `GET` loads, `POST` saves every comment of the screen at once: the
 * versions loaded go back as `base`, so a comment someone else changed since is a conflict.
 */

/** Report types a subject comment belongs to (the spec spells "assesment" so). */
export const COMMENT_CATEGORIES = ['assesment', 'exam'] as const;
export type CommentCategory = (typeof COMMENT_CATEGORIES)[number];

/** What a comments screen is about: class, stream, term, year, report type, subject, mark types. */
const commentsTarget = {
  form,
  stream: streamField,
  term,
  year,
  category: z.preprocess((value) => (value === '' || value === undefined || value === null ? 'exam' : value), z.enum(COMMENT_CATEGORIES)),
  subject_id: subjectId,
  marktype_id: optionalId,
  marktype_ids: markTypeIds,
  'marktype_ids[]': markTypeIds,
  /** Display raw marks: each mark as entered, rather than weighted into the total. */
  rawmark: flag,
  /** New curriculum: the class's competency scores and the "nc general" automatic comments (`/api/school/nccomments` sets it); an old-curriculum class is refused. */
  nc: flag,
};

export const MarkCommentsQuerySchema = z.object(commentsTarget).superRefine(refineShownMarkTypes);
export type MarkCommentsQuery = z.output<typeof MarkCommentsQuerySchema>;

/** Learner ids as a map's keys: one that is none is named, with the same words as a learner of another class. */
const byLearner = <Value extends z.ZodType>(value: Value) =>
  idKeyed(value, { invalid: COMMENT_MESSAGES.learnerNotInClass, repeated: COMMENT_MESSAGES.repeated });

/** A save: the screen's target, each learner's comment by learner id, and the versions loaded (absent: new). */
export const MarkCommentsSaveSchema = z
  .strictObject({
    ...commentsTarget,
    comment: byLearner(CommentTextSchema).refine((comments) => Object.keys(comments).length <= MAX_GRID_CELLS, COMMENT_MESSAGES.tooMany),
    base: byLearner(z.number().int().min(1)).default({}),
  })
  .superRefine(refineShownMarkTypes);
export type MarkCommentsSave = z.output<typeof MarkCommentsSaveSchema>;

/** A mark as the screen shows it: a number, ABS for an absence, or none. */
const ShownMarkSchema = z.union([z.number(), z.literal('ABS'), z.null()]);

/** New curriculum: a score as shown (one decimal; none when nothing was scored) and its identifier, decided on the exact mean. */
export const NcScoreSchema = z.object({ score: z.number().nullable(), identifier: z.string().nullable() });
export type NcScore = z.infer<typeof NcScoreSchema>;

export const MarkCommentsSchema = z.object({
  students: z.array(
    z.object({
      id: z.uuid(),
      studentid: z.string(),
      fullname: z.string(),
      firstname: z.string(),
      gender: z.enum(['F', 'M']).nullable(),
    }),
  ),
  /** One per learner, in the order of `students`. */
  records: z.array(
    z.object({
      student_id: z.uuid(),
      /** By mark type label: the raw mark (Display raw marks) or the mark as the report card shows it. */
      marks: z.record(z.string(), ShownMarkSchema),
      /** S5 and S6: each paper's total and grade. */
      papers: z.array(z.object({ paper: z.string(), mark: z.number().nullable(), grade: z.string().nullable() })).optional(),
      total: z.number().nullable(),
      grade: z.string().nullable(),
      /** The stored comment, and its version (the save's base); null for none. */
      comment: z.string().nullable(),
      version: z.number().nullable(),
      /** New-curriculum classes: each competency's score (the mean of its AOIs) by competency id. */
      competencies: z.record(z.string(), NcScoreSchema).optional(),
      /** New-curriculum classes: the subject's score (the mean of its competencies' scores) and identifier. */
      score: z.number().nullable().optional(),
      identifier: z.string().nullable().optional(),
    }),
  ),
  /** The class's curriculum that year: a new-curriculum class shows competencies, not marks. */
  curriculum: z.enum(['old', 'new']).optional(),
  /** New-curriculum classes: the subject's competencies for the class and term, in the order they were made. */
  topics: z.array(z.object({ id: z.uuid(), title: z.string() })).optional(),
  /** The school's automatic comments of the screen's category: a grade or a band of totals, and the text. */
  autocomments: z.array(z.object({ score: z.string(), comment: z.string() })),
  /** The mark types shown, in the school's order. */
  marktypes: z.array(z.object({ id: z.uuid(), label: z.string() })),
  /** The subjects the member may write comments in, for this class and term. */
  subjects: z.array(z.object({ id: z.uuid(), name: z.string() })),
});
export type MarkComments = z.infer<typeof MarkCommentsSchema>;

export const MarkCommentsSavedSchema = z.object({
  message: z.string(),
  /** Comments written (new or changed), deleted (sent empty), and sent as they were. */
  saved: z.number(),
  deleted: z.number(),
  unchanged: z.number(),
  /** Each learner of the save as now stored: the screen's new base. */
  comments: z.record(z.string(), z.object({ comment: z.string().nullable(), version: z.number().nullable() })),
});
export type MarkCommentsSaved = z.infer<typeof MarkCommentsSavedSchema>;

/** A 409's learner: what is stored now (by whom) and what the teacher sent. */
export const CommentConflictSchema = z.object({
  student_id: z.string(),
  fullname: z.string(),
  theirs: z.string().nullable(),
  version: z.number().nullable(),
  yours: z.string().nullable(),
  by: z.string().nullable(),
});
export type CommentConflict = z.infer<typeof CommentConflictSchema>;

/** Subject comments (`/comments/subject`): the class in one subject, with each learner's comment. */
export const markCommentsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/markcomments',
  access: 'member',
  query: MarkCommentsQuerySchema,
  response: MarkCommentsSchema,
});

/** Saves a class's subject comments in one transaction; 409 naming the learners changed by someone since. */
export const saveMarkCommentsEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/school/markcomments',
  access: 'member',
  body: MarkCommentsSaveSchema,
  response: MarkCommentsSavedSchema,
});

/** Generic skills (`/school/mark_genericcomment`): the same screen, a skills text per learner. */
export const genericCommentsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/genericcomments',
  access: 'member',
  query: MarkCommentsQuerySchema,
  response: MarkCommentsSchema,
});

export const saveGenericCommentsEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/school/genericcomments',
  access: 'member',
  body: MarkCommentsSaveSchema,
  response: MarkCommentsSavedSchema,
});

/**
 * New-curriculum comments (`/school/mark_newcurriculumcomment`, issue 27 point 3): a
 * new-curriculum class's learners in one subject with each competency's score, the subject's
 * score and identifier, and the teacher's remark on competency (the class's subject comment),
 * starting from the automatic comments of category "nc general". An old-curriculum class is
 * refused (422 on `form`), as the subject comments refuse a new-curriculum one.
 */
export const ncCommentsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/nccomments',
  access: 'member',
  query: MarkCommentsQuerySchema,
  response: MarkCommentsSchema,
});

export const saveNcCommentsEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/school/nccomments',
  access: 'member',
  body: MarkCommentsSaveSchema,
  response: MarkCommentsSavedSchema,
});
