import { PROJECT_SCORE_MESSAGES, type ProjectScoresGrid } from '@mustard/shared';
import { describe, expect, it } from 'vitest';
import {
  applySaved,
  cellErrors,
  cellKey,
  cellText,
  pasteAt,
  resolveConflict,
  saveBody,
  scoresFrom,
  typeInto,
  unsavedRows,
} from './project-scores-grid.js';

/* The project scores grid's logic (issue 26 point 5): typing, checks, the save's body, its answer, conflicts and paste. */

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const grid: ProjectScoresGrid = {
  students: [
    { student: { id: A, studentid: 'S3-1', fullname: 'Amina Okello' }, scores: { score: 8, comment: 'Neat', version: 2 } },
    { student: { id: B, studentid: 'S3-2', fullname: 'Brian Okello' }, scores: null },
  ],
  project: {
    id: '00000000-0000-4000-8000-000000000001',
    title: 'Garden',
    form: 'S3',
    term: 'I',
    year: 2026,
    subject_id: '00000000-0000-4000-8000-000000000002',
    subject: { name: 'Mathematics' },
    max_score: 10,
  },
};

describe('the project scores grid', () => {
  it('shows stored values, marks typed changes unsaved, and typing the stored value back saves nothing', () => {
    let state = scoresFrom(grid);
    expect(cellText(state, A, 'score')).toBe('8');
    expect(cellText(state, B, 'comment')).toBe('');
    state = typeInto(state, B, 'score', '7.5');
    state = typeInto(state, A, 'comment', 'Neat');
    expect(unsavedRows(state)).toEqual([B]);
    expect(saveBody(state)).toEqual({ scores: { [B]: { score: 7.5, comment: null } }, base: { [B]: 0 } });
  });

  it('names a wrong cell and leaves it out of the save', () => {
    let state = typeInto(scoresFrom(grid), A, 'score', '12');
    state = typeInto(state, B, 'score', '2.55');
    expect(cellErrors(state)).toEqual({
      [cellKey(A, 'score')]: PROJECT_SCORE_MESSAGES.aboveMaximum,
      [cellKey(B, 'score')]: PROJECT_SCORE_MESSAGES.oneDecimal,
    });
    expect(saveBody(state).scores).toEqual({});
  });

  it('takes a save’s answer as the new base, keeping what was typed since', () => {
    let state = typeInto(scoresFrom(grid), B, 'score', '6');
    const { scores } = saveBody(state);
    state = typeInto(state, B, 'comment', 'Late model');
    state = applySaved(state, scores, { saved: 1, unchanged: 0, message: '', scores: { [B]: { score: 6, comment: null, version: 1 } } });
    expect(state.base[B]).toEqual({ score: 6, comment: null, version: 1 });
    expect(unsavedRows(state)).toEqual([B]);
    expect(saveBody(state)).toEqual({ scores: { [B]: { score: 6, comment: 'Late model' } }, base: { [B]: 1 } });
  });

  it('resolves a conflict by keeping theirs or sending mine over their version', () => {
    const typed = typeInto(scoresFrom(grid), A, 'score', '9');
    const conflict = { student_id: A, theirs: { score: 5, comment: 'Redo' }, version: 3 };
    const theirs = resolveConflict(typed, conflict, 'theirs');
    expect(unsavedRows(theirs)).toEqual([]);
    expect(cellText(theirs, A, 'comment')).toBe('Redo');
    const mine = resolveConflict(typed, conflict, 'mine');
    expect(saveBody(mine)).toEqual({ scores: { [A]: { score: 9, comment: 'Redo' } }, base: { [A]: 3 } });
  });

  it('pastes a column of scores by position, and scores with comments by the learners a block names', () => {
    const learners = grid.students.map((row) => row.student);
    const column = pasteAt(scoresFrom(grid), { row: 0, column: 0 }, '6\n7\n', learners);
    expect([cellText(column.state, A, 'score'), cellText(column.state, B, 'score')]).toEqual(['6', '7']);
    expect(column.by).toBe('position');
    const named = pasteAt(scoresFrom(grid), { row: 0, column: 0 }, 'S3-2\t9\tGood teamwork\n', learners);
    expect(named.by).toBe('studentid');
    expect([cellText(named.state, B, 'score'), cellText(named.state, B, 'comment')]).toEqual(['9', 'Good teamwork']);
    expect(named.reached).toEqual([B]);
  });
});
