import { terminalReportEndpoint } from '@mustard/shared';
import { describe, expect, it } from 'vitest';
import { marksheetPage } from '../marksheet/marksheet.js';
import { terminalReportPage } from '../reports/terminal-report.js';
import { checkedQuery } from './contract.js';
import {
  declaredFields,
  defineReportPage,
  fieldName,
  namedErrors,
  outputBoxes,
  previewHtmlOf,
  reportFields,
  startTicks,
  wantedOutputs,
} from './declaration.js';
import { changeValues, queryOf, startValues } from './fields.js';

/* The pure parts of the report page shell (issue 25 point 6): the query from the declared fields, checked by the real contracts. */

const TERM = { term: 'II', year: 2026 } as const;
const A = '0190a3c4-0000-7000-8000-000000000001';
const B = '0190a3c4-0000-7000-8000-000000000002';

describe('the query of a report page', () => {
  it('carries every declared field, as the terminal report’s contract takes it', () => {
    const values = startValues(TERM, {
      ...terminalReportPage.initial,
      form: 'P7',
      stream: ' East ',
      marktype_ids: [A, B],
      rawmark: true,
    });
    const query = queryOf(declaredFields(terminalReportPage), values);
    expect(query).toEqual({
      form: 'P7',
      stream: 'East',
      studentcategory_id: '',
      term: 'II',
      year: 2026,
      category: 'exam',
      marktype_ids: `${A},${B}`,
      student_id: '',
      label: 'END OF TERM',
      rawmark: '1',
      separate: '1',
    });
    const checked = checkedQuery(terminalReportEndpoint, query);
    expect(checked.refused).toBeNull();
    expect(checked.read).toMatchObject({ form: 'P7', stream: 'East', rawmark: true, separate: true, label: 'END OF TERM' });
    expect(checked.read?.student_id).toBeUndefined();
  });

  it('leaves out what a page does not declare: the mark sheet sends no learner, label or raw marks', () => {
    const values = startValues(TERM, { form: 'P7', student_id: A, label: 'MID TERM', rawmark: true });
    const query = queryOf(declaredFields(marksheetPage), values);
    expect(Object.keys(query).sort()).toEqual(['category', 'form', 'marktype_ids', 'stream', 'studentcategory_id', 'term', 'year']);
    expect(query.marktype_ids).toBeUndefined();
    expect(checkedQuery(marksheetPage.endpoint, query).refused).toBeNull();
  });

  it('of the report filter’s fields: the page’s own after them, what it does not ask left out', () => {
    const fields = reportFields('comments.reportType', ['subject_id'], ['studentcategory_id']);
    expect(fields.map(fieldName)).toEqual(['form', 'stream', 'term', 'year', 'category', 'marktype_ids', 'subject_id']);
    expect(fields).toContainEqual({ name: 'category', label: 'comments.reportType' });
    const query = queryOf(declaredFields({ fields, options: [{ name: 'rawmark', label: 'comments.rawmark' }] }), startValues(TERM));
    expect(query).not.toHaveProperty('studentcategory_id');
    expect(query).toMatchObject({ subject_id: '', rawmark: '0' });
  });

  it('is refused by the contract, field by field, before anything is sent', () => {
    const query = queryOf(declaredFields(marksheetPage), startValues(TERM));
    const checked = checkedQuery(marksheetPage.endpoint, query);
    expect(checked.query).toBeNull();
    expect(checked.refused?.issues.map((issue) => issue.path[0])).toContain('form');
  });
});

describe('the filter’s values', () => {
  it('start at the page’s own and the current term', () => {
    expect(startValues(TERM, terminalReportPage.initial)).toMatchObject({
      ...TERM,
      separate: true,
      label: 'END OF TERM',
      category: 'exam',
    });
  });

  it('let the learner go with a new class or stream, and keep it when the term changes', () => {
    const chosen = startValues(TERM, { form: 'P7', student_id: A });
    expect(changeValues(chosen, { form: 'P6' }).student_id).toBeNull();
    expect(changeValues(chosen, { stream: 'West' }).student_id).toBeNull();
    expect(changeValues(chosen, { term: 'III' }).student_id).toBe(A);
    expect(changeValues(chosen, { form: 'P7' }).student_id).toBe(A);
  });
});

describe('the outputs', () => {
  it('of the terminal report: the preview when ticked, else the PDF', () => {
    expect(outputBoxes(terminalReportPage.outputs).map((box) => box.output)).toEqual(['preview']);
    const ticks = startTicks(terminalReportPage.outputs);
    expect(ticks.preview).toBe(true);
    expect(wantedOutputs(terminalReportPage, ticks)).toEqual(['preview']);
    expect(wantedOutputs(terminalReportPage, { ...ticks, preview: false })).toEqual(['pdf']);
  });

  it('with Email ticked: the cards go by e-mail, with the preview if ticked, never also as a download', () => {
    const ticks = startTicks(terminalReportPage.outputs);
    expect(terminalReportPage.email?.endpoint.access).toEqual({ action: 'manage', subject: 'publish-mark' });
    expect(wantedOutputs(terminalReportPage, ticks, true)).toEqual(['preview']);
    expect(wantedOutputs(terminalReportPage, { ...ticks, preview: false }, true)).toEqual([]);
  });

  it('of the mark sheet: the boxes Excel, PDF, Preview; what is ticked runs preview first; nothing ticked is the preview', () => {
    expect(outputBoxes(marksheetPage.outputs).map((box) => box.output)).toEqual(['excel', 'pdf', 'preview']);
    const none = { preview: false, excel: false, pdf: false };
    expect(wantedOutputs(marksheetPage, none)).toEqual(['preview']);
    expect(wantedOutputs(marksheetPage, { ...none, pdf: true, excel: true })).toEqual(['excel', 'pdf']);
    expect(wantedOutputs(marksheetPage, { preview: true, excel: true, pdf: true })).toEqual(['preview', 'excel', 'pdf']);
  });

  it('are declared by what the contract takes: the terminal report’s query has no `pdf` flag', () => {
    const declaration = defineReportPage({
      ...terminalReportPage,
      // @ts-expect-error The terminal report answers its PDF without a flag: its contract knows no `pdf`.
      outputs: { pdf: { query: { pdf: '1' } } },
    });
    expect(declaration.outputs.pdf).toBeDefined();
  });

  it('find the preview in an answer, and name a refusal’s fields by their first part', () => {
    expect(previewHtmlOf({ html: '<p>card</p>' })).toBe('<p>card</p>');
    expect(previewHtmlOf({ learners: [] })).toBeNull();
    expect(namedErrors({ 'marktype_ids.0': ['Unknown mark type'], form: ['Please select a class', 'again'] })).toEqual({
      marktype_ids: 'Unknown mark type',
      form: 'Please select a class',
    });
  });
});
