import { CUMULATIVE_WORDS, cumulativeReportEndpoint } from '@mustard/shared';
import { PAGES } from '../../lib/pages.js';
import { defineReportPage } from '../report-page/declaration.js';

/*
 * Cumulative Reports (`/cummulativereport`, spec §2 "Cumulative Reports"; issue 28 point 3): a
 * learner or a class and stream, term, year, report type, the mark types ticked (at least one)
 * and the Label, the title of the column that combines them with the proportions (AVERAGE,
 * FINAL). Next previews the cards in the sandboxed frame or downloads the PDF under the server's
 * name (report-<class>-<stream>-<year>-<term>.pdf), the learners drawn so far shown while it is made.
 */
export const cumulativeReportPage = defineReportPage({
  title: PAGES.cumulativeReport.title,
  filterName: 'cumulativeReport.filter',
  fields: [
    'form',
    'stream',
    'term',
    'year',
    { name: 'category', label: 'terminalReport.reportType' },
    { name: 'marktype_ids', required: true, none: 'cumulativeReport.tickMarkTypes' },
    'student_id',
    { name: 'label', label: 'cumulativeReport.label' },
  ],
  initial: { label: CUMULATIVE_WORDS.combined },
  endpoint: cumulativeReportEndpoint,
  outputs: {
    pdf: { box: 'cumulativeReport.pdf', query: { pdf: '1' }, followed: true },
    preview: {
      box: 'cumulativeReport.preview',
      query: { html: '1' },
      title: 'cumulativeReport.previewTitle',
      // The card is 740 px wide: a phone shows it whole, scaled down.
      width: 760,
    },
  },
  otherwise: 'preview',
  ready: 'cumulativeReport.ready',
  newCurriculum: { to: PAGES.ncTerminalReport.path, link: 'terminalReport.newCurriculumLink' },
});
