import {
  classPositions,
  displayScore,
  type Exact,
  endpointUrl,
  exact,
  gradeNcLearner,
  type NcLearnerCard,
  type NcReportModel,
  type NcSubjectRow,
  type NcTerminalReportQuery,
  ncReportFileName,
  ncTerminalReportEndpoint,
  REPORT_MESSAGES,
  REPORT_WORDS,
  type ReportLayout,
  type ReportScope,
  renderNcReportHtml,
  schoolLogoEndpoint,
  toNumber,
} from '@mustard/shared';
import { invalid } from '../../../errors.js';
import { FileAnswer } from '../../../plugins/endpoints.js';
import { classTermKey } from '../../students/class-learners.repository.js';
import { NC_REPORT_CARDS_DRAWER } from '../document-drawers.js';
import { imagesForPrint } from '../pdf/images.js';
import type { DocumentDraw, KindRead, RenderContext } from '../pipeline/kind.js';
import type { SourceName } from '../pipeline/sources.js';
import { reportImages } from '../report-images.js';

/*
 * The new-curriculum report card as the pipeline's second report kind (issue 27 point 2): one
 * class and term (a stream, one learner), the summative mark type, the new curriculum's inputs
 * (competencies, AOI scores, exam, projects: the `newCurriculum` source, which refuses an
 * old-curriculum class) and what the card prints beside them; the build step grades each
 * learner with the shared new-curriculum grader (gradeNcLearner, the school's rules) and
 * rounds for display only. Renderers: json (the model), html (the preview), pdf (the one
 * document pool, NC_REPORT_CARDS_DRAWER).
 */

export const NC_REPORT_SOURCES = [
  'newCurriculum',
  'ncCard',
  'remarks',
  'subjectComments',
  'attendance',
  'initials',
  'photos',
  'termDates',
  'fees',
  'badge',
] as const satisfies ReadonlyArray<SourceName>;
export type NcReportSource = (typeof NC_REPORT_SOURCES)[number];
export type NcReportRead = KindRead<NcTerminalReportQuery, NcReportSource>;

/** The card's scope: one class and term (a stream, one learner), the summative mark type, the exam's comments and remarks. */
export const ncReportScope = (query: NcTerminalReportQuery): ReportScope => ({
  classes: [query.form],
  streams: query.stream ? [query.stream] : [],
  terms: [{ term: query.term, year: query.year }],
  markTypeIds: [query.marktype_id],
  category: 'exam',
  learners: query.student_id ? [query.student_id] : [],
  studentCategory: null,
});

const TEN = exact(10);
/** A part out of 20, 80 or 100 as printed: cut to one decimal, so the printed total never shows a grade's bound it did not reach. */
const cut = (value: Exact | null) => (value === null ? null : toNumber(value.mul(TEN).floor().div(TEN)));

/** Whether a class is the one whose cards may carry the S4 certificate preview. */
const isS4 = (form: string) => /^s\.?\s*4$/i.test(form.trim()) || /^senior\s*4$/i.test(form.trim());

/** The built card: the model, and what the renderers need beside it. */
export interface NcReport {
  model: NcReportModel;
  layout: ReportLayout;
  photoFiles: ReadonlyMap<string, string>;
  logoFile: string | null;
}

/** The keys' ranges: each band from its bound to just below the one above it (the best to the scale's top). */
function keysOf(
  rules: { identifiers: ReadonlyArray<{ label: string; atLeast: number; descriptor: string }> },
  grades: NcReportModel['keys']['grades'],
) {
  return {
    identifiers: rules.identifiers.map((band, index) => ({
      label: band.label,
      from: band.atLeast,
      to: index === 0 ? 3 : Math.round(((rules.identifiers[index - 1]?.atLeast ?? 3) - 0.01) * 100) / 100,
      descriptor: band.descriptor,
    })),
    grades,
  };
}

/** The model of what was read (pure); refuses (422) a class without learners and a learner not in it. */
export function buildNcReport({ query, load, sources }: NcReportRead): NcReport {
  const inputs = load.classes[0];
  const found = inputs ? sources.get(classTermKey(inputs)) : undefined;
  if (!inputs || !found || inputs.learners.length === 0) throw invalid({ form: [REPORT_MESSAGES.noLearners] });
  if (query.student_id && !inputs.learners.some((learner) => learner.id === query.student_id))
    throw invalid({ student_id: [REPORT_MESSAGES.learnerUnknown] });
  const printed = inputs.learners.filter((learner) =>
    query.student_id
      ? learner.id === query.student_id
      : !query.stream || (learner.stream ?? '').toLowerCase() === query.stream.toLowerCase(),
  );
  if (printed.length === 0) throw invalid({ stream: [REPORT_MESSAGES.noLearners] });
  const { settings, school } = load;
  const rules = settings.rules.newCurriculum;
  const layout = settings.layout;
  const nc = found.newCurriculum;
  const options = { noFormative: query.noformative, certificate: rules.certificate && isS4(query.form) };
  const gradeKey = rules.grades.map((band, index) => ({
    grade: band.grade,
    from: band.atLeast,
    to: index === 0 ? 100 : (rules.grades[index - 1]?.atLeast ?? 100) - 1,
    descriptor: band.descriptor,
  }));
  const remarkTypes = found.remarks.types.length
    ? found.remarks.types.map((type) => ({ remarktype_id: type.id as string | null, label: type.label }))
    : [
        { remarktype_id: null, label: REPORT_WORDS.classTeacher },
        { remarktype_id: null, label: REPORT_WORDS.headTeacher },
      ];

  // Positions, where the school prints them: the whole class ranked by the overall total (a
  // learner without one is unranked), so one learner's card gives the same position as the class's.
  const gradedOf = new Map(
    inputs.learners.map((learner) => [learner.id, gradeNcLearner(nc.learners.get(learner.id) ?? [], rules, options)]),
  );
  const positions = rules.positions
    ? classPositions(
        inputs.learners.map((learner) => {
          const total = gradedOf.get(learner.id)?.overall.total ?? null;
          return { id: learner.id, stream: learner.stream ?? '', complete: total !== null, score: total, total };
        }),
        { by: 'total', order: 'higher', tieByTotal: false, incomplete: 'unranked' },
      )
    : null;
  const learners: NcLearnerCard[] = printed.map((learner) => {
    const own = nc.learners.get(learner.id) ?? [];
    const graded = gradedOf.get(learner.id) ?? gradeNcLearner(own, rules, options);
    const position = positions?.get(learner.id)?.class;
    const shown = new Set(graded.subjects.map((subject) => subject.subject_id));
    const subjects: NcSubjectRow[] = graded.subjects.map((subject) => {
      const at = `${learner.id}|${subject.subject_id}`;
      return {
        subject_id: subject.subject_id,
        subject: subject.subject,
        topics: subject.topics.map((topic) => ({
          topic_id: topic.topic_id,
          title: topic.title,
          score: displayScore(topic.score),
          identifier: topic.identifier?.label ?? null,
          explain: { score: topic.explain },
        })),
        score: displayScore(subject.score),
        identifier: subject.identifier?.label ?? null,
        formative: cut(subject.formative),
        summative: cut(subject.summative),
        total: cut(subject.total),
        grade: subject.grade?.grade ?? null,
        descriptor: subject.grade?.descriptor ?? null,
        comment: query.comments ? (found.subjectComments.get(at) ?? '') : '',
        skills: query.comments ? (found.ncCard.skills.get(at) ?? '') : '',
        initials:
          found.initials.get(`${subject.subject_id}|${learner.stream ?? ''}`) ?? found.initials.get(`${subject.subject_id}|`) ?? null,
        explain: subject.explain,
      };
    });
    const written = found.remarks.written.get(learner.id);
    return {
      id: learner.id,
      studentid: learner.studentid,
      fullname: learner.fullname,
      lin: learner.lin,
      form: query.form,
      stream: learner.stream,
      photo: layout.showPhoto ? (found.photos.urls.get(learner.id) ?? null) : null,
      attendance: found.attendance.get(learner.id) ?? null,
      subjects,
      unscored: own.filter((subject) => !shown.has(subject.subject_id)).map((subject) => subject.subject),
      overall: {
        score: displayScore(graded.overall.score),
        identifier: graded.overall.identifier?.label ?? null,
        total: cut(graded.overall.total),
        grade: graded.overall.grade?.grade ?? null,
        explain: graded.overall.explain,
      },
      project: found.ncCard.projects.map((project) => {
        const own = project.scores.get(learner.id);
        return { title: project.title, subject: project.subject, score: own?.score ?? null, max: project.max, comment: own?.comment ?? '' };
      }),
      remarks: remarkTypes.map((type) => ({
        ...type,
        text: query.comments && type.remarktype_id ? (written?.get(type.remarktype_id) ?? '') : '',
      })),
      certificate: graded.certificate,
      position: position ? (position.value ? { ...position.value, explain: position.explain } : null) : undefined,
      feesBalance: found.fees.get(learner.id) ?? null,
    };
  });

  const model: NcReportModel = {
    school: {
      name: school.name,
      address: school.address,
      phone: school.phone,
      email: school.email,
      logo: found.badge ? endpointUrl(schoolLogoEndpoint.path, {}) : null,
      lines: layout.headerLines,
    },
    report: {
      label: query.label ?? layout.label,
      form: query.form,
      stream: query.stream ?? null,
      term: query.term,
      year: query.year,
      exam: nc.exam?.label ?? load.markTypeLabels.get(query.marktype_id) ?? '',
      summary: query.summary,
      topics: query.topics,
      noformative: query.noformative,
      comments: query.comments,
    },
    keys: keysOf(rules, gradeKey),
    nextTerm: found.termDates ?? null,
    signatures: [REPORT_WORDS.classTeacherSigns, REPORT_WORDS.headTeacherSigns],
    learners,
  };
  return { model, layout, photoFiles: found.photos.files, logoFile: found.badge ?? null };
}

/** The card's pictures (badge, photos) shrunk to what it prints. */
async function printImages(built: NcReport, { app, tenantId }: RenderContext<NcTerminalReportQuery>) {
  const asReport = { school: built.model.school, learners: built.model.learners } as unknown as Parameters<typeof reportImages>[2];
  return imagesForPrint(await reportImages(app.config.dataDir, tenantId, asReport, built.photoFiles, built.logoFile));
}

/** The model with its pictures inlined (the preview's frame is sandboxed: an address would need the session). */
function inlined(model: NcReportModel, images: ReadonlyMap<string, Uint8Array>): NcReportModel {
  const data = (url: string | null) => {
    const bytes = url ? images.get(url) : undefined;
    return bytes ? `data:image/jpeg;base64,${Buffer.from(bytes).toString('base64')}` : null;
  };
  return {
    ...model,
    school: { ...model.school, logo: data(model.school.logo) },
    learners: model.learners.map((learner) => ({ ...learner, photo: data(learner.photo) })),
  };
}

/**
 * The new-curriculum card kind: `json=1` the model, `html=1` the preview, otherwise (`pdf=1`)
 * the PDF drawn by the one document pool with its progress kept (any server answers for it).
 */
export const ncTerminalReportKind = {
  name: 'nc-terminal-report',
  curriculum: 'new' as const,
  endpoint: ncTerminalReportEndpoint,
  scope: ncReportScope,
  sources: NC_REPORT_SOURCES,
  build: buildNcReport,
  output: (query: NcTerminalReportQuery) => (query.json ? ('json' as const) : query.html ? ('html' as const) : ('pdf' as const)),
  render: {
    json: async (built: NcReport) => built.model,
    html: async (built: NcReport, context: RenderContext<NcTerminalReportQuery>) => ({
      html: renderNcReportHtml(inlined(built.model, await printImages(built, context)), built.layout),
    }),
    pdf: async (built: NcReport, context: RenderContext<NcTerminalReportQuery>, draw: DocumentDraw) => {
      const { model, layout } = built;
      const images = await printImages(built, context);
      const { app, tenantId, userId, query } = context;
      const progress = query.progress
        ? await app.documents.progress.start({ tenantId, userId, token: query.progress }, model.learners.length)
        : null;
      const pdf = await draw(NC_REPORT_CARDS_DRAWER, { model, layout, images }, progress?.update);
      await progress?.finish();
      return new FileAnswer(ncReportFileName(model.report), 'application/pdf', pdf);
    },
  },
};
