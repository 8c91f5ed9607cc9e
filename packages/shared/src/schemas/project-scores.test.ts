import { describe, expect, it } from 'vitest';
import { PROJECT_SCORE_MESSAGES as M } from '../messages.js';
import { readProjectComment, readProjectScore } from './project-scores.js';

/* A project score and comment as typed, pasted, sent or read from a sheet (issue 26 point 5). */

describe('readProjectScore', () => {
  it('takes 0 to the maximum with at most one decimal, a comma as the decimal point, and nothing as none', () => {
    expect(readProjectScore(0, 10)).toEqual({ ok: true, value: 0 });
    expect(readProjectScore(10, 10)).toEqual({ ok: true, value: 10 });
    expect(readProjectScore('8.5', 10)).toEqual({ ok: true, value: 8.5 });
    expect(readProjectScore(' 7,5 ', 10)).toEqual({ ok: true, value: 7.5 });
    expect(readProjectScore(2.5, 10)).toEqual({ ok: true, value: 2.5 });
    for (const none of [null, undefined, '', '  ']) expect(readProjectScore(none, 10)).toEqual({ ok: true, value: null });
  });

  it('refuses each bad score with its reason', () => {
    expect(readProjectScore(11, 10)).toEqual({ ok: false, error: M.aboveMaximum });
    expect(readProjectScore('10.1', 10)).toEqual({ ok: false, error: M.aboveMaximum });
    expect(readProjectScore(2.55, 10)).toEqual({ ok: false, error: M.oneDecimal });
    expect(readProjectScore(-1, 10)).toEqual({ ok: false, error: M.belowZero });
    expect(readProjectScore('three', 10)).toEqual({ ok: false, error: M.notAScore });
    expect(readProjectScore('abs', 10)).toEqual({ ok: false, error: M.absentNotScore });
    expect(readProjectScore(Number.NaN, 10)).toEqual({ ok: false, error: M.notAScore });
    expect(readProjectScore(true, 10)).toEqual({ ok: false, error: M.notAScore });
    expect(readProjectScore('1e1', 10)).toEqual({ ok: false, error: M.notAScore });
  });
});

describe('readProjectComment', () => {
  it('trims, takes blank as none, and refuses more than 1,000 characters or a non-text', () => {
    expect(readProjectComment('  Neat work ')).toEqual({ ok: true, value: 'Neat work' });
    expect(readProjectComment('   ')).toEqual({ ok: true, value: null });
    expect(readProjectComment(null)).toEqual({ ok: true, value: null });
    expect(readProjectComment('é'.repeat(1000))).toEqual({ ok: true, value: 'é'.repeat(1000) });
    expect(readProjectComment('x'.repeat(1001))).toEqual({ ok: false, error: M.commentTooLong });
    expect(readProjectComment({ text: 'x' })).toEqual({ ok: false, error: M.commentNotText });
  });
});
