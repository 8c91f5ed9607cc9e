import {
  endpointUrl,
  REPORT_MESSAGES,
  type ReportLayout,
  type ReportModel,
  renderReportHtml,
  schoolLogoEndpoint,
  type TerminalReportQuery,
  terminalReportEndpoint,
  terminalReportScope,
} from '@mustard/shared';
import { invalid } from '../../errors.js';
import { FileAnswer } from '../../plugins/endpoints.js';
import { classTermKey } from '../students/class-learners.repository.js';
import { REPORT_CARDS_DRAWER } from './document-drawers.js';
import { imagesForPrint } from './pdf/images.js';
import type { DocumentDraw, KindRead, RenderContext, ReportKind } from './pipeline/kind.js';
import { type GradingLoad, gradingInputsOf } from './pipeline/loader.js';
import type { SourceName, SourceValues } from './pipeline/sources.js';
import { reportImages, withInlinePhotos } from './report-images.js';
import { buildReportModel, type ReportInputs, type ReportLearnerRow } from './report-model.js';

/*
 * The terminal report as a report kind (issue 25 point 4): one class and term (a stream, a
 * category, one learner), every source a card prints, and the build step: the card's inputs
 * from what was read, then the model (report-model.ts); its renderers: json, html, pdf.
 */

export const TERMINAL_REPORT_SOURCES = [
  'remarks',
  'subjectComments',
  'attendance',
  'gradeKey',
  'footers',
  'initials',
  'photos',
  'termDates',
  'fees',
  'badge',
] as const satisfies ReadonlyArray<SourceName>;
export type TerminalReportSource = (typeof TERMINAL_REPORT_SOURCES)[number];
export type TerminalReportRead = KindRead<TerminalReportQuery, TerminalReportSource>;

/** Which of the class's learners get a card: one learner, or the stream's and category's; all when null. */
function printedLearners(query: TerminalReportQuery, learners: ReadonlyArray<ReportLearnerRow & { studentcategory_id: string | null }>) {
  if (query.student_id) {
    if (!learners.some((learner) => learner.id === query.student_id)) throw invalid({ student_id: [REPORT_MESSAGES.learnerUnknown] });
    return new Set([query.student_id]);
  }
  let printed = query.stream
    ? learners.filter((learner) => (learner.stream ?? '').toLowerCase() === query.stream?.toLowerCase())
    : learners;
  if (query.studentcategory_id) printed = printed.filter((learner) => learner.studentcategory_id === query.studentcategory_id);
  if (printed.length === 0) throw invalid({ stream: [REPORT_MESSAGES.noLearners] });
  return query.stream || query.studentcategory_id ? new Set(printed.map((learner) => learner.id)) : null;
}

/**
 * The card's inputs of what was read (pure); refuses (422) what cannot make a report: a class
 * without learners, a learner not in it, a stream or category without learners, no marks.
 */
export function terminalReportInputs({
  query,
  load,
  sources,
}: {
  query: TerminalReportQuery;
  load: GradingLoad;
  sources: ReadonlyMap<string, Partial<SourceValues>>;
}): ReportInputs {
  const inputs = load.classes[0];
  // A kind that prints less (the mark sheet) names fewer sources: the card's parts it lacks are empty.
  const found: Partial<SourceValues> | undefined = inputs ? sources.get(classTermKey(inputs)) : undefined;
  if (!inputs || !found || inputs.learners.length === 0) throw invalid({ form: [REPORT_MESSAGES.noLearners] });
  const { settings, school } = load;
  const learners = inputs.learners.map((learner) => ({
    id: learner.id,
    studentid: learner.studentid,
    fullname: learner.fullname,
    gender: learner.gender,
    lin: learner.lin,
    form: query.form,
    stream: learner.stream,
    photo: found.photos?.urls.get(learner.id) ?? null,
    studentcategory_id: learner.studentcategory_id,
  }));
  const printed = printedLearners(query, learners);
  if (!inputs.marks.some((mark) => printed === null || printed.has(mark.student_id)))
    throw invalid({ marktype_id: [REPORT_MESSAGES.noMarks] });
  const gradeKeys = found.gradeKey ?? [];
  const footers = found.footers ?? [];
  const gradeKey =
    gradeKeys.find((row) => query.stream && (row.stream ?? '').toLowerCase() === query.stream.toLowerCase())?.details ??
    gradeKeys.find((row) => row.stream === null)?.details ??
    gradeKeys[0]?.details ??
    null;
  const grading = gradingInputsOf(load, inputs, {
    // Raw marks unless the layout chose weighted parts (and the person did not ask for raw ones).
    rawmark: query.rawmark || settings.layout.markValues !== 'weighted',
    ...(found.initials ? { initials: found.initials } : {}),
    ...(found.subjectComments ? { subjectComments: found.subjectComments } : {}),
  });
  return {
    school: {
      name: school.name,
      address: school.address,
      phone: school.phone,
      email: school.email,
      logo: found.badge ? endpointUrl(schoolLogoEndpoint.path, {}) : null,
      lines: settings.layout.headerLines,
    },
    report: {
      label: query.label ?? settings.layout.label,
      form: query.form,
      stream: query.stream ?? null,
      term: query.term,
      year: query.year,
      category: query.category,
      level: inputs.level,
      rawmark: grading.rawmark,
      separate: query.separate,
    },
    rules: settings.rules,
    layout: settings.layout,
    markTypes: inputs.markTypes,
    markTypeLabels: load.markTypeLabels,
    subjects: inputs.subjects,
    learners: learners.map(({ studentcategory_id: _category, ...learner }) => learner),
    printed,
    marks: inputs.marks,
    bands: inputs.bands,
    proportions: inputs.proportions,
    initials: found.initials ?? new Map(),
    attendance: found.attendance ?? new Map(),
    gradeKey,
    footers,
    photoFiles: found.photos?.files ?? new Map(),
    logoFile: found.badge ?? null,
    nextTerm: found.termDates ?? null,
    feesBalances: found.fees ?? new Map(),
    remarkTypes: found.remarks?.types ?? [],
    remarks: found.remarks?.written ?? new Map(),
    subjectComments: found.subjectComments ?? new Map(),
  };
}

/** The built terminal report: the model, and what its renderers need beside it (the layout, the stored files of photos and badge). */
export interface TerminalReport {
  model: ReportModel;
  layout: ReportLayout;
  photoFiles: ReadonlyMap<string, string>;
  logoFile: string | null | undefined;
}

/** A part of a file name: letters, digits, dashes and underscores only (a class "S.5" is "S_5"). */
const namePart = (value: string) => value.replace(/[^A-Za-z0-9_-]+/g, '_');

/** `report-<class>-<stream>-<year>-<term>.pdf` (spec §9); a whole class of several streams is "all". */
export function reportFileName(report: { form: string; stream: string | null; year: number; term: string }): string {
  return `report-${namePart(report.form)}-${namePart(report.stream ?? 'all')}-${report.year}-${report.term}.pdf`;
}

/** Photos and badge shrunk to what a card prints (a stored photo is larger than its 2 cm frame). */
const printImages = async (built: TerminalReport, { app, tenantId }: Pick<RenderContext<unknown>, 'app' | 'tenantId'>) =>
  imagesForPrint(await reportImages(app.config.dataDir, tenantId, built.model, built.photoFiles, built.logoFile));

/**
 * The report cards' renderers, for every kind that prints the card (the terminal report, the
 * cumulative report): the model as JSON, the preview, else the PDF, drawn by the one document
 * pool with its progress kept in the database (any server answers for it).
 */
export const REPORT_CARD_RENDERERS = {
  json: async (built: TerminalReport) => built.model,
  html: async (built: TerminalReport, context: Pick<RenderContext<unknown>, 'app' | 'tenantId'>) => ({
    html: renderReportHtml(withInlinePhotos(built.model, await printImages(built, context)), built.layout),
  }),
  pdf: async (built: TerminalReport, context: RenderContext<{ progress?: string | undefined }>, draw: DocumentDraw) => {
    const { model, layout } = built;
    const images = await printImages(built, context);
    const { app, tenantId, userId, query } = context;
    const progress = query.progress
      ? await app.documents.progress.start({ tenantId, userId, token: query.progress }, model.learners.length)
      : null;
    const pdf = await draw(REPORT_CARDS_DRAWER, { model, layout, images }, progress?.update);
    await progress?.finish();
    return new FileAnswer(reportFileName(model.report), 'application/pdf', pdf);
  },
};

/**
 * The terminal report kind: one class and term, every source a card prints, the model built from
 * them; the card's renderers: the model as JSON (`json=1`), the preview (`html=1`), else the PDF.
 */
export const terminalReportKind = {
  name: 'terminal-report',
  curriculum: 'old',
  endpoint: terminalReportEndpoint,
  scope: terminalReportScope,
  sources: TERMINAL_REPORT_SOURCES,
  build(read: TerminalReportRead): TerminalReport {
    const inputs = terminalReportInputs(read);
    return { model: buildReportModel(inputs), layout: inputs.layout, photoFiles: inputs.photoFiles, logoFile: inputs.logoFile };
  },
  output: (query) => (query.json ? 'json' : query.html ? 'html' : 'pdf'),
  render: REPORT_CARD_RENDERERS,
} satisfies ReportKind<typeof terminalReportEndpoint, TerminalReport, TerminalReportSource>;
