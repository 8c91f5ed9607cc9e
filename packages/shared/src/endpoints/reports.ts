import { z } from 'zod';
import { ReportModelSchema, TerminalReportQuerySchema } from '../reports/model.js';
import { defineEndpoint } from './definition.js';

/** A report's preview: the HTML the web shows in its frame (spec §7: "html=1 gives JSON/HTML"). */
export const ReportPreviewSchema = z.object({ html: z.string() });

/**
 * A class's (or one learner's) report cards (issue 15 point 3): `json=1` the report model with
 * an explanation for every number, `html=1` the preview, otherwise the PDF
 * `report-<class>-<stream>-<year>-<term>.pdf`.
 */
export const terminalReportEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/terminalreport',
  access: 'member',
  query: TerminalReportQuerySchema,
  response: z.union([ReportModelSchema, ReportPreviewSchema]),
  download: true,
});

/** How far the PDF of the request with this progress token is: learners drawn of all (0 of 0 before it starts). */
export const ReportProgressSchema = z.object({ done: z.number(), total: z.number() });

export const reportProgressEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/terminalreport/progress',
  access: 'member',
  query: z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/) }),
  response: ReportProgressSchema,
});

/**
 * A real learner's card for the Report layout screen's live preview: the first learner of the
 * class with the school's latest marks, photos inlined, drawn by the web with the layout being
 * edited; `model` is null while the school has no marks (a new school: nothing is wrong).
 */
export const reportSampleEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/terminalreport/sample',
  access: 'member',
  response: z.object({ model: ReportModelSchema.nullable() }),
});
