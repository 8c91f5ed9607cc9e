import {
  ABSENT,
  type AlevelPaper,
  alevelResult,
  classMeans,
  classPositions,
  type Explained,
  type Explanation,
  explanation,
  type GradeBand,
  type GradedSubject,
  type GradingRules,
  gradeOfTotal,
  gradeSetProblems,
  type MarkValue,
  olevelResult,
  type Proportions,
  primaryResult,
  REPORT_WORDS,
  type ReportLayout,
  type ReportLearner,
  type ReportLevel,
  type ReportModel,
  type ReportSubject,
  type ReportType,
  SUBJECT_CATEGORIES,
  type SubjectCategory,
  subjectTotal,
} from '@mustard/shared';

/*
 * The report model's pure core (issue 15 point 3): the rows a class's report reads, in; the
 * model every renderer draws, out. No database and no clock, so every rule is a unit test; the
 * repository (report-data.repository.ts) reads the rows in a handful of queries.
 *
 * Rules of this report beyond the engine's (docs/ARCHITECTURE.md "Report cards"):
 * - proportions weigh a subject's total only when the report covers every mark type they
 *   weigh (an end-of-term report); a mid-term report of BOT and MOT shows those marks and their
 *   average, and says why, rather than totals out of 50 or a total scaled in silence;
 * - a subject written in several papers totals the mean of its papers' totals; at A level each
 *   paper is graded and the subject's letter follows from the paper grades;
 * - a learner's total is the sum of their subject totals and the average their mean; positions
 *   rank the average (learners sit different numbers of subjects at A level and in electives),
 *   in the whole class even when one stream is printed.
 */

export interface ReportMarkType {
  id: string;
  label: string;
  /** What a raw mark is out of (mark type setting, default 100). */
  outof: number;
}

export interface ReportSubjectRow {
  id: string;
  name: string;
  code: string | null;
  category: string;
}

export interface ReportLearnerRow {
  id: string;
  studentid: string;
  fullname: string;
  gender: 'F' | 'M' | null;
  form: string;
  stream: string | null;
  photo: string | null;
}

export interface ReportMarkRow {
  student_id: string;
  subject_id: string;
  marktype_id: string;
  paper: string;
  mark: number | null;
  absent: boolean;
}

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
}

const PAPER_ORDER = ['I', 'II', 'III', 'IV', 'V', 'VI'];

/**
 * A number of the model rounded to 2 decimals: 318.20000000000005 is 318.2 to every reader. The
 * engine computes (and ranks) unrounded; only what the model hands out is rounded.
 */
const round2 = <T extends number | null>(value: T): T => (value === null ? value : ((Math.round(value * 100) / 100) as T));

/** A subject as the model hands it out: every number rounded. */
function roundedSubject(subject: ReportSubject): ReportSubject {
  return {
    ...subject,
    marks: Object.fromEntries(
      Object.entries(subject.marks).map(([label, mark]) => [label, typeof mark === 'number' ? round2(mark) : mark]),
    ),
    ...(subject.papers ? { papers: subject.papers.map((paper) => ({ ...paper, mark: round2(paper.mark) })) } : {}),
    total: round2(subject.total),
  };
}

const isCategory = (value: string): value is SubjectCategory => (SUBJECT_CATEGORIES as readonly string[]).includes(value);

/** How a class is graded: PLE in a primary school, UACE in S5 and S6, UCE in the rest of secondary. */
export function reportLevel(schooltype: string, category: ReportType, perPaper: boolean): ReportLevel {
  if (category === 'pre-primary') return 'plain';
  if (schooltype === 'primary') return 'primary';
  return perPaper ? 'alevel' : 'olevel';
}

/** Marks of one learner, by subject, then paper, then mark type id. */
function indexMarks(marks: ReadonlyArray<ReportMarkRow>): Map<string, Map<string, Map<string, Map<string, ReportMarkRow>>>> {
  const index = new Map<string, Map<string, Map<string, Map<string, ReportMarkRow>>>>();
  /** The map under `key`, made on first use. */
  const child = <V>(parent: Map<string, Map<string, V>>, key: string): Map<string, V> => {
    const found = parent.get(key);
    if (found) return found;
    const made = new Map<string, V>();
    parent.set(key, made);
    return made;
  };
  for (const mark of marks) {
    const byType = child(child(child(index, mark.student_id), mark.subject_id), mark.paper);
    byType.set(mark.marktype_id, mark);
  }
  return index;
}

const markValue = (mark: ReportMarkRow | undefined): MarkValue => (mark === undefined ? null : mark.absent ? ABSENT : mark.mark);

/**
 * The proportions a subject's total uses in this report, by mark type label: all of them when the
 * report covers every mark type they weigh, none otherwise (with the explanation why).
 */
function proportionsFor(
  subjectId: string,
  inputs: ReportInputs,
): { proportions: Proportions; notCovered: string[]; labels: ReadonlyMap<string, string> } {
  const labels = new Map(inputs.markTypes.map((type) => [type.id, type.label]));
  const weights = inputs.proportions.get(subjectId);
  if (!weights || weights.size === 0) return { proportions: {}, notCovered: [], labels };
  const notCovered = [...weights.keys()].filter((id) => !labels.has(id));
  if (notCovered.length > 0) return { proportions: {}, notCovered, labels };
  return { proportions: Object.fromEntries([...weights].map(([id, percent]) => [labels.get(id) as string, percent])), notCovered, labels };
}

interface PaperResult {
  paper: string;
  total: Explained<number | null>;
  grade: string | null;
  value: number | null;
  gradeExplain: Explanation;
  /** The mark shown per mark type label. */
  shown: Record<string, number | typeof ABSENT | null>;
}

/** One paper of a subject: its total from the report's mark types, and its grade. */
function paperResult(
  paper: string,
  byType: ReadonlyMap<string, ReportMarkRow> | undefined,
  subject: ReportSubjectRow,
  inputs: ReportInputs,
  weighting: ReturnType<typeof proportionsFor>,
  otherTypes: string[],
): PaperResult {
  const marks = inputs.markTypes.map((type) => ({ markType: type.label, value: markValue(byType?.get(type.id)), maximum: type.outof }));
  const total = subjectTotal(marks, weighting.proportions);
  const explain =
    otherTypes.length > 0
      ? {
          ...total.explain,
          parts: [...(total.explain.parts ?? []), explanation('subjectTotal.proportionsOfOtherExams', { markTypes: otherTypes })],
        }
      : total.explain;
  const grade = gradeOfTotal(total.value.total, inputs.bands.get(subject.id) ?? [], inputs.rules);
  const shown: PaperResult['shown'] = {};
  marks.forEach((mark, index) => {
    const percent = total.value.marks[index]?.percent ?? null;
    if (mark.value === ABSENT) shown[mark.markType] = ABSENT;
    else if (mark.value === null || percent === null) shown[mark.markType] = null;
    else if (inputs.report.rawmark) shown[mark.markType] = mark.value;
    else {
      const proportion = weighting.proportions[mark.markType];
      shown[mark.markType] = proportion === undefined ? percent : (percent * proportion) / 100;
    }
  });
  return {
    paper,
    total: { value: total.value.total, explain },
    grade: grade.value.grade,
    value: grade.value.value,
    gradeExplain: grade.explain,
    shown,
  };
}

interface SubjectComputed {
  row: ReportSubject;
  graded: GradedSubject;
  papers: AlevelPaper[];
}

/** A learner's result in one subject they have marks in. */
function subjectResult(
  learner: ReportLearnerRow,
  subject: ReportSubjectRow,
  byPaper: ReadonlyMap<string, ReadonlyMap<string, ReportMarkRow>>,
  inputs: ReportInputs,
): SubjectComputed {
  const weighting = proportionsFor(subject.id, inputs);
  const otherTypes = weighting.notCovered.map((id) => inputs.markTypeLabels.get(id) ?? id);
  const paperNames = [...byPaper.keys()].sort((a, b) => PAPER_ORDER.indexOf(a) - PAPER_ORDER.indexOf(b));
  const papers = paperNames.map((paper) => paperResult(paper, byPaper.get(paper), subject, inputs, weighting, otherTypes));
  const category = isCategory(subject.category) ? subject.category : null;
  const initials = inputs.initials.get(`${subject.id}|${learner.stream ?? ''}`) ?? inputs.initials.get(`${subject.id}|`) ?? null;
  const single = papers.length === 1 ? papers[0] : undefined;

  let total: Explained<number | null>;
  let grade: string | null;
  let value: number | null;
  let gradeExplain: Explanation;
  let shown: ReportSubject['marks'];
  if (single) {
    ({ total, grade, value, gradeExplain, shown } = single);
  } else {
    const totals = papers.map((paper) => paper.total.value);
    const complete = totals.every((each): each is number => each !== null);
    const mean = complete ? totals.reduce((sum, each) => sum + each, 0) / totals.length : null;
    total = {
      value: mean,
      explain:
        mean === null
          ? explanation(
              'subjectTotal.incomplete',
              { markTypes: papers.filter((paper) => paper.total.value === null).map((paper) => `Paper ${paper.paper}`) },
              papers.map((paper) => paper.total.explain),
            )
          : explanation(
              'subjectTotal.papers',
              { total: mean, count: totals.length, marks: totals as number[] },
              papers.map((paper) => paper.total.explain),
            ),
    };
    const graded = gradeOfTotal(mean, inputs.bands.get(subject.id) ?? [], inputs.rules);
    grade = graded.value.grade;
    value = graded.value.value;
    gradeExplain = graded.explain;
    shown = {};
    for (const type of inputs.markTypes) {
      const values = papers.map((paper) => paper.shown[type.label]);
      const numbers = values.filter((each): each is number => typeof each === 'number');
      shown[type.label] =
        numbers.length === values.length && numbers.length > 0
          ? numbers.reduce((a, b) => a + b, 0) / numbers.length
          : values.includes(ABSENT)
            ? ABSENT
            : null;
    }
  }
  const absentEverywhere = papers.length > 0 && papers.every((paper) => Object.values(paper.shown).every((mark) => mark === ABSENT));
  return {
    row: {
      subject_id: subject.id,
      subject: subject.name,
      code: subject.code,
      marks: shown,
      ...(inputs.report.level === 'alevel'
        ? { papers: papers.map((paper) => ({ paper: paper.paper, mark: paper.total.value, grade: paper.grade })) }
        : {}),
      total: total.value,
      grade,
      points: null,
      comment: inputs.subjectComments.get(`${learner.id}|${subject.id}`) ?? '',
      initials,
      explain: { total: total.explain, grade: gradeExplain },
    },
    graded: { subject: subject.name, category, value: value ?? (absentEverywhere ? ABSENT : null) },
    papers: papers.map((paper) => ({
      paper: paper.paper,
      value: paper.value ?? (Object.values(paper.shown).every((mark) => mark === ABSENT) ? ABSENT : null),
    })),
  };
}

interface LearnerComputed {
  learner: ReportLearnerRow;
  subjects: SubjectComputed[];
  total: Explained<number | null>;
  average: Explained<number | null>;
  aggregate: Explained<number | null> | null;
  division: Explained<string | null> | null;
  points: Explained<number | null> | null;
}

function learnerResult(learner: ReportLearnerRow, marks: ReturnType<typeof indexMarks>, inputs: ReportInputs): LearnerComputed {
  const own = marks.get(learner.id);
  const subjects = inputs.subjects.flatMap((subject) => {
    const byPaper = own?.get(subject.id);
    return byPaper ? [subjectResult(learner, subject, byPaper, inputs)] : [];
  });
  const totals = subjects.map((subject) => subject.row.total).filter((each): each is number => each !== null);
  const sum = totals.reduce((a, b) => a + b, 0);
  const total: Explained<number | null> =
    totals.length === 0
      ? { value: null, explain: explanation('learner.noTotal') }
      : { value: sum, explain: explanation('learner.total', { total: sum, count: totals.length }) };
  const average: Explained<number | null> =
    totals.length === 0
      ? { value: null, explain: explanation('learner.noTotal') }
      : {
          value: sum / totals.length,
          explain: explanation('learner.average', { average: sum / totals.length, total: sum, count: totals.length }),
        };

  const level = inputs.report.level;
  if (subjects.length === 0) {
    // In the class but without a mark in this report: a card of empty rows, no result to compute.
    const none = { value: null, explain: explanation('learner.noTotal') };
    const graded = level === 'primary' || level === 'olevel';
    return {
      learner,
      subjects,
      total,
      average,
      aggregate: graded ? none : null,
      division: graded ? none : null,
      points: level === 'alevel' ? none : null,
    };
  }
  if (level === 'primary' || level === 'olevel') {
    const result =
      level === 'primary'
        ? primaryResult(
            subjects.map((each) => each.graded),
            inputs.rules,
          )
        : olevelResult(
            subjects.map((each) => each.graded),
            inputs.rules,
          );
    const aggregateExplain =
      result.explain.parts?.find((part) => part.code === 'primary.aggregate' || part.code === 'olevel.aggregate') ?? result.explain;
    return {
      learner,
      subjects,
      total,
      average,
      aggregate: { value: result.value.aggregate, explain: aggregateExplain },
      division: { value: result.value.division, explain: result.explain },
      points: null,
    };
  }
  if (level === 'alevel') {
    const result = alevelResult(
      subjects.map((each) => ({ subject: each.row.subject, category: each.graded.category, papers: each.papers })),
      inputs.rules,
    );
    result.value.subjects.forEach((each, index) => {
      const subject = subjects[index];
      if (!subject) return;
      subject.row.points = each.points;
      if (each.kind === 'principal') subject.row.grade = each.letter ?? subject.row.grade;
      subject.row.explain = { ...subject.row.explain, grade: each.explain };
    });
    return {
      learner,
      subjects,
      total,
      average,
      aggregate: null,
      division: null,
      points: { value: result.value.totalPoints, explain: result.explain },
    };
  }
  return { learner, subjects, total, average, aggregate: null, division: null, points: null };
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
    const sum = [...weights.values()].reduce((a, b) => a + b, 0);
    if (Math.abs(sum - 100) > 1e-9)
      warnings.push({ subject: subject.name, explain: explanation('subjectTotal.proportionsNot100', { sum }) });
  }
  return warnings;
}

/** The report model of the inputs' class: every learner computed, the printed ones returned. */
export function buildReportModel(inputs: ReportInputs): ReportModel {
  const marks = indexMarks(inputs.marks);
  const computed = inputs.learners.map((learner) => learnerResult(learner, marks, inputs));
  const scored = computed.map((each) => ({ id: each.learner.id, stream: each.learner.stream ?? '', score: each.average.value }));
  const positions = classPositions(scored);
  const means = classMeans(scored);
  const classSize = scored.filter((each) => each.score !== null).length;
  const streamSizes = new Map<string, number>();
  for (const each of scored) if (each.score !== null) streamSizes.set(each.stream, (streamSizes.get(each.stream) ?? 0) + 1);

  const learners: ReportLearner[] = computed
    .filter((each) => inputs.printed === null || inputs.printed.has(each.learner.id))
    .map((each) => {
      const position = positions.get(each.learner.id);
      const unranked = explanation('position.unranked');
      return {
        ...each.learner,
        photo: inputs.layout.showPhoto ? each.learner.photo : null,
        subjects: each.subjects.map((subject) => roundedSubject(subject.row)),
        total: round2(each.total.value),
        average: round2(each.average.value),
        aggregate: each.aggregate?.value ?? null,
        division: each.division?.value ?? null,
        points: each.points?.value ?? null,
        position: {
          stream: position?.stream.value?.rank ?? null,
          class: position?.class.value?.rank ?? null,
          of: classSize,
          streamOf: streamSizes.get(each.learner.stream ?? '') ?? 0,
        },
        attendance: inputs.attendance.get(each.learner.id) ?? null,
        remarks: remarksOf(each.learner.id, inputs),
        footers: inputs.footers,
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

  return {
    school: inputs.school,
    report: inputs.report,
    markTypes: inputs.markTypes.map((type) => ({ id: type.id, label: type.label })),
    warnings: [...proportionWarnings(inputs), ...gradeSetWarnings(inputs)],
    gradeKey: inputs.gradeKey,
    means: {
      class: round2(means.class.value),
      streams: Object.fromEntries([...means.streams].map(([stream, mean]) => [stream, round2(mean.value)])),
    },
    learners,
  };
}
