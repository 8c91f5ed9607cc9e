import { COMMENT_MESSAGES, type MarkComments } from '@mustard/shared';
import { describe, expect, it } from 'vitest';
import {
  applySaved,
  commentErrors,
  commentsFrom,
  commentText,
  draftOf,
  fillEmptyComments,
  papersOf,
  resolveConflict,
  restoreDraft,
  saveBody,
  typeComment,
  unsavedIds,
  warningsOf,
} from './sheet.js';

const record = (student_id: string, fields: Partial<MarkComments['records'][number]> = {}): MarkComments['records'][number] => ({
  student_id,
  marks: {},
  total: null,
  grade: null,
  comment: null,
  version: null,
  ...fields,
});

const answer: MarkComments = {
  students: [
    { id: 'amina', studentid: '1', fullname: 'Amina Okello', firstname: 'Amina', gender: 'F' },
    { id: 'brian', studentid: '2', fullname: 'Brian Okello', firstname: 'Brian', gender: 'M' },
    { id: 'carol', studentid: '3', fullname: 'Carol Okello', firstname: 'Carol', gender: 'F' },
    { id: 'david', studentid: '4', fullname: 'David Okello', firstname: 'David', gender: null },
  ],
  records: [
    record('amina', { total: 82, grade: 'D1', comment: 'Stored for Amina.', version: 3 }),
    record('brian', { total: 71, grade: 'D2' }),
    record('carol', { total: 55, grade: 'C5' }),
    record('david', { total: 40, grade: null }),
  ],
  autocomments: [
    { score: 'd1', comment: 'Excellent, {name}. Keep it up.' },
    { score: 'D2', comment: '{He} worked well; {his} effort shows.' },
    { score: '35-45', comment: '{name} must revise {his} notes.' },
  ],
  marktypes: [],
  subjects: [],
};

describe('the comments sheet', () => {
  it('loads the stored comments and sends only the changed ones, each with the version typed over', () => {
    let state = commentsFrom(answer);
    expect(commentText(state, 'amina')).toBe('Stored for Amina.');
    expect(commentText(state, 'brian')).toBe('');
    state = typeComment(state, 'brian', 'Good effort.  ');
    state = typeComment(state, 'amina', 'Stored for Amina. ');
    // Typing the stored comment back (spaces aside, as the server trims) is no change.
    expect(unsavedIds(state)).toEqual(['brian']);
    state = typeComment(state, 'amina', '');
    expect(unsavedIds(state)).toEqual(['amina', 'brian']);
    expect(saveBody(state)).toEqual({ comment: { amina: '', brian: 'Good effort.' }, base: { amina: 3 } });
  });

  it('takes a save’s answer as the new base, keeping what was typed while it was on its way', () => {
    let state = commentsFrom(answer);
    state = typeComment(state, 'brian', 'Good effort.');
    state = typeComment(state, 'carol', 'Fair.');
    const sent = saveBody(state).comment;
    // Carol's comment is typed again before the answer comes.
    state = typeComment(state, 'carol', 'Fair; more effort.');
    const saved = applySaved(state, sent, {
      message: 'Successfully created',
      saved: 2,
      deleted: 0,
      unchanged: 0,
      comments: { brian: { comment: 'Good effort.', version: 1 }, carol: { comment: 'Fair.', version: 1 } },
    });
    expect(unsavedIds(saved)).toEqual(['carol']);
    expect(commentText(saved, 'brian')).toBe('Good effort.');
    expect(saveBody(saved)).toEqual({ comment: { carol: 'Fair; more effort.' }, base: { carol: 1 } });
  });

  it('resolves a conflict: theirs replaces the field, mine is sent again over their version', () => {
    let state = typeComment(commentsFrom(answer), 'amina', 'Mine.');
    const conflict = { student_id: 'amina', theirs: 'Theirs.', version: 4, yours: 'Mine.' };
    const theirs = resolveConflict(state, conflict, 'theirs');
    expect(commentText(theirs, 'amina')).toBe('Theirs.');
    expect(unsavedIds(theirs)).toEqual([]);
    state = resolveConflict(state, conflict, 'mine');
    expect(saveBody(state)).toEqual({ comment: { amina: 'Mine.' }, base: { amina: 4 } });
    // Their comment deleted: mine goes as new.
    const gone = resolveConflict(state, { ...conflict, theirs: null, version: null }, 'mine');
    expect(saveBody(gone)).toEqual({ comment: { amina: 'Mine.' }, base: {} });
  });

  it('keeps a draft of the unsaved comments and restores it over the versions it was typed over', () => {
    const typed = typeComment(typeComment(commentsFrom(answer), 'amina', 'Draft for Amina.'), 'brian', 'Draft for Brian.');
    const draft = draftOf(typed);
    expect(draft).toEqual({
      typed: { amina: 'Draft for Amina.', brian: 'Draft for Brian.' },
      base: { amina: { comment: 'Stored for Amina.', version: 3 }, brian: { comment: '', version: null } },
    });
    // Reloaded later: someone saved Amina's comment since; the draft keeps the version it was typed over.
    const later = commentsFrom({ records: answer.records.map((row) => (row.student_id === 'amina' ? { ...row, version: 5 } : row)) });
    const restored = restoreDraft(later, { typed: { ...draft.typed, gone: 'A learner since moved' }, base: draft.base });
    expect(commentText(restored, 'amina')).toBe('Draft for Amina.');
    expect(saveBody(restored)).toEqual({ comment: { amina: 'Draft for Amina.', brian: 'Draft for Brian.' }, base: { amina: 3 } });
    expect(restored.typed).not.toHaveProperty('gone');
  });

  it('fills only the empty comments, personalised, and never one typed or stored', () => {
    let state = commentsFrom(answer);
    state = typeComment(state, 'carol', 'Typed by the teacher.');
    const { state: filled, filled: count } = fillEmptyComments(state, answer);
    expect(count).toBe(2);
    expect(commentText(filled, 'amina')).toBe('Stored for Amina.');
    expect(commentText(filled, 'brian')).toBe('He worked well; his effort shows.');
    expect(commentText(filled, 'carol')).toBe('Typed by the teacher.');
    // No grade: the band of the total; no recorded sex: "their".
    expect(commentText(filled, 'david')).toBe('David must revise their notes.');
    expect(unsavedIds(filled)).toEqual(['brian', 'carol', 'david']);
    // Again: nothing left empty.
    expect(fillEmptyComments(filled, answer).filled).toBe(0);
  });

  it('fills a new-curriculum class’s remarks by identifier, else by a band of subject scores (issue 27 point 3)', () => {
    const nc: MarkComments = {
      ...answer,
      curriculum: 'new',
      records: [
        record('amina', { score: 2.8, identifier: 'Outstanding', competencies: {} }),
        record('brian', { score: 1.3, identifier: 'Basic', competencies: {} }),
        record('carol', { score: 2, identifier: 'Moderate', competencies: {} }),
        record('david', { score: null, identifier: null, competencies: {} }),
      ],
      autocomments: [
        { score: 'outstanding', comment: '{name} has mastered {his} competencies.' },
        { score: '1-1.49', comment: '{name} needs more practice.' },
      ],
    };
    const { state, filled } = fillEmptyComments(commentsFrom(nc), nc);
    expect(filled).toBe(2);
    expect(commentText(state, 'amina')).toBe('Amina has mastered her competencies.');
    expect(commentText(state, 'brian')).toBe('Brian needs more practice.');
    // Moderate has no comment of its own and 2 is in no band; no score, no comment.
    expect(commentText(state, 'carol')).toBe('');
    expect(commentText(state, 'david')).toBe('');
  });

  it('warns of another learner’s name or pronouns of the other sex, and names a comment the server would refuse', () => {
    let state = commentsFrom(answer);
    state = typeComment(state, 'carol', 'He has improved, like Brian.');
    state = typeComment(state, 'brian', 'Brian has improved; he reads well.');
    const warnings = warningsOf(state, answer.students);
    expect(warnings.carol).toEqual([
      { kind: 'otherLearner', name: 'Brian' },
      { kind: 'pronouns', words: ['he'] },
    ]);
    expect(warnings.brian).toBeUndefined();
    expect(warnings.amina).toBeUndefined();

    state = typeComment(state, 'david', 'x'.repeat(1001));
    expect(commentErrors(state)).toEqual({ david: COMMENT_MESSAGES.tooLong });
  });

  it('lists the papers of an S5 or S6 class in the order the records name them', () => {
    const papers = (names: string[]) => names.map((paper) => ({ paper, mark: 50, grade: 'C5' }));
    expect(papersOf([record('a', { papers: papers(['1', '2']) }), record('b', { papers: papers(['1', '3']) }), record('c')])).toEqual([
      '1',
      '2',
      '3',
    ]);
    expect(papersOf(answer.records)).toEqual([]);
  });
});
