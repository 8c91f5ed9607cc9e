import { REPORT_MESSAGES } from '@mustard/shared';
import { describe, expect, it } from 'vitest';
import { checkedQuery } from '../report-page/contract.js';
import { declaredFields, namedErrors, outputBoxes, startTicks, wantedOutputs } from '../report-page/declaration.js';
import { queryOf, startValues } from '../report-page/fields.js';
import { cumulativeReportPage } from './cumulative-report.js';

/* The Cumulative Reports page's declaration (issue 28 point 3), checked by the real contract. */

const TERM = { term: 'I', year: 2026 } as const;
const A = '0190a3c4-0000-7000-8000-000000000001';
const B = '0190a3c4-0000-7000-8000-000000000002';

describe('the cumulative report page', () => {
  it('sends the ticked mark types, the learner and the Label (TOTAL until changed)', () => {
    const values = startValues(TERM, { ...cumulativeReportPage.initial, form: 'P7', marktype_ids: [A, B] });
    const query = queryOf(declaredFields(cumulativeReportPage), values);
    expect(query).toEqual({
      form: 'P7',
      stream: undefined,
      term: 'I',
      year: 2026,
      category: 'exam',
      marktype_ids: `${A},${B}`,
      student_id: '',
      label: 'TOTAL',
    });
    const checked = checkedQuery(cumulativeReportPage.endpoint, { ...query, html: '1' });
    expect(checked.refused).toBeNull();
    expect(checked.read).toMatchObject({ marktype_ids: [A, B], label: 'TOTAL', html: true });
  });

  it('asks for the mark types before anything is sent, on their field', () => {
    const values = startValues(TERM, { ...cumulativeReportPage.initial, form: 'P7' });
    const checked = checkedQuery(cumulativeReportPage.endpoint, queryOf(declaredFields(cumulativeReportPage), values));
    const errors = Object.fromEntries((checked.refused?.issues ?? []).map((issue) => [issue.path.join('.'), [issue.message]]));
    expect(namedErrors(errors)).toEqual({ marktype_ids: REPORT_MESSAGES.cumulativeNeedsMarkTypes });
  });

  it('offers PDF and Preview, the preview ticked at first', () => {
    expect(outputBoxes(cumulativeReportPage.outputs).map((box) => box.output)).toEqual(['pdf', 'preview']);
    const ticks = startTicks(cumulativeReportPage.outputs);
    expect(wantedOutputs(cumulativeReportPage, ticks)).toEqual(['preview']);
    expect(wantedOutputs(cumulativeReportPage, { ...ticks, preview: false, pdf: true })).toEqual(['pdf']);
  });
});
