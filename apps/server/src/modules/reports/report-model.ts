import {
  exact,
  exactSum,
  explanation,
  type GradeBand,
  type GradedClass,
  type GradingInputs,
  type GradingMark,
  type GradingMarkType,
  type GradingRules,
  type GradingSubject,
  gradeClass,
  gradeSetProblems,
  type LearnerResult,
  printedNumber,
  REPORT_WORDS,
  type ReportLayout,
  type ReportLearner,
  type ReportModel,
  type ReportSubject,
  reportKeyLines,
  toNumber,
} from '@mustard/shared';

/*
 * The report model's pure core (issue 15 point 3): the rows a class's report reads, in; the
 * model every renderer draws, out. No database and no clock, so every rule is a unit test; the
 * repository (report-data.repository.ts) reads the rows in a handful of queries.
 *
 * Grading is the shared grader's (packages/shared/src/reports/graded-results.ts: one grader
 * for the cards, the mark sheet and the learner's page); this file adds what only a card has:
 * which learners print, remarks, footers, attendance, warnings, and the numbers as printed.
 */

export type ReportMarkType = GradingMarkType;
export type ReportSubjectRow = GradingSubject;

export interface ReportLearnerRow {
  id: string;
  studentid: string;
  fullname: string;
  gender: 'F' | 'M' | null;
  /** The learner's LIN, when the school has it. */
  lin?: string | null;
  form: string;
  stream: string | null;
  photo: string | null;
}

export type ReportMarkRow = GradingMark;

export interface ReportInputs {
  school: ReportModel['school'];
  report: ReportModel['report'];
  rules: GradingRules;
  layout: ReportLayout;
  /** The mark types the report covers, in the school's order. */
  markTypes: ReportMarkType[];
  /** Every mark type label of the school by id (to name what proportions weigh beyond the report). */
  markTypeLabels: ReadonlyMap<string, string>;
  /** The school's subjects the class has marks in, in the school's order. */
  subjects: ReportSubjectRow[];
  /** Every learner of the class (all streams: positions are in the class). */
  learners: ReportLearnerRow[];
  /** Which learners get a card (a stream, a category, one learner); all when null. */
  printed: ReadonlySet<string> | null;
  marks: ReportMarkRow[];
  /** Each subject's grade bands for the class, term and year. */
  bands: ReadonlyMap<string, GradeBand[]>;
  /** Each subject's proportions by mark type id (percent). */
  proportions: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** Initials of each subject's teacher by `${subject_id}|${stream}` ('' for a whole-class teacher). */
  initials: ReadonlyMap<string, string>;
  attendance: ReadonlyMap<string, { days: number; total: number }>;
  gradeKey: string | null;
  footers: Array<{ title: string; text: string }>;
  /** The remark types the report prints, in the school's order (a child after its parent). */
  remarkTypes: Array<{ id: string; label: string }>;
  /** Each learner's remarks by remark type id. */
  remarks: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** Each subject comment by `${student_id}|${subject_id}`. */
  subjectComments: ReadonlyMap<string, string>;
  /** Each photo URL of the learners with its stored file name: for the renderers, not the model. */
  photoFiles: ReadonlyMap<string, string>;
  /** The stored file of the school's badge (model.school.logo is its URL): for the renderers, not the model. */
  logoFile?: string | null;
  /** The next term's dates by the school's calendar; unknown when absent. */
  nextTerm?: ReportModel['nextTerm'];
  /** Each learner's fees balance (exact decimal text) by id; a learner without a statement is absent. */
  feesBalances?: ReadonlyMap<string, string>;
}

/**
 * A number of the model cut to 2 decimals (printedNumber): 318.20000000000005 is 318.2 to every
 * reader, and a total of 59.996 prints 59.99 beside its C6, never 60. The engine computes and
 * ranks exactly; only what the model hands out is cut.
 */
const round2 = <T extends number | null>(value: T): T => (value === null ? value : (printedNumber(value) as T));

/** A subject as the model hands it out: every number cut to 2 decimals. */
export function roundedSubject(subject: ReportSubject): ReportSubject {
  return {
    ...subject,
    marks: Object.fromEntries(
      Object.entries(subject.marks).map(([label, mark]) => [label, typeof mark === 'number' ? round2(mark) : mark]),
    ),
    ...(subject.papers ? { papers: subject.papers.map((paper) => ({ ...paper, mark: round2(paper.mark) })) } : {}),
    total: round2(subject.total),
  };
}

/**
 * A learner's graded result as every screen shows it (the card, the mark sheet, the comments
 * screens): subjects, total, average, aggregate, division and points, numbers cut as printed.
 */
export function shownResult(result: LearnerResult) {
  return {
    subjects: result.subjects.map((subject) => roundedSubject(subject.row)),
    total: round2(toNumber(result.total.value)),
    average: round2(toNumber(result.average.value)),
    aggregate: result.aggregate?.value ?? null,
    division: result.division?.value ?? null,
    points: result.points?.value ?? null,
  };
}

/** How a class is graded (the loader decides it per class; here for the seeds and defaults that knew it here). */
export { reportLevel } from './pipeline/loader.js';

/** What the shared grader needs of the report's inputs. */
export function gradingInputs(inputs: ReportInputs): GradingInputs {
  return {
    level: inputs.report.level,
    rawmark: inputs.report.rawmark,
    rules: inputs.rules,
    markTypes: inputs.markTypes,
    markTypeLabels: inputs.markTypeLabels,
    subjects: inputs.subjects,
    bands: inputs.bands,
    proportions: inputs.proportions,
    initials: inputs.initials,
    subjectComments: inputs.subjectComments,
  };
}

/** Without remark types the card still has the class and head teacher's lines, for the pen. */
const PEN_REMARKS = [REPORT_WORDS.classTeacher, REPORT_WORDS.headTeacher];

/** A learner's remarks in the order of the report's remark types, empty where none is written. */
function remarksOf(learnerId: string, inputs: ReportInputs): ReportLearner['remarks'] {
  if (inputs.remarkTypes.length === 0) return PEN_REMARKS.map((label) => ({ remarktype_id: null, label, text: '' }));
  const written = inputs.remarks.get(learnerId);
  return inputs.remarkTypes.map((type) => ({ remarktype_id: type.id, label: type.label, text: written?.get(type.id) ?? '' }));
}

/** Problems a head teacher must see before printing: grade sets missing or with gaps. */
function gradeSetWarnings(inputs: ReportInputs): ReportModel['warnings'] {
  const warnings: ReportModel['warnings'] = [];
  for (const subject of inputs.subjects) {
    const bands = inputs.bands.get(subject.id) ?? [];
    if (bands.length === 0) {
      warnings.push({ subject: subject.name, explain: explanation('gradeSet.none', { subject: subject.name }) });
      continue;
    }
    for (const problem of gradeSetProblems(bands)) {
      if (problem.kind === 'gap') {
        warnings.push({
          subject: subject.name,
          explain: explanation('gradeSet.gap', { subject: subject.name, from: problem.params.from ?? null, to: problem.params.to ?? null }),
        });
      }
    }
  }
  return warnings;
}

/** Proportions that do not add up to 100, named once per subject (the explanation of every total says it too). */
function proportionWarnings(inputs: ReportInputs): ReportModel['warnings'] {
  const warnings: ReportModel['warnings'] = [];
  for (const subject of inputs.subjects) {
    const weights = inputs.proportions.get(subject.id);
    if (!weights || weights.size === 0) continue;
    const sum = exactSum([...weights.values()].map((weight) => exact(weight)));
    if (!sum.equals(100))
      warnings.push({ subject: subject.name, explain: explanation('subjectTotal.proportionsNot100', { sum: toNumber(sum) }) });
  }
  return warnings;
}

/**
 * The mark type columns' heads: the label over raw marks; over weighted parts the label with
 * the proportion every subject of the card gives it ("BOT 20%"), or "BOT weighted" where the
 * subjects differ.
 */
function markHeadings(inputs: ReportInputs): ReportModel['markTypes'] {
  return inputs.markTypes.map((type) => {
    if (inputs.report.rawmark) return { id: type.id, label: type.label, heading: type.label };
    const weights = new Set(inputs.subjects.map((subject) => inputs.proportions.get(subject.id)?.get(type.id) ?? null));
    const [only] = [...weights];
    const heading =
      weights.size === 1 && only !== null && only !== undefined
        ? `${type.label} ${printedNumber(only)}%`
        : [...weights].some((weight) => weight !== null)
          ? `${type.label} ${REPORT_WORDS.weighted}`
          : type.label;
    return { id: type.id, label: type.label, heading };
  });
}

/** Whether the school's own footers already say it (a footer titled so): the card then prints its own line once, the school's. */
const footerSays = (footers: ReportInputs['footers'], words: RegExp) => footers.some((footer) => words.test(footer.title));

/** The card's signature lines: the class teacher's and the head teacher's, unless the school's footers carry them. */
function signatureLines(footers: ReportInputs['footers']): string[] {
  return [
    ...(footerSays(footers, /class\s*teacher.*sign/i) ? [] : [REPORT_WORDS.classTeacherSigns]),
    ...(footerSays(footers, /head\s*teacher.*sign/i) ? [] : [REPORT_WORDS.headTeacherSigns]),
  ];
}

/**
 * The report model of the inputs' class: the class graded (gradeClass), the printed learners
 * decorated as a card prints them. A kind that reads more of the graded class than the card
 * prints (the cumulative report's grade points) grades it once and hands it in.
 */
export function buildReportModel(
  inputs: ReportInputs,
  graded: GradedClass<ReportLearnerRow> = gradeClass(inputs.learners, inputs.marks, gradingInputs(inputs)),
): ReportModel {
  const { results: computed, positions, means } = graded;

  const learners: ReportLearner[] = computed
    .filter((each) => inputs.printed === null || inputs.printed.has(each.learner.id))
    .map((each) => {
      const position = positions.get(each.learner.id);
      const unranked = explanation('position.unranked');
      return {
        ...each.learner,
        lin: each.learner.lin ?? null,
        photo: inputs.layout.showPhoto ? each.learner.photo : null,
        ...shownResult(each),
        position: {
          stream: position?.stream.value?.rank ?? null,
          class: position?.class.value?.rank ?? null,
          of: graded.ranked.class,
          streamOf: graded.ranked.streams.get(each.learner.stream ?? '') ?? 0,
        },
        attendance: inputs.attendance.get(each.learner.id) ?? null,
        remarks: remarksOf(each.learner.id, inputs),
        footers: inputs.footers,
        feesBalance: inputs.feesBalances?.get(each.learner.id) ?? null,
        explain: {
          total: each.total.explain,
          average: each.average.explain,
          aggregate: each.aggregate?.explain ?? null,
          division: each.division?.explain ?? null,
          points: each.points?.explain ?? null,
          position: { stream: position?.stream.explain ?? unranked, class: position?.class.explain ?? unranked },
        },
      };
    });

  const markTypes = markHeadings(inputs);
  return {
    school: inputs.school,
    report: inputs.report,
    markTypes,
    warnings: [...proportionWarnings(inputs), ...gradeSetWarnings(inputs)],
    gradeKey: inputs.gradeKey,
    key: reportKeyLines(inputs.rules, inputs.report.level, {
      headings: markTypes.length > 1 || inputs.report.separate ? markTypes.map((type) => type.heading) : [],
      raw: inputs.report.rawmark,
      total: inputs.report.combined,
    }),
    streams: new Set(inputs.learners.map((learner) => (learner.stream ?? '').toLowerCase())).size,
    // The school's own "Next term begins" footer is the one printed.
    nextTerm: footerSays(inputs.footers, /next\s*term\s*(begins|starts|opens|dates)/i) ? null : (inputs.nextTerm ?? null),
    signatures: signatureLines(inputs.footers),
    means: {
      class: round2(means.class.value),
      streams: Object.fromEntries([...means.streams].map(([stream, mean]) => [stream, round2(mean.value)])),
    },
    learners,
  };
}
