import { MARK_MESSAGES, type MarksGrid } from '@mustard/shared';
import { describe, expect, it } from 'vitest';
import {
  applySaved,
  cellErrors,
  cellText,
  type GridState,
  gridFrom,
  keyOf,
  moveFrom,
  pasteAt,
  resolveConflict,
  saveBody,
  typeInto,
  unsavedKeys,
} from './grid.js';

const STUDENTS: MarksGrid['students'] = [
  { student: { id: 'amina', studentid: '1', fullname: 'Amina' }, marktypes: { bot: { mark: 56, version: 1 } } },
  { student: { id: 'brian', studentid: '2', fullname: 'Brian' }, marktypes: { bot: { mark: 'ABS', version: 2 } } },
  { student: { id: 'carol', studentid: '3', fullname: 'Carol' }, marktypes: {} },
];
const LEARNERS = STUDENTS.map((row) => row.student);
const grid = gridFrom(
  {
    students: STUDENTS,
    marktypes: [
      { id: 'bot', label: 'BOT', outof: 100, published: false },
      { id: 'mot', label: 'MOT', outof: 50, published: false },
      { id: 'eot', label: 'EOT', outof: 100, published: true },
    ],
  },
  false,
);

describe('the marks grid', () => {
  it('shows stored marks, ABS as ABS, and marks typed cells unsaved until they match again', () => {
    expect(cellText(grid, keyOf('amina', 'bot'))).toBe('56');
    expect(cellText(grid, keyOf('brian', 'bot'))).toBe('ABS');
    expect(cellText(grid, keyOf('carol', 'bot'))).toBe('');
    const typed = typeInto(typeInto(grid, keyOf('amina', 'bot'), '58'), keyOf('carol', 'mot'), '40');
    expect(unsavedKeys(typed).sort()).toEqual([keyOf('amina', 'bot'), keyOf('carol', 'mot')].sort());
    expect(unsavedKeys(typeInto(typed, keyOf('amina', 'bot'), '56'))).toEqual([keyOf('carol', 'mot')]);
    expect(grid.columns.map((column) => column.locked)).toEqual([false, false, true]);
  });

  it('checks each typed cell against its column’s maximum', () => {
    const typed = typeInto(
      typeInto(typeInto(grid, keyOf('amina', 'mot'), '51'), keyOf('brian', 'mot'), 'x'),
      keyOf('carol', 'bot'),
      '99.5',
    );
    expect(cellErrors(typed)).toEqual({
      [keyOf('amina', 'mot')]: MARK_MESSAGES.aboveMaximum,
      [keyOf('brian', 'mot')]: MARK_MESSAGES.notAMark,
    });
  });

  it('moves like a spreadsheet and stays inside the grid', () => {
    expect(moveFrom(grid, { row: 0, column: 0 }, 'down')).toEqual({ row: 1, column: 0 });
    expect(moveFrom(grid, { row: 2, column: 1 }, 'down')).toEqual({ row: 2, column: 1 });
    expect(moveFrom(grid, { row: 0, column: 0 }, 'up')).toEqual({ row: 0, column: 0 });
    expect(moveFrom(grid, { row: 1, column: 1 }, 'end')).toEqual({ row: 1, column: 2 });
    expect(moveFrom(grid, { row: 1, column: 2 }, 'home')).toEqual({ row: 1, column: 0 });
    expect(moveFrom(grid, { row: 1, column: 1 }, 'last')).toEqual({ row: 2, column: 2 });
    expect(moveFrom(grid, { row: 1, column: 1 }, 'left')).toEqual({ row: 1, column: 0 });
  });

  it('pastes a block down and across from the focused cell, skipping locked columns and what falls outside', () => {
    const { state, filled, skipped, by } = pasteAt(grid, { row: 1, column: 0 }, '61\t30\t70\n\t45\t80\n9\t9\t9\n', LEARNERS);
    expect(by).toBe('position');
    expect(cellText(state, keyOf('brian', 'bot'))).toBe('61');
    expect(cellText(state, keyOf('brian', 'mot'))).toBe('30');
    expect(cellText(state, keyOf('carol', 'bot'))).toBe('');
    expect(cellText(state, keyOf('carol', 'mot'))).toBe('45');
    expect(cellText(state, keyOf('brian', 'eot'))).toBe('');
    expect(filled).toBe(4);
    expect(skipped).toBe(5);
  });

  it('pastes a block naming its learners onto them, and says whom it reached and which lines named no one', () => {
    const { state, by, reached, unmatched } = pasteAt(grid, { row: 0, column: 0 }, 'Carol\t70\t40\nZed\t1\t2\nAmina\t58\n', LEARNERS);
    expect(by).toBe('name');
    expect(cellText(state, keyOf('carol', 'bot'))).toBe('70');
    expect(cellText(state, keyOf('carol', 'mot'))).toBe('40');
    expect(cellText(state, keyOf('amina', 'bot'))).toBe('58');
    expect(reached).toEqual(['amina', 'carol']);
    expect(unmatched).toEqual([{ line: 2, text: 'Zed', reason: 'none' }]);
  });

  it('sends the unsaved cells with the versions they were loaded with, and takes the answer as the new base', () => {
    const typed = typeInto(typeInto(typeInto(grid, keyOf('amina', 'bot'), '58'), keyOf('brian', 'bot'), ''), keyOf('carol', 'mot'), 'abs');
    const body = saveBody(typed);
    expect(body).toEqual({
      marks: { bot: { amina: 58, brian: null }, mot: { carol: 'ABS' } },
      base: { bot: { amina: 1, brian: 2 }, mot: { carol: 0 } },
    });
    // Typed again while the save was on its way: Amina's new text stays unsaved.
    const meanwhile = typeInto(typed, keyOf('amina', 'bot'), '59');
    const saved = applySaved(meanwhile, body.marks, {
      saved: 3,
      unchanged: 0,
      message: 'Successfully updated',
      marks: { bot: { amina: { mark: 58, version: 2 }, brian: { mark: null, version: 0 } }, mot: { carol: { mark: 'ABS', version: 1 } } },
    });
    expect(unsavedKeys(saved)).toEqual([keyOf('amina', 'bot')]);
    expect(saved.base[keyOf('amina', 'bot')]).toEqual({ mark: 58, version: 2 });
    expect(cellText(saved, keyOf('carol', 'mot'))).toBe('ABS');
  });

  it('resolves a conflict by keeping theirs or sending mine over their version', () => {
    const typed: GridState = typeInto(grid, keyOf('amina', 'bot'), '60');
    const conflict = { marktype_id: 'bot', student_id: 'amina', theirs: 58, version: 2 };
    const theirs = resolveConflict(typed, conflict, 'theirs');
    expect(cellText(theirs, keyOf('amina', 'bot'))).toBe('58');
    expect(unsavedKeys(theirs)).toEqual([]);
    const mine = resolveConflict(typed, conflict, 'mine');
    expect(saveBody(mine)).toEqual({ marks: { bot: { amina: 60 } }, base: { bot: { amina: 2 } } });
  });
});
