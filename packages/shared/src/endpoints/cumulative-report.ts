import { z } from 'zod';
import { REPORT_MESSAGES as M } from '../messages.js';
import { ReportModelSchema, TerminalReportQuerySchema } from '../reports/model.js';
import { defineEndpoint } from './definition.js';
import { flag, refineShownMarkTypes, shownMarkTypeIds } from './fields.js';
import { ReportPreviewSchema } from './reports.js';

/** The cumulative report's words (a school document, in English as the cards are). */
export const CUMULATIVE_WORDS = {
  /** The cards' title line: a school never takes it for the termly card. */
  title: 'CUMULATIVE REPORT',
  /** The combined column's title when the person gives no Label. */
  combined: 'TOTAL',
} as const;

/**
 * The Cumulative Reports filter (spec §2 "Cumulative Reports"; issue 28 point 3): one learner or
 * a class and stream, a term and year, the report type, the mark types ticked (at least one: the
 * report is those mark types side by side) and the Label, the title of the column that combines
 * them with the proportions (AVERAGE, FINAL). `json=1` answers the model, `html=1` the preview,
 * otherwise the PDF `report-<class>-<stream>-<year>-<term>.pdf`; `progress` follows the PDF.
 */
export const CumulativeReportQuerySchema = TerminalReportQuerySchema.pick({
  form: true,
  stream: true,
  student_id: true,
  term: true,
  year: true,
  category: true,
  marktype_id: true,
  'marktype_ids[]': true,
  marktype_ids: true,
  label: true,
  json: true,
  html: true,
  progress: true,
})
  .extend({ pdf: flag })
  .superRefine((query, context) => {
    if (shownMarkTypeIds(query).length === 0)
      context.addIssue({ code: 'custom', path: ['marktype_ids'], message: M.cumulativeNeedsMarkTypes });
    refineShownMarkTypes(query, context);
  });
export type CumulativeReportQuery = z.output<typeof CumulativeReportQuerySchema>;

/**
 * A class's (or one learner's) cumulative report cards (issue 28 point 3; statistics.md
 * "Cumulative report"): the terminal report's model of the ticked mark types, each its own column,
 * the combined column titled by the Label (`report.combined`) and graded by the one grader, with
 * each subject's grade points. `json=1` the model, `html=1` the preview, otherwise the PDF.
 */
export const cumulativeReportEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/cummulativereport',
  access: 'member',
  query: CumulativeReportQuerySchema,
  response: z.union([ReportModelSchema, ReportPreviewSchema]),
  download: true,
});
