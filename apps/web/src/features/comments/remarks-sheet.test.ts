import { describe, expect, it } from 'vitest';
import {
  applySaved,
  cellErrorsOf,
  cellOf,
  resolveConflict,
  saveBodyOf,
  sheetFrom,
  tabFrom,
  textOf,
  typeInto,
  unsavedCells,
} from './remarks-sheet.js';

const RT = '11111111-1111-4111-8111-111111111111';
const AMINA = '22222222-2222-4222-8222-222222222222';
const BRIAN = '33333333-3333-4333-8333-333333333333';
const amina = cellOf(RT, AMINA);
const brian = cellOf(RT, BRIAN);
const loaded = () => sheetFrom({ [`rt_${RT}`]: { [`s_${AMINA}`]: { comment: 'Good work.', version: 3 } } });

describe('the report comments sheet', () => {
  it('shows the stored text until something is typed, and typing back the stored text is no change', () => {
    let state = loaded();
    expect(textOf(state, amina)).toBe('Good work.');
    expect(textOf(state, brian)).toBe('');
    state = typeInto(state, amina, 'Good work, Amina.');
    expect(unsavedCells(state)).toEqual([amina]);
    expect(state.base[amina]).toBe(3);
    state = typeInto(state, amina, 'Good work.');
    expect(unsavedCells(state)).toEqual([]);
    expect(state.base).toEqual({});
  });

  it('sends the typed texts keyed rt_ then s_, each with the version it was typed over (0 for a new one)', () => {
    const state = typeInto(typeInto(loaded(), amina, 'Better.'), brian, 'Welcome.');
    expect(saveBodyOf(state, [amina, brian])).toEqual({
      comment: { [`rt_${RT}`]: { [`s_${AMINA}`]: 'Better.', [`s_${BRIAN}`]: 'Welcome.' } },
      base: { [`rt_${RT}`]: { [`s_${AMINA}`]: 3, [`s_${BRIAN}`]: 0 } },
      sent: { [amina]: 'Better.', [brian]: 'Welcome.' },
    });
  });

  it('takes the answer as stored and keeps what was typed again while the save was on its way', () => {
    let state = typeInto(typeInto(loaded(), amina, 'Better.'), brian, 'Welcome.');
    const { sent } = saveBodyOf(state, [amina, brian]);
    state = typeInto(state, brian, 'Welcome, Brian.');
    state = applySaved(state, sent, {
      [`rt_${RT}`]: { [`s_${AMINA}`]: { comment: 'Better.', version: 4 }, [`s_${BRIAN}`]: { comment: 'Welcome.', version: 1 } },
    });
    expect(textOf(state, amina)).toBe('Better.');
    expect(unsavedCells(state)).toEqual([brian]);
    expect(state.base[brian]).toBe(1);
  });

  it('settles a conflict: theirs drops the typed text, mine keeps it over their version', () => {
    const state = typeInto(loaded(), amina, 'Mine.');
    const conflict = { remarktype_id: RT, student_id: AMINA, theirs: 'Theirs.', version: 5, yours: 'Mine.', by: 'Head' };
    const theirs = resolveConflict(state, conflict, 'theirs');
    expect(textOf(theirs, amina)).toBe('Theirs.');
    expect(unsavedCells(theirs)).toEqual([]);
    const mine = resolveConflict(state, conflict, 'mine');
    expect(textOf(mine, amina)).toBe('Mine.');
    expect(saveBodyOf(mine, [amina]).base).toEqual({ [`rt_${RT}`]: { [`s_${AMINA}`]: 5 } });
  });

  it('finds the cells a refusal names', () => {
    expect(cellErrorsOf({ [`comment.rt_${RT}.s_${AMINA}`]: ['Too long'], form: ['Please select a class'] })).toEqual({
      [amina]: 'Too long',
    });
  });

  it('moves Tab down a remark type, then to the next one, and leaves the sheet at its ends', () => {
    const size = { columns: 2, rows: 3 };
    expect(tabFrom({ column: 0, row: 0 }, size, false)).toEqual({ column: 0, row: 1 });
    expect(tabFrom({ column: 0, row: 2 }, size, false)).toEqual({ column: 1, row: 0 });
    expect(tabFrom({ column: 1, row: 0 }, size, true)).toEqual({ column: 0, row: 2 });
    expect(tabFrom({ column: 1, row: 2 }, size, false)).toBeNull();
    expect(tabFrom({ column: 0, row: 0 }, size, true)).toBeNull();
  });
});
