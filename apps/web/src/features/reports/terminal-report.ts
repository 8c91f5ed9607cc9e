import { DEFAULT_REPORT_LABEL, terminalReportEmailEndpoint, terminalReportEndpoint } from '@mustard/shared';
import { PAGES } from '../../lib/pages.js';
import { defineReportPage, reportFields } from '../report-page/declaration.js';

/**
 * Terminal Reports (`/terminalreport`, spec §2 "Comments and reports"): the filter (class,
 * stream, student category, term, year, report type, mark types, student, label; Display raw
 * marks, Seperate mark types, Preview), then either the preview in a sandboxed 800 px frame,
 * where clicking a number shows why it is what it is, or the class's PDF, with the learners
 * drawn so far while it is made; or, with Email, each learner's own card sent to their guardian.
 */
export const terminalReportPage = defineReportPage({
  title: PAGES.terminalReport.title,
  filterName: 'terminalReport.filter',
  fields: reportFields('terminalReport.reportType', ['student_id', 'label']),
  options: [
    { name: 'rawmark', label: 'terminalReport.rawmark' },
    { name: 'separate', label: 'terminalReport.separate' },
  ],
  initial: { separate: true, label: DEFAULT_REPORT_LABEL },
  endpoint: terminalReportEndpoint,
  outputs: {
    preview: {
      box: 'terminalReport.preview',
      query: { html: '1' },
      title: 'terminalReport.previewTitle',
      hint: 'terminalReport.previewHint',
      // The card is 740 px wide: a phone shows it whole, scaled down (issue 24 point 8).
      width: 760,
      downloadPdf: 'terminalReport.downloadPdf',
    },
    pdf: { query: {}, followed: true },
  },
  email: { box: 'reportEmail.box', endpoint: terminalReportEmailEndpoint },
  otherwise: 'pdf',
  ready: 'terminalReport.ready',
  newCurriculum: { to: PAGES.ncTerminalReport.path, link: 'terminalReport.newCurriculumLink' },
});
