import { describe, expect, it } from 'vitest';
import { exact } from '../grading/exact.js';
import { divisionChange, progressChange, progressReportFileName } from './progress-report.js';

describe('a progressive report’s change from the term before', () => {
  it('reads a mark or average higher-better and an aggregate or position lower-better', () => {
    expect(progressChange(60, 65, 'higher')).toEqual({ from: 60, to: 65, difference: 5, direction: 'improved' });
    expect(progressChange(65, 60, 'higher')?.direction).toBe('dropped');
    // An aggregate of 12 after 8 is worse; a position of 3 after 7 is better.
    expect(progressChange(8, 12, 'lower')).toEqual({ from: 8, to: 12, difference: 4, direction: 'dropped' });
    expect(progressChange(7, 3, 'lower')?.direction).toBe('improved');
    expect(progressChange(70, 70, 'higher')?.direction).toBe('same');
  });

  it('gives no change where either term has none (ABS or missing is never 0)', () => {
    expect(progressChange(null, 60, 'higher')).toBeNull();
    expect(progressChange(60, undefined, 'higher')).toBeNull();
    expect(progressChange(0, 0, 'higher')?.direction).toBe('same');
  });

  it('subtracts exactly: 61.3 after 60.1 is 1.2, not 1.1999999999999957', () => {
    expect(progressChange(60.1, 61.3, 'higher')?.difference).toBe(1.2);
    expect(progressChange(exact(181).div(3), exact(182).div(3), 'higher')?.difference).toBeCloseTo(1 / 3, 12);
  });

  it('reads a division best first (I before II), with X or none no change', () => {
    expect(divisionChange('II', 'I')).toBe('improved');
    expect(divisionChange('I', 'III')).toBe('dropped');
    expect(divisionChange('U', 'U')).toBe('same');
    expect(divisionChange('X', 'I')).toBeNull();
    expect(divisionChange(null, 'I')).toBeNull();
  });

  it('names the file by class, stream and student id, letters and digits only', () => {
    expect(progressReportFileName({ form: 'P7', stream: null }, 'MPS/0481')).toBe('progressreport-P7-all-MPS_0481');
    expect(progressReportFileName({ form: 'S.5', stream: 'East' }, 'A1')).toBe('progressreport-S_5-East-A1');
  });
});
