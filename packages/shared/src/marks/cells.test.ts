import { describe, expect, it } from 'vitest';
import { MARK_MESSAGES } from '../messages.js';
import {
  ABSENT,
  checkMark,
  competencyScale,
  formatMark,
  parsePastedBlock,
  pasteCells,
  readMarkCell,
  readMarkValue,
  sameMark,
} from './cells.js';

describe('a mark as typed', () => {
  it('reads numbers within 0 and the maximum, with at most one decimal', () => {
    expect(readMarkCell('67')).toEqual({ ok: true, value: 67 });
    expect(readMarkCell(' 67.5 ')).toEqual({ ok: true, value: 67.5 });
    expect(readMarkCell('0')).toEqual({ ok: true, value: 0 });
    expect(readMarkCell('100')).toEqual({ ok: true, value: 100 });
    expect(readMarkCell('67,5')).toEqual({ ok: true, value: 67.5 });
    expect(readMarkCell('67.')).toEqual({ ok: true, value: 67 });
    expect(readMarkCell('45', 50)).toEqual({ ok: true, value: 45 });
  });

  it('says why a cell is no mark', () => {
    expect(readMarkCell('101')).toEqual({ ok: false, error: MARK_MESSAGES.aboveMaximum });
    expect(readMarkCell('51', 50)).toEqual({ ok: false, error: MARK_MESSAGES.aboveMaximum });
    expect(readMarkCell('-1')).toEqual({ ok: false, error: MARK_MESSAGES.belowZero });
    expect(readMarkCell('67.55')).toEqual({ ok: false, error: MARK_MESSAGES.oneDecimal });
    for (const text of ['sixty', '6 7', '1e2', '0x10', '67%', 'AB', '..'])
      expect(readMarkCell(text), text).toEqual({ ok: false, error: MARK_MESSAGES.notAMark });
  });

  it('keeps an absence apart from 0, and an empty cell as no mark', () => {
    expect(readMarkCell('abs')).toEqual({ ok: true, value: ABSENT });
    expect(readMarkCell('ABS')).toEqual({ ok: true, value: ABSENT });
    expect(readMarkCell('   ')).toEqual({ ok: true, value: null });
    expect(sameMark(ABSENT, 0)).toBe(false);
    expect(sameMark(null, 0)).toBe(false);
    expect(sameMark(67.5, 67.5)).toBe(true);
  });

  it('reads what a request or a sheet carries in the same way', () => {
    expect(readMarkValue(72)).toEqual({ ok: true, value: 72 });
    expect(readMarkValue('72')).toEqual({ ok: true, value: 72 });
    expect(readMarkValue(null)).toEqual({ ok: true, value: null });
    expect(readMarkValue(true)).toEqual({ ok: false, error: MARK_MESSAGES.notAMark });
    expect(readMarkValue({})).toEqual({ ok: false, error: MARK_MESSAGES.notAMark });
    expect(checkMark(Number.NaN)).toEqual({ ok: false, error: MARK_MESSAGES.notAMark });
    expect(checkMark(Number.POSITIVE_INFINITY)).toEqual({ ok: false, error: MARK_MESSAGES.notAMark });
    // Binary fractions: 0.1 + 0.2 is still one decimal.
    expect(checkMark(0.1 + 0.2)).toEqual({ ok: true, value: 0.3 });
  });

  it('prints marks as the grid shows them', () => {
    expect(formatMark(67.5)).toBe('67.5');
    expect(formatMark(ABSENT)).toBe('ABS');
    expect(formatMark(null)).toBe('');
  });
});

describe('a competency score as typed', () => {
  const strict = competencyScale(false);
  const lenient = competencyScale(true);

  it('reads 1 to 3 with at most one decimal, ABS apart', () => {
    expect(readMarkCell('1', strict)).toEqual({ ok: true, value: 1 });
    expect(readMarkCell('2.5', strict)).toEqual({ ok: true, value: 2.5 });
    expect(readMarkCell('3', strict)).toEqual({ ok: true, value: 3 });
    expect(readMarkCell('abs', strict)).toEqual({ ok: true, value: ABSENT });
    expect(readMarkValue(2.4, strict)).toEqual({ ok: true, value: 2.4 });
  });

  it('refuses 4, 2.55, -1, "three" and 0 (unless the school allows 0), each with its reason', () => {
    expect(readMarkCell('4', strict)).toEqual({ ok: false, error: MARK_MESSAGES.competencyAboveThree });
    expect(readMarkCell('3.1', lenient)).toEqual({ ok: false, error: MARK_MESSAGES.competencyAboveThree });
    expect(readMarkCell('2.55', strict)).toEqual({ ok: false, error: MARK_MESSAGES.oneDecimal });
    expect(readMarkCell('-1', strict)).toEqual({ ok: false, error: MARK_MESSAGES.competencyBelowOne });
    expect(readMarkCell('-1', lenient)).toEqual({ ok: false, error: MARK_MESSAGES.belowZero });
    expect(readMarkCell('three', strict)).toEqual({ ok: false, error: MARK_MESSAGES.notAMark });
    expect(readMarkCell('0', strict)).toEqual({ ok: false, error: MARK_MESSAGES.competencyBelowOne });
    expect(readMarkCell('0.5', strict)).toEqual({ ok: false, error: MARK_MESSAGES.competencyBelowOne });
    expect(readMarkCell('0', lenient)).toEqual({ ok: true, value: 0 });
  });

  it("leaves a mark type's scale as it was: 0 to the maximum", () => {
    expect(readMarkCell('4', 100)).toEqual({ ok: true, value: 4 });
    expect(readMarkCell('0', 100)).toEqual({ ok: true, value: 0 });
  });
});

describe('a pasted block', () => {
  it('splits rows by line and cells by tab, with no empty row for the final line break', () => {
    expect(parsePastedBlock('56\t70\n61\tABS\n')).toEqual([
      ['56', '70'],
      ['61', 'ABS'],
    ]);
    expect(parsePastedBlock('56\r\n61\r\n')).toEqual([['56'], ['61']]);
    expect(parsePastedBlock('56')).toEqual([['56']]);
    expect(parsePastedBlock('')).toEqual([]);
    expect(parsePastedBlock('\t\n')).toEqual([['', '']]);
  });

  it('reads quoted cells holding tabs, line breaks and quotes', () => {
    expect(parsePastedBlock('"a\tb"\t"say ""hi"""\n"two\nlines"\t3')).toEqual([
      ['a\tb', 'say "hi"'],
      ['two\nlines', '3'],
    ]);
  });

  it('lands at the focused cell, down and across, clipped to the grid', () => {
    const block = parsePastedBlock('1\t2\t3\n4\t5\t6\n');
    expect(pasteCells(block, { row: 58, column: 1 }, { rows: 60, columns: 3 })).toEqual({
      cells: [
        { row: 58, column: 1, text: '1' },
        { row: 58, column: 2, text: '2' },
        { row: 59, column: 1, text: '4' },
        { row: 59, column: 2, text: '5' },
      ],
      outside: 2,
    });
  });
});
