import {
  type CommentConflict,
  CommentTextSchema,
  type CommentWarning,
  commentWarnings,
  fillEmpty,
  type MarkComments,
  type MarkCommentsSaved,
  matchSubjectComment,
  personalise,
} from '@mustard/shared';

/*
 * The comments screens' own logic (issue 16 points 1, 3, 4 and 6), apart from the screen so it
 * is tested alone: what each learner's comment holds, which are unsaved or wrong, what a save
 * sends, how an answer or a conflict changes the screen, what "Fill empty comments" fills and
 * what a typed comment may have wrong. A comment is compared as the server stores it (trimmed).
 */

/** A stored comment as loaded (or as a save or a kept conflict left it): empty text and no version for none. */
export interface BaseComment {
  comment: string;
  version: number | null;
}

export interface CommentsState {
  /** Learner ids, in the screen's order. */
  rows: readonly string[];
  /** Stored comments by learner id. */
  base: Readonly<Record<string, BaseComment>>;
  /** What each comment holds now, as typed, by learner id (a learner not here holds the stored comment). */
  typed: Readonly<Record<string, string>>;
}

const stored = (state: CommentsState, id: string) => state.base[id]?.comment ?? '';

/** A screen as loaded: the stored comments as the base, nothing typed. */
export function commentsFrom(answer: Pick<MarkComments, 'records'>): CommentsState {
  const base: Record<string, BaseComment> = {};
  for (const record of answer.records) base[record.student_id] = { comment: record.comment ?? '', version: record.version };
  return { rows: answer.records.map((record) => record.student_id), base, typed: {} };
}

/** The text a learner's field shows: what was typed, else the stored comment. */
export function commentText(state: CommentsState, id: string): string {
  return state.typed[id] ?? stored(state, id);
}

/** Types a learner's comment; typing the stored comment back makes it saved again. */
export function typeComment(state: CommentsState, id: string, text: string): CommentsState {
  const typed = { ...state.typed };
  if (text.trim() === stored(state, id)) delete typed[id];
  else typed[id] = text;
  return { ...state, typed };
}

/** The learners whose comment differs from what is stored: what a save sends. */
export function unsavedIds(state: CommentsState): string[] {
  return state.rows.filter((id) => id in state.typed && commentText(state, id).trim() !== stored(state, id));
}

/** What is wrong with an unsaved comment (too long, a control character), by learner id: the server's own rule. */
export function commentErrors(state: CommentsState): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const id of unsavedIds(state)) {
    const read = CommentTextSchema.safeParse(state.typed[id]);
    if (!read.success) errors[id] = read.error.issues[0]?.message ?? '';
  }
  return errors;
}

/** The comments and versions a save sends: the unsaved comments only, each with the version it was typed over. */
export function saveBody(state: CommentsState): { comment: Record<string, string>; base: Record<string, number> } {
  const comment: Record<string, string> = {};
  const base: Record<string, number> = {};
  for (const id of unsavedIds(state)) {
    comment[id] = (state.typed[id] ?? '').trim();
    const version = state.base[id]?.version;
    if (version !== null && version !== undefined) base[id] = version;
  }
  return { comment, base };
}

/**
 * A saved answer: the stored comments become the base; a comment typed again while the save
 * was on its way keeps what was typed since (it is still unsaved).
 */
export function applySaved(now: CommentsState, sent: Readonly<Record<string, string>>, answer: MarkCommentsSaved): CommentsState {
  const base = { ...now.base };
  const typed = { ...now.typed };
  for (const [id, saved] of Object.entries(answer.comments)) {
    base[id] = { comment: saved.comment ?? '', version: saved.version };
    const text = typed[id];
    if (text === undefined || text.trim() === (sent[id] ?? '').trim() || text.trim() === (saved.comment ?? '')) delete typed[id];
  }
  return { ...now, base, typed };
}

/** A conflict resolved: keep theirs (their comment becomes the field's) or mine (sent again over their version). */
export function resolveConflict(
  state: CommentsState,
  conflict: Pick<CommentConflict, 'student_id' | 'theirs' | 'version' | 'yours'>,
  keep: 'theirs' | 'mine',
): CommentsState {
  const id = conflict.student_id;
  const base = { ...state.base, [id]: { comment: conflict.theirs ?? '', version: conflict.version } };
  const typed = { ...state.typed };
  if (keep === 'theirs') delete typed[id];
  else typed[id] ??= conflict.yours ?? '';
  return { ...state, base, typed };
}

/** A draft found from before, put back: its typed comments over the versions they were typed over (learners still here only). */
export function restoreDraft(
  state: CommentsState,
  draft: { typed: Readonly<Record<string, string>>; base: Readonly<Record<string, BaseComment>> },
): CommentsState {
  const here = new Set(state.rows);
  const typed = { ...state.typed };
  const base = { ...state.base };
  for (const [id, text] of Object.entries(draft.typed)) {
    if (!here.has(id)) continue;
    typed[id] = text;
    const was = draft.base[id];
    if (was) base[id] = was;
  }
  return { ...state, base, typed };
}

/** What a draft keeps: the unsaved comments and the versions they were typed over. */
export function draftOf(state: CommentsState): { typed: Record<string, string>; base: Record<string, BaseComment> } {
  const typed: Record<string, string> = {};
  const base: Record<string, BaseComment> = {};
  for (const id of unsavedIds(state)) {
    typed[id] = state.typed[id] ?? '';
    const was = state.base[id];
    if (was) base[id] = was;
  }
  return { typed, base };
}

type Learner = MarkComments['students'][number];
type ResultRecord = MarkComments['records'][number];

/**
 * "Fill empty comments": each learner whose field is empty gets the school's automatic comment
 * for their grade (or total; in a new-curriculum class their identifier or subject score), in
 * their name and pronouns; a typed or stored comment is never replaced. Answers the screen and
 * how many were filled.
 */
export function fillEmptyComments(
  state: CommentsState,
  answer: Pick<MarkComments, 'students' | 'records' | 'autocomments'>,
): { state: CommentsState; filled: number } {
  const learners = new Map(answer.students.map((learner) => [learner.id, learner]));
  const current: Record<string, string> = {};
  const suggestions: Record<string, string | null> = {};
  for (const record of answer.records) {
    const id = record.student_id;
    current[id] = commentText(state, id);
    const learner = learners.get(id);
    // A new-curriculum class's learner is matched by identifier (Outstanding, ...) or by a band of subject scores.
    const result = record.score !== undefined ? { grade: record.identifier ?? null, total: record.score } : record;
    const auto = matchSubjectComment(answer.autocomments, { grade: result.grade, total: result.total });
    suggestions[id] = auto && learner ? personalise(auto, learner) : null;
  }
  const { comments, filled } = fillEmpty(current, suggestions);
  let next = state;
  for (const [id, text] of Object.entries(comments)) if (text !== current[id]) next = typeComment(next, id, text);
  return { state: next, filled };
}

/** Each learner's comment checked for another learner's name or pronouns of the other sex (warnings, not refusals). */
export function warningsOf(state: CommentsState, learners: ReadonlyArray<Learner>): Record<string, CommentWarning[]> {
  const warnings: Record<string, CommentWarning[]> = {};
  for (const learner of learners) {
    const text = commentText(state, learner.id);
    if (text.trim() === '') continue;
    const found = commentWarnings(text, learner, learners);
    if (found.length > 0) warnings[learner.id] = found;
  }
  return warnings;
}

/** The papers a per-paper class (S5, S6) shows, in the order the records first name them. */
export function papersOf(records: ReadonlyArray<ResultRecord>): string[] {
  const papers: string[] = [];
  for (const record of records) for (const paper of record.papers ?? []) if (!papers.includes(paper.paper)) papers.push(paper.paper);
  return papers;
}
