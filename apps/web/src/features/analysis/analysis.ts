import { analysisEndpoint } from '@mustard/shared';
import { PAGES } from '../../lib/pages.js';
import { defineReportPage, reportFields } from '../report-page/declaration.js';

/*
 * The result analysis (`/resultanalysis`; issue 28 point 1): the report filter (class, stream,
 * term, year, category, mark types) with PDF and Preview: the preview in the sandboxed frame,
 * the PDF downloaded under the server's name (analysis-<class>-<stream>-<year>-<term>). The
 * decimals shown are the server's default (2) until the filter has a precision field.
 */
export const analysisPage = defineReportPage({
  title: PAGES.resultAnalysis.title,
  filterName: 'analysis.filter',
  fields: reportFields('analysis.category', [], ['studentcategory_id']),
  endpoint: analysisEndpoint,
  outputs: {
    pdf: { box: 'analysis.pdf', query: { pdf: '1' } },
    preview: { box: 'analysis.preview', query: { html: '1' }, title: 'analysis.previewTitle' },
  },
  otherwise: 'preview',
  ready: 'analysis.ready',
});
