import { describe, expect, it } from 'vitest';
import { ABSENT } from './cells.js';
import { type CellChange, cellKey, planSave, type StoredMark, savedCells } from './plan.js';

const stored = (entries: Array<[string, string, StoredMark]>) =>
  new Map(entries.map(([marktype, student, mark]) => [cellKey(marktype, student), mark]));

describe('planning a save', () => {
  it('adds, changes and clears marks whose version is the one the grid loaded', () => {
    const plan = planSave(
      [
        { marktype_id: 'bot', student_id: 'amina', value: 56, base: 0 },
        { marktype_id: 'bot', student_id: 'brian', value: 61, base: 2 },
        { marktype_id: 'bot', student_id: 'carol', value: null, base: 1 },
      ],
      stored([
        ['bot', 'brian', { value: 60, version: 2 }],
        ['bot', 'carol', { value: ABSENT, version: 1 }],
      ]),
    );
    expect(plan.conflicts).toEqual([]);
    expect(plan.unchanged).toBe(0);
    expect(plan.writes).toEqual([
      { marktype_id: 'bot', student_id: 'amina', value: 56, base: 0 },
      { marktype_id: 'bot', student_id: 'brian', value: 61, base: 2, before: { value: 60, version: 2 } },
      { marktype_id: 'bot', student_id: 'carol', value: null, base: 1, before: { value: ABSENT, version: 1 } },
    ]);
  });

  it('leaves the same value alone, whatever version the grid had', () => {
    const plan = planSave(
      [
        { marktype_id: 'bot', student_id: 'amina', value: 56, base: 1 },
        { marktype_id: 'bot', student_id: 'brian', value: null, base: 0 },
      ],
      stored([['bot', 'amina', { value: 56, version: 3 }]]),
    );
    expect(plan).toEqual({ writes: [], unchanged: 2, conflicts: [] });
  });

  it('names each cell someone else changed since the grid was loaded, with their value and yours', () => {
    const plan = planSave(
      [
        { marktype_id: 'bot', student_id: 'amina', value: 56, base: 1 },
        { marktype_id: 'mot', student_id: 'amina', value: 70, base: 0 },
        { marktype_id: 'mot', student_id: 'brian', value: 40, base: 1 },
      ],
      stored([
        ['bot', 'amina', { value: 58, version: 2 }],
        ['mot', 'amina', { value: ABSENT, version: 1 }],
      ]),
    );
    expect(plan.writes).toEqual([]);
    expect(plan.conflicts).toEqual([
      { marktype_id: 'bot', student_id: 'amina', theirs: 58, version: 2, yours: 56 },
      { marktype_id: 'mot', student_id: 'amina', theirs: ABSENT, version: 1, yours: 70 },
      // Cleared by someone else since: theirs is none.
      { marktype_id: 'mot', student_id: 'brian', theirs: null, version: 0, yours: 40 },
    ]);
  });

  it('overwrites without a base (a sheet upload), and keeps what it replaces', () => {
    const plan = planSave([{ marktype_id: 'bot', student_id: 'amina', value: 80 }], stored([['bot', 'amina', { value: 58, version: 4 }]]));
    expect(plan.writes).toEqual([{ marktype_id: 'bot', student_id: 'amina', value: 80, before: { value: 58, version: 4 } }]);
  });
});

describe('what a save answers', () => {
  it('each cell as now stored: new at version 1, changed one up, cleared at 0, unchanged as it was', () => {
    const before = stored([
      ['bot', 'brian', { value: 61, version: 2 }],
      ['bot', 'carol', { value: 40, version: 1 }],
      ['bot', 'dan', { value: ABSENT, version: 4 }],
    ]);
    const cells: CellChange[] = [
      { marktype_id: 'bot', student_id: 'amina', value: 56, base: 0 },
      { marktype_id: 'bot', student_id: 'brian', value: 70, base: 2 },
      { marktype_id: 'bot', student_id: 'carol', value: null, base: 1 },
      { marktype_id: 'bot', student_id: 'dan', value: ABSENT, base: 4 },
      { marktype_id: 'mot', student_id: 'amina', value: null, base: 0 },
    ];
    expect(savedCells(cells, planSave(cells, before), before)).toEqual({
      bot: {
        amina: { mark: 56, version: 1 },
        brian: { mark: 70, version: 3 },
        carol: { mark: null, version: 0 },
        dan: { mark: ABSENT, version: 4 },
      },
      mot: { amina: { mark: null, version: 0 } },
    });
  });
});

describe('ids in any case (issue 23 item 7)', () => {
  it('a cell named in capitals finds its stored mark: a change from its version, never a second new mark', () => {
    const id = '0193f2a4-7b1c-7d2e-8f3a-4b5c6d7e8f9a';
    const learner = '0193f2a4-7b1c-7d2e-8f3a-4b5c6d7e8fab';
    const plan = planSave(
      [{ marktype_id: id.toUpperCase(), student_id: learner.toUpperCase(), value: 43, base: 3 }],
      stored([[id, learner, { value: 42, version: 3 }]]),
    );
    expect(plan.conflicts).toEqual([]);
    expect(plan.writes[0]?.before).toEqual({ value: 42, version: 3 });
  });
});
