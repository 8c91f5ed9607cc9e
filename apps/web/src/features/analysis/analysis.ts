import { analysisEndpoint } from '@mustard/shared';
import { PAGES } from '../../lib/pages.js';
import { defineReportPage, reportFields } from '../report-page/declaration.js';

/*
 * The result analysis (`/resultanalysis`; issue 28 point 1): the report filter (class, stream,
 * term, year, category, mark types, precision) with Excel, PDF and Preview: the preview in the sandboxed frame,
 * the workbook and the PDF downloaded under the server's name (analysis-<class>-<stream>-<year>-<term>). Precision
 * is the decimals the tables show (0..4, display only).
 */
export const analysisPage = defineReportPage({
  title: PAGES.resultAnalysis.title,
  filterName: 'analysis.filter',
  // No class chosen is the whole school's term: every class's analysis and a summary of classes.
  fields: reportFields('analysis.category', ['precision'], ['studentcategory_id']).map((field) =>
    field === 'form' ? { name: 'form', none: 'analysis.allClasses' } : field,
  ),
  endpoint: analysisEndpoint,
  outputs: {
    excel: { box: 'analysis.excel', query: { excel: '1' } },
    pdf: { box: 'analysis.pdf', query: { pdf: '1' }, followed: true, progress: 'analysis.progress' },
    preview: { box: 'analysis.preview', query: { html: '1' }, title: 'analysis.previewTitle' },
  },
  otherwise: 'preview',
  ready: 'analysis.ready',
});
