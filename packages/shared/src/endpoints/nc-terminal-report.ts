import { z } from 'zod';
import { NcReportModelSchema, NcTerminalReportQuerySchema } from '../reports/nc-report.js';
import { defineEndpoint } from './definition.js';
import { ReportPreviewSchema } from './reports.js';

// The card's model, words and preview travel with its contract (one export line in index.ts).
export * from '../reports/nc-render-html.js';
export * from '../reports/nc-report.js';

/**
 * A new-curriculum class's (or one learner's) report cards (issue 27 point 2): `json=1` the
 * model with an explanation for every number, `html=1` the preview, otherwise (or `pdf=1`) the
 * PDF `ncreport-<class>-<stream>-<year>-<term>.pdf`. An old-curriculum class is refused (422 on
 * `form`): its card is the terminal report.
 */
export const ncTerminalReportEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/ncterminalreport',
  access: 'member',
  query: NcTerminalReportQuerySchema,
  response: z.union([NcReportModelSchema, ReportPreviewSchema]),
  download: true,
});
