import { marksheetEndpoint } from '@mustard/shared';
import { PAGES } from '../../lib/pages.js';
import { defineReportPage, reportFields } from '../report-page/declaration.js';

/*
 * The mark sheet (`/marks/marksheet`, manage on marks; issue 15 point 7): the report filter
 * (class, stream, student category, term, year, category, mark types) with Excel, PDF and
 * Preview, then what was ticked: the preview in a sandboxed 800 px frame, the workbook and the
 * PDF downloaded under the names the server gives (marksheet-<class>-<stream>-<year>-<term>).
 * One "Please wait.." toast for all of it, then "The marksheet is ready." (or the server's error).
 */
export const marksheetPage = defineReportPage({
  title: PAGES.marksheet.title,
  filterName: 'marksheet.filter',
  fields: reportFields('marksheet.category'),
  endpoint: marksheetEndpoint,
  outputs: {
    excel: { box: 'marksheet.excel', query: { excel: '1' } },
    pdf: { box: 'marksheet.pdf', query: { pdf: '1' } },
    preview: { box: 'marksheet.preview', query: { html: '1' }, title: 'marksheet.previewTitle' },
  },
  // Nothing ticked shows the preview: Next always answers something.
  otherwise: 'preview',
  ready: 'marksheet.ready',
  newCurriculum: { to: PAGES.ncMarksheet.path, link: 'marksheet.newCurriculumLink' },
});
