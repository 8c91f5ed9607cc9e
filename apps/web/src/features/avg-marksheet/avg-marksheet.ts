import { avgMarksheetEndpoint } from '@mustard/shared';
import { PAGES } from '../../lib/pages.js';
import { defineReportPage } from '../report-page/declaration.js';

/*
 * The average mark sheet (`/marks/avgmarksheet`, manage on marks; issue 28 point 5): class,
 * stream and year with Excel, PDF and Preview: each learner's each subject's mean over the terms
 * taken, graded as the cards grade, with aggregate or division and position. The files are
 * downloaded under the server's names (avgmarksheet-<class>-<stream>-<year>).
 */
export const avgMarksheetPage = defineReportPage({
  title: PAGES.averageMarksheet.title,
  filterName: 'avgMarksheet.filter',
  fields: ['form', 'stream', 'year'],
  endpoint: avgMarksheetEndpoint,
  outputs: {
    excel: { box: 'avgMarksheet.excel', query: { excel: '1' } },
    pdf: { box: 'avgMarksheet.pdf', query: {} },
    preview: { box: 'avgMarksheet.preview', query: { html: '1' }, title: 'avgMarksheet.previewTitle' },
  },
  otherwise: 'preview',
  ready: 'avgMarksheet.ready',
});
