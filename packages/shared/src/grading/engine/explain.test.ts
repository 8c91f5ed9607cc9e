import { describe, expect, it } from 'vitest';
import { EXPLANATION_CODES, explainText, explanation, printedNumber } from './explain.js';

describe('explanations', () => {
  it('every code reads as an English sentence, even with no params', () => {
    for (const code of EXPLANATION_CODES) {
      const sentence = explainText({ code, params: {} });
      expect(sentence, code).toMatch(/^[A-Z0-9-].*\.$/);
      expect(sentence, code).not.toMatch(/undefined|NaN|\[object/);
    }
  });

  it('codes are unique', () => {
    expect(new Set(EXPLANATION_CODES).size).toBe(EXPLANATION_CODES.length);
  });

  it('numbers print cut to two decimals, never rounded up into a band they are not in', () => {
    expect(printedNumber(59.996)).toBe(59.99);
    expect(printedNumber(59.99999999999999)).toBe(60);
    expect(printedNumber(0.29)).toBe(0.29);
    expect(printedNumber(60)).toBe(60);
    expect(printedNumber(66.666666)).toBe(66.66);
    expect(printedNumber(-0.004)).toBe(0);
  });

  it('numbers show at most two decimals; parts read after their whole when deep', () => {
    const explained = explanation('subjectTotal.single', { markType: 'EOT', total: 66.666666 }, [
      explanation('mark.scaled', { markType: 'EOT', raw: 20, maximum: 30, percent: 66.666666 }),
    ]);
    expect(explainText(explained)).toBe('The total 66.66 is the EOT mark.');
    expect(explainText(explained, true)).toBe('The total 66.66 is the EOT mark. EOT: 20 out of 30 is 66.66%.');
  });

  it('an explanation without parts has no parts key (data stays small)', () => {
    expect(explanation('mean.none')).toEqual({ code: 'mean.none', params: {} });
  });
});
