import { describe, expect, it } from 'vitest';
import { REPORT_MESSAGES } from '../messages.js';
import { CumulativeReportQuerySchema } from './cumulative-report.js';

/*
 * The Cumulative Reports filter (issue 28 point 3): the terminal report's fields, at least one
 * mark type ticked (the report is those mark types side by side), at most as many as any report.
 */

const id = (n: number) => `0193f2a4-7b1c-7d2e-8f3a-4b5c6d7e8f${String(n).padStart(2, '0')}`;
const base = { form: 'P7', term: 'I', year: '2026' };
const errorsOf = (query: Record<string, unknown>) => {
  const parsed = CumulativeReportQuerySchema.safeParse(query);
  return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
};

describe('the cumulative report’s query', () => {
  it('reads the ticked mark types in any spelling, the Label, one learner and the outputs', () => {
    const query = CumulativeReportQuerySchema.parse({
      ...base,
      marktype_ids: `${id(1).toUpperCase()},${id(2)}`,
      label: ' FINAL ',
      student_id: id(3),
      pdf: '1',
    });
    expect(query).toMatchObject({
      marktype_ids: [id(1), id(2)],
      label: 'FINAL',
      student_id: id(3),
      pdf: true,
      json: false,
      category: 'exam',
    });
    expect(CumulativeReportQuerySchema.parse({ ...base, 'marktype_ids[]': [id(1)], label: '' }).label).toBeUndefined();
    expect(CumulativeReportQuerySchema.parse({ ...base, marktype_id: id(4) }).marktype_id).toBe(id(4));
  });

  it('refuses no mark type ticked, on the mark types’ field, and more than a report shows', () => {
    for (const none of [{}, { marktype_ids: '' }, { 'marktype_ids[]': [] }])
      expect(errorsOf({ ...base, ...none })).toEqual({ marktype_ids: REPORT_MESSAGES.cumulativeNeedsMarkTypes });
    const many = Array.from({ length: 21 }, (_, n) => id(n + 10)).join(',');
    expect(errorsOf({ ...base, marktype_ids: many })).toMatchObject({ marktype_ids: REPORT_MESSAGES.markTypeUnknown });
    expect(errorsOf({ ...base, marktype_ids: id(1), label: 'x'.repeat(61) })).toHaveProperty('label');
  });
});
