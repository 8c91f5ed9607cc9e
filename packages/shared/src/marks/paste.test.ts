import { describe, expect, it } from 'vitest';
import { parsePastedBlock } from './cells.js';
import { planPaste } from './paste.js';

/** A grid in the class list's order: surname, then first name. */
const LEARNERS = [
  { studentid: 'P5/0001', fullname: 'Yusuf Achieng' },
  { studentid: 'P5/0002', fullname: 'Amos Baguma' },
  { studentid: 'P5/0003', fullname: 'Xavier Kato' },
  { studentid: 'P5/0004', fullname: 'Brenda Grace Mugisha' },
];
const grid = { learners: LEARNERS, columns: 3 };
const block = (text: string) => parsePastedBlock(text);
const filled = (plan: ReturnType<typeof planPaste>) => plan.cells.map((cell) => [cell.row, cell.column, cell.text]);

describe('a pasted block', () => {
  it('without ids or names lands by position from the focused cell, and names the rows it reached', () => {
    const plan = planPaste(block('56\t70\n61\tABS\n'), { row: 1, column: 1 }, grid);
    expect(plan.by).toBe('position');
    expect(filled(plan)).toEqual([
      [1, 1, '56'],
      [1, 2, '70'],
      [2, 1, '61'],
      [2, 2, 'ABS'],
    ]);
    expect(plan.rows).toEqual([1, 2]);
    expect(plan.unmatched).toEqual([]);
  });

  it('with student ids in the first column lands on each named learner, whatever the block’s order', () => {
    const plan = planPaste(block('P5/0003\t40\t41\np5/0001\t50\t51\n'), { row: 0, column: 0 }, grid);
    expect(plan.by).toBe('studentid');
    expect(filled(plan)).toEqual([
      [2, 0, '40'],
      [2, 1, '41'],
      [0, 0, '50'],
      [0, 1, '51'],
    ]);
    expect(plan.rows).toEqual([0, 2]);
  });

  it('with names in a register’s order (surname first, any case, part of a longer name) lands on each learner; the focused row does not matter', () => {
    const plan = planPaste(block('MUGISHA Brenda\t77\nKato, Xavier\t66\nachieng yusuf\t55\n'), { row: 3, column: 2 }, grid);
    expect(plan.by).toBe('name');
    expect(filled(plan)).toEqual([
      [3, 2, '77'],
      [2, 2, '66'],
      [0, 2, '55'],
    ]);
  });

  it('with both the id and the name takes the id, skips a heading row, and says which rows matched no one, twice, or two', () => {
    const learners = [...LEARNERS, { studentid: 'P5/0005', fullname: 'Amos Baguma' }];
    const text = [
      'Student ID\tName\tBOT',
      'P5/0002\tAmos Baguma\t60',
      'P5/9999\tJane Doe\t61',
      '\tAmos Baguma\t62',
      'P5/0002\tAmos Baguma\t63',
      'P5/0003\tXavier Kato\t64',
    ].join('\n');
    const plan = planPaste(block(text), { row: 0, column: 0 }, { learners, columns: 3 });
    expect(plan.by).toBe('studentid');
    expect(filled(plan)).toEqual([
      [1, 0, '60'],
      [2, 0, '64'],
    ]);
    expect(plan.unmatched).toEqual([
      { line: 3, text: 'P5/9999 Jane Doe', reason: 'none' },
      { line: 4, text: 'Amos Baguma', reason: 'ambiguous' },
      { line: 5, text: 'P5/0002 Amos Baguma', reason: 'repeated' },
    ]);
  });

  it('counts the values beyond the last mark type as outside', () => {
    const plan = planPaste(block('P5/0001\t1\t2\t3\n'), { row: 0, column: 1 }, grid);
    expect(filled(plan)).toEqual([
      [0, 1, '1'],
      [0, 2, '2'],
    ]);
    expect(plan.outside).toBe(1);
  });

  it('reads a column of numbers as marks, not ids, unless every number is a learner’s id', () => {
    const numbered = [
      { studentid: '1', fullname: 'Yusuf Achieng' },
      { studentid: '2', fullname: 'Amos Baguma' },
    ];
    const marks = planPaste(block('2\t70\n45\t80\n'), { row: 0, column: 0 }, { learners: numbered, columns: 2 });
    expect(marks.by).toBe('position');
    const ids = planPaste(block('2\t70\n1\t80\n'), { row: 0, column: 0 }, { learners: numbered, columns: 2 });
    expect(ids.by).toBe('studentid');
    expect(filled(ids)).toEqual([
      [1, 0, '70'],
      [0, 0, '80'],
    ]);
  });
});
