import { progressReportEndpoint } from '@mustard/shared';
import { PAGES } from '../../lib/pages.js';
import { defineReportPage } from '../report-page/declaration.js';

/*
 * The progressive report (`/progressreport`; spec §2 "Progressive Reports": class, stream,
 * student, Preview; issue 28 point 4): one learner of the class across every term on record,
 * each term as its card computed it, with the change and a trend line; PDF and Preview, the PDF
 * downloaded under the server's name (progressreport-<class>-<stream>-<student id>). A class on
 * the new curriculum has its own card: the page says so with a link there.
 */
export const progressReportPage = defineReportPage({
  title: PAGES.progressReport.title,
  filterName: 'progressReport.filter',
  fields: ['form', 'stream', { name: 'student_id', required: true, none: 'progressReport.chooseLearner' }],
  endpoint: progressReportEndpoint,
  outputs: {
    pdf: { box: 'progressReport.pdf', query: {} },
    preview: { box: 'progressReport.preview', query: { html: '1' }, title: 'progressReport.previewTitle' },
  },
  otherwise: 'preview',
  ready: 'progressReport.ready',
  newCurriculum: { to: PAGES.ncTerminalReport.path, link: 'terminalReport.newCurriculumLink' },
});
