import { ncMarksheetEndpoint } from '@mustard/shared';
import { PAGES } from '../../lib/pages.js';
import { defineReportPage } from '../report-page/declaration.js';

/*
 * The new-curriculum mark sheet (`/school/ncmarksheet`, manage on marks; issue 27 point 4): class,
 * stream, term, year and the summative exam's mark type, with Excel, PDF and Preview as on the
 * mark sheet: the workbook and the PDF downloaded under the names the server gives
 * (ncmarksheet-<class>-<stream>-<year>-<term>), the preview in the sandboxed frame, then "The
 * marksheet is ready." (or the server's error: an old-curriculum class, a mark type missing).
 */
export const ncMarksheetPage = defineReportPage({
  title: PAGES.ncMarksheet.title,
  filterName: 'ncMarksheet.filter',
  fields: [
    'form',
    'stream',
    'term',
    'year',
    { name: 'marktype_ids', label: 'ncMarksheet.markType', none: 'ncMarksheet.chooseMarkType', required: true },
  ],
  endpoint: ncMarksheetEndpoint,
  outputs: {
    excel: { box: 'marksheet.excel', query: { excel: '1' } },
    pdf: { box: 'marksheet.pdf', query: { pdf: '1' } },
    preview: { box: 'marksheet.preview', query: { html: '1' }, title: 'ncMarksheet.previewTitle' },
  },
  // Nothing ticked downloads the workbook, the sheet the spec names.
  otherwise: 'excel',
  ready: 'marksheet.ready',
});
