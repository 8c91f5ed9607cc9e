import { TerminalReportQuerySchema } from '../reports/model.js';
import { defineEndpoint } from './definition.js';
import { flag } from './fields.js';
import { ReportPreviewSchema } from './reports.js';

// The sheet's pure table and counts travel with its contract (one export line in index.ts).
export * from '../reports/marksheet.js';

/**
 * The mark sheet's filter (spec §7 "Marksheet"): the class, stream, student category, term,
 * year, report type and mark types of the Terminal Reports filter, and which output: `html=1`
 * the preview, `pdf=1` the PDF, otherwise (`excel=1`) the workbook.
 */
export const MarksheetQuerySchema = TerminalReportQuerySchema.pick({
  form: true,
  stream: true,
  studentcategory_id: true,
  term: true,
  year: true,
  category: true,
  marktype_id: true,
  'marktype_ids[]': true,
  marktype_ids: true,
}).extend({ html: flag, excel: flag, pdf: flag });

/**
 * A class's mark sheet (issue 15 point 7): `html=1` answers `{ html }` for the web's frame;
 * `pdf=1` the PDF and otherwise the workbook, each named
 * `marksheet-<class>-<stream>-<year>-<term>` (.pdf / .xlsx; the stream `all` for the whole class).
 */
export const marksheetEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/marks/marksheet',
  access: { action: 'manage', subject: 'mark' },
  query: MarksheetQuerySchema,
  response: ReportPreviewSchema,
  download: true,
});
