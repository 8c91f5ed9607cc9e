import { describe, expect, it } from 'vitest';
import { isPerPaperForm, PER_PAPER_FORMS } from './index.js';

describe('per-paper classes (A level)', () => {
  it('S5 and S6 are graded per paper', () => {
    expect([...PER_PAPER_FORMS].sort()).toEqual(['S5', 'S6']);
    expect(isPerPaperForm('S5')).toBe(true);
    expect(isPerPaperForm('S6')).toBe(true);
  });

  it('O level, primary and other classes are not', () => {
    for (const form of ['S1', 'S2', 'S3', 'S4', 'P7', 'P1', 'Nursery', 'S7', '', 'S 5']) expect(isPerPaperForm(form), form).toBe(false);
  });
});
