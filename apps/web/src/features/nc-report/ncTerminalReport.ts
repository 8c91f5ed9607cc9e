import { DEFAULT_REPORT_LABEL, ncTerminalReportEmailEndpoint, ncTerminalReportEndpoint } from '@mustard/shared';
import { PAGES } from '../../lib/pages.js';
import { defineReportPage } from '../report-page/declaration.js';

/*
 * The new-curriculum terminal report (`/school/ncterminalreport`, issue 27 point 2; spec §2): the
 * learner (none: the whole class), class, stream, term, the summative exam's mark type, year and
 * label, with Summary, Show Topics, Disable Formative and Show comments; then the cards' preview
 * in the sandboxed frame (a click on a number shows how it was worked out) with its Download PDF,
 * or the class's PDF followed as it is drawn; with Email, each learner's own card to their guardian.
 */
export const ncTerminalReportPage = defineReportPage({
  title: PAGES.ncTerminalReport.title,
  filterName: 'ncTerminalReport.filter',
  fields: [
    'student_id',
    'form',
    'stream',
    'term',
    { name: 'marktype_id', label: 'ncTerminalReport.markType', required: true },
    'year',
    'label',
  ],
  options: [
    { name: 'summary', label: 'ncTerminalReport.summary' },
    { name: 'topics', label: 'ncTerminalReport.topics' },
    { name: 'noformative', label: 'ncTerminalReport.noformative' },
    { name: 'comments', label: 'ncTerminalReport.comments' },
  ],
  initial: { label: DEFAULT_REPORT_LABEL },
  endpoint: ncTerminalReportEndpoint,
  outputs: {
    preview: {
      box: 'ncTerminalReport.preview',
      query: { html: '1' },
      title: 'ncTerminalReport.previewTitle',
      hint: 'ncTerminalReport.previewHint',
      // The card is 740 px wide: a phone shows it whole, scaled down.
      width: 760,
      downloadPdf: 'ncTerminalReport.downloadPdf',
    },
    pdf: { query: { pdf: '1' }, followed: true },
  },
  email: { box: 'reportEmail.box', endpoint: ncTerminalReportEmailEndpoint },
  otherwise: 'pdf',
  ready: 'ncTerminalReport.ready',
});
