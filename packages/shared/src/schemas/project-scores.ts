import { z } from 'zod';
import { flag, idKeyed, lowerId, streamField } from '../endpoints/fields.js';
import { MAX_GRID_CELLS } from '../marks/cells.js';
import { MARK_MESSAGES, PROJECT_SCORE_MESSAGES, SETTINGS_MESSAGES } from '../messages.js';

/*
 * Project scores (issue 26 point 5; spec §2 "Record project scores", §3 "Project score", §7):
 * per project and learner a score from 0 to the project's maximum (at most one decimal; a
 * project has no ABS: a learner without a score has none) and a comment of at most 1,000
 * characters. The grid loads the project's class (a stream if chosen) with each learner's
 * score, comment and version; a save sends the changed learners with the versions the grid
 * was loaded with, and its save_id, like the marks grid.
 */

/** The longest comment on a learner's project. */
export const PROJECT_COMMENT_MAX = 1000;

/** A score as read: a number, none, or why it is no score. */
export type ReadProjectScore =
  | { ok: true; value: number | null }
  | { ok: false; error: (typeof PROJECT_SCORE_MESSAGES)[keyof typeof PROJECT_SCORE_MESSAGES] };

/** Digits with one optional decimal, a point or a comma (a sheet saved in a comma locale). */
const NUMBER = /^[+-]?\d+(?:[.,]\d*)?$/;

/** Reads a score as typed, pasted, sent or read from a sheet, against the project's maximum. */
export function readProjectScore(value: unknown, maximum: number): ReadProjectScore {
  if (value === null || value === undefined) return { ok: true, value: null };
  let number: number;
  if (typeof value === 'number') number = value;
  else if (typeof value === 'string') {
    const typed = value.trim();
    if (typed === '') return { ok: true, value: null };
    if (typed.toUpperCase() === 'ABS') return { ok: false, error: PROJECT_SCORE_MESSAGES.absentNotScore };
    if (!NUMBER.test(typed)) return { ok: false, error: PROJECT_SCORE_MESSAGES.notAScore };
    number = Number(typed.replace(',', '.'));
  } else return { ok: false, error: PROJECT_SCORE_MESSAGES.notAScore };
  if (!Number.isFinite(number)) return { ok: false, error: PROJECT_SCORE_MESSAGES.notAScore };
  if (number < 0) return { ok: false, error: PROJECT_SCORE_MESSAGES.belowZero };
  if (number > maximum) return { ok: false, error: PROJECT_SCORE_MESSAGES.aboveMaximum };
  if (Math.abs(number * 10 - Math.round(number * 10)) > 1e-6) return { ok: false, error: PROJECT_SCORE_MESSAGES.oneDecimal };
  return { ok: true, value: Math.round(number * 10) / 10 };
}

/** A comment as read: trimmed text (blank is none), or why it is refused. */
export type ReadProjectComment =
  | { ok: true; value: string | null }
  | { ok: false; error: (typeof PROJECT_SCORE_MESSAGES)[keyof typeof PROJECT_SCORE_MESSAGES] };

export function readProjectComment(value: unknown): ReadProjectComment {
  if (value === null || value === undefined) return { ok: true, value: null };
  if (typeof value !== 'string' && typeof value !== 'number') return { ok: false, error: PROJECT_SCORE_MESSAGES.commentNotText };
  const text = String(value).trim();
  if (text === '') return { ok: true, value: null };
  if ([...text].length > PROJECT_COMMENT_MAX) return { ok: false, error: PROJECT_SCORE_MESSAGES.commentTooLong };
  return { ok: true, value: text };
}

/** A learner as the grid lists them. */
const LearnerSchema = z.object({ id: z.uuid(), studentid: z.string(), fullname: z.string() });

/** A stored score: its value, comment and version (the save's base). */
export const ProjectScoreCellSchema = z.object({ score: z.number().nullable(), comment: z.string().nullable(), version: z.number() });
export type ProjectScoreCell = z.infer<typeof ProjectScoreCellSchema>;

/** Which grid: the project, and a stream of its class (blank: the whole class). */
export const ProjectScoresGridQuerySchema = z.strictObject({
  project_id: lowerId(PROJECT_SCORE_MESSAGES.projectUnknown),
  stream: streamField,
  /** The grid as a spreadsheet to fill offline. */
  excel: flag,
});
export type ProjectScoresGridQuery = z.infer<typeof ProjectScoresGridQuerySchema>;

/** The project a grid is of, as the page shows it. */
export const ScoredProjectSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  form: z.string(),
  term: z.string(),
  year: z.number(),
  subject_id: z.uuid(),
  subject: z.object({ name: z.string() }),
  max_score: z.number(),
});

export const ProjectScoresGridSchema = z.object({
  /** The class's learners by name; `scores` null where the learner has none yet. */
  students: z.array(z.object({ student: LearnerSchema, scores: ProjectScoreCellSchema.nullable() })),
  project: ScoredProjectSchema,
});
export type ProjectScoresGrid = z.infer<typeof ProjectScoresGridSchema>;

/** Learners' cells keyed by id (small letters; two spellings of one id are one learner sent twice). */
const byLearner = <Value extends z.ZodType>(value: Value) =>
  idKeyed(value, { invalid: MARK_MESSAGES.learnerNotInClass, repeated: SETTINGS_MESSAGES.duplicate }).refine(
    (values) => Object.keys(values).length <= MAX_GRID_CELLS,
    MARK_MESSAGES.gridTooLarge,
  );

/** A save of the grid: score and comment by learner, the versions the grid was loaded with, its save_id. */
export const ProjectScoresSaveSchema = z.strictObject({
  project_id: lowerId(PROJECT_SCORE_MESSAGES.projectUnknown),
  stream: streamField,
  /** One per save, kept by the browser across retries: the same save twice writes once. */
  save_id: lowerId(),
  scores: byLearner(z.strictObject({ score: z.unknown().optional(), comment: z.unknown().optional() })),
  base: byLearner(z.number().int().min(0)).default({}),
});
export type ProjectScoresSave = z.infer<typeof ProjectScoresSaveSchema>;

export const ProjectScoresSavedSchema = z.object({
  saved: z.number(),
  unchanged: z.number(),
  /** Every learner of the save as now stored (version 0: nothing stored): the grid's new base. */
  scores: z.record(z.string(), ProjectScoreCellSchema),
  message: z.string(),
});
export type ProjectScoresSaved = z.infer<typeof ProjectScoresSavedSchema>;

/** A 409's learner: what is stored now (by whom) and what the teacher sent. */
export const ProjectScoreConflictSchema = z.object({
  student_id: z.string(),
  theirs: z.object({ score: z.number().nullable(), comment: z.string().nullable() }),
  version: z.number(),
  yours: z.object({ score: z.number().nullable(), comment: z.string().nullable() }),
  by: z.string().nullable(),
});
export type ProjectScoreConflict = z.infer<typeof ProjectScoreConflictSchema>;

/** What reading a filled sheet back did: learners saved, and unchanged (the same file twice saves nothing). */
export const ProjectScoresUploadResultSchema = z.object({ message: z.string(), saved: z.number(), unchanged: z.number() });

/** The list (`GET /api/school/projectscores`): a project's scores, a stream if given. */
export const ProjectScoresListQuerySchema = z.object({
  project_id: lowerId(PROJECT_SCORE_MESSAGES.projectUnknown),
  stream: streamField,
});

export const ProjectScoresListSchema = z.object({
  projectscores: z.array(
    z.object({
      id: z.uuid(),
      project_id: z.uuid(),
      student: LearnerSchema,
      score: z.number().nullable(),
      comment: z.string().nullable(),
    }),
  ),
});
