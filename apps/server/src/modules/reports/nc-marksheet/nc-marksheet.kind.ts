import {
  classReportScope,
  gradeNcLearner,
  type NcMarksheetModel,
  type NcMarksheetQuery,
  ncMarksheetEndpoint,
  ncMarksheetExam,
  ncMarksheetFileName,
  ncMarksheetModel,
  REPORT_MESSAGES,
} from '@mustard/shared';
import { invalid } from '../../../errors.js';
import { FileAnswer, spreadsheetAnswer } from '../../../plugins/endpoints.js';
import { classTermKey } from '../../students/class-learners.repository.js';
import { NC_MARKSHEET_DRAWER } from '../document-drawers.js';
import type { KindRead, ReportKind } from '../pipeline/kind.js';
import type { SourceName } from '../pipeline/sources.js';
import { renderNcMarksheetHtml } from './html.js';
import { ncMarksheetWorkbook } from './workbook.js';

/*
 * The new-curriculum mark sheet as a report kind (issue 27 point 4): a new-curriculum kind (the
 * pipeline's old-curriculum check lets it by; its one source, `newCurriculum`, refuses a class
 * on the old curriculum that year), the class's learners of the stream graded by the shared
 * grader (gradeNcLearner, the school's newCurriculum rules) with the chosen mark type as the
 * summative exam, and its four outputs: the model, the preview (`html=1`), the PDF (`pdf=1`,
 * the one document pool) and the workbook (`excel=1`), each named
 * `ncmarksheet-<class>-<stream>-<year>-<term>`.
 */

export const NC_MARKSHEET_SOURCES = ['newCurriculum'] as const satisfies ReadonlyArray<SourceName>;
type NcMarksheetSource = (typeof NC_MARKSHEET_SOURCES)[number];

const sameText = (a: string | null, b: string) => (a ?? '').trim().toLowerCase() === b.trim().toLowerCase();

/** The sheet's model from what the pipeline read (pure). */
export function buildNcMarksheet(read: KindRead<NcMarksheetQuery, NcMarksheetSource>): NcMarksheetModel {
  const { load, query } = read;
  const inputs = load.classes[0];
  const nc = inputs ? read.sources.get(classTermKey(inputs))?.newCurriculum : undefined;
  const stream = query.stream ?? null;
  const learners = (inputs?.learners ?? []).filter((learner) => stream === null || sameText(learner.stream, stream));
  if (!inputs || !nc || learners.length === 0) throw invalid({ form: [REPORT_MESSAGES.noLearners] });
  const rules = load.settings.rules.newCurriculum;
  return ncMarksheetModel({
    school: { name: load.school.name },
    report: { form: inputs.form, stream, term: inputs.term, year: inputs.year, marktype: nc.exam },
    subjects: nc.subjects,
    rules,
    learners: learners.map((learner) => ({
      id: learner.id,
      studentid: learner.studentid,
      fullname: learner.fullname,
      stream: learner.stream,
      result: gradeNcLearner(nc.learners.get(learner.id) ?? [], rules),
    })),
  });
}

const fileName = (model: NcMarksheetModel, extension: string) => `${ncMarksheetFileName(model.report)}.${extension}`;

export const ncMarksheetKind = {
  name: 'ncmarksheet',
  curriculum: 'new',
  endpoint: ncMarksheetEndpoint,
  scope: (query: NcMarksheetQuery) =>
    classReportScope({
      form: query.form,
      stream: query.stream,
      term: query.term,
      year: query.year,
      category: 'exam',
      marktype_id: ncMarksheetExam(query),
    }),
  sources: NC_MARKSHEET_SOURCES,
  build: buildNcMarksheet,
  output: (query) => (query.html ? 'html' : query.pdf ? 'pdf' : query.excel ? 'xlsx' : 'json'),
  render: {
    json: async (model) => model,
    html: async (model) => ({ html: renderNcMarksheetHtml(model) }),
    xlsx: async (model) => spreadsheetAnswer(fileName(model, 'xlsx'), await ncMarksheetWorkbook(model)),
    pdf: async (model, _context, draw) => new FileAnswer(fileName(model, 'pdf'), 'application/pdf', await draw(NC_MARKSHEET_DRAWER, model)),
  },
} satisfies ReportKind<typeof ncMarksheetEndpoint, NcMarksheetModel, NcMarksheetSource>;
