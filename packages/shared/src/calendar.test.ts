import { describe, expect, it } from 'vitest';
import { currentTerm, defaultTermDates, localDay, TermDatesInputSchema } from './calendar.js';
import { SETTINGS_MESSAGES as M } from './messages.js';

const defaults2026 = defaultTermDates(2026);

describe('the current term', () => {
  it('is the term a day falls in', () => {
    expect(currentTerm('2026-03-10', defaults2026)).toEqual({ term: 'I', year: 2026 });
    expect(currentTerm('2026-07-01', defaults2026)).toEqual({ term: 'II', year: 2026 });
    expect(currentTerm('2026-11-22', defaults2026)).toEqual({ term: 'III', year: 2026 });
    expect(currentTerm('2026-12-05', defaults2026)).toEqual({ term: 'III', year: 2026 });
  });

  it('is the next term in a holiday: January is Term I, mid-December next year’s Term I', () => {
    expect(currentTerm('2026-01-15', defaults2026)).toEqual({ term: 'I', year: 2026 });
    expect(currentTerm('2026-12-06', defaults2026)).toEqual({ term: 'I', year: 2027 });
    const school = [
      { term: 'I' as const, starts: '2026-02-02', ends: '2026-05-01' },
      { term: 'II' as const, starts: '2026-05-25', ends: '2026-08-14' },
      { term: 'III' as const, starts: '2026-09-07', ends: '2026-11-27' },
    ];
    expect(currentTerm('2026-05-10', school)).toEqual({ term: 'II', year: 2026 });
    expect(currentTerm('2026-08-20', school)).toEqual({ term: 'III', year: 2026 });
    expect(currentTerm('2026-11-30', school)).toEqual({ term: 'I', year: 2027 });
  });

  it('reads today in local time, not UTC', () => {
    expect(localDay(new Date(2026, 0, 5, 23, 30))).toBe('2026-01-05');
  });
});

describe('term dates as saved', () => {
  const errors = (input: unknown) => {
    const result = TermDatesInputSchema.safeParse(input);
    return result.success ? [] : result.error.issues.map((issue) => issue.message);
  };

  it('takes three terms in order within the year', () => {
    expect(errors({ year: 2026, terms: defaults2026 })).toEqual([]);
  });

  it('refuses reversed or overlapping terms, days outside the year, days that do not exist, and a missing term', () => {
    const [one, two, three] = defaults2026 as [(typeof defaults2026)[0], (typeof defaults2026)[0], (typeof defaults2026)[0]];
    expect(errors({ year: 2026, terms: [{ ...one, ends: '2026-01-20' }, two, three] })).toEqual([M.termDatesOrder]);
    expect(errors({ year: 2026, terms: [one, { ...two, starts: '2026-04-15' }, three] })).toEqual([M.termDatesOrder]);
    expect(errors({ year: 2026, terms: [one, two, { ...three, ends: '2027-01-10' }] })).toEqual([M.termDatesYear]);
    expect(errors({ year: 2026, terms: [{ ...one, starts: '2026-02-30' }, two, three] })).toContain(M.termDateInvalid);
    expect(errors({ year: 2026, terms: [one, two] })).toEqual([M.termDatesOrder]);
    // A school year has three terms, I to III: a fourth is no term.
    expect(errors({ year: 2026, terms: [one, two, { ...three, term: 'IV' }] })).toEqual([M.termRequired]);
    expect(errors({ year: 2026, terms: [two, one, three] }).length).toBeGreaterThan(0);
    expect(errors({ year: 1999, terms: defaults2026 })).toContain(M.yearInvalid);
  });
});
