import { SUBJECT_CATEGORIES } from '../constants.js';
import type { GradeBand } from '../grading/bands.js';
import { type AlevelPaper, alevelResult } from '../grading/engine/alevel.js';
import { type Explained, type Explanation, explanation } from '../grading/engine/explain.js';
import type { GradedSubject } from '../grading/engine/graded-subject.js';
import { olevelResult } from '../grading/engine/olevel.js';
import { classPositions, type LearnerPositions, type RankBasis, type Ranked } from '../grading/engine/positions.js';
import { primaryResult } from '../grading/engine/primary.js';
import type { GradingRules, SubjectCategory } from '../grading/engine/rules.js';
import { gradeOfTotal, type Proportions, subjectMark, subjectTotal } from '../grading/engine/subject-total.js';
import { type Exact, exact, exactMean, exactPercent, exactSum, percentOf, toNumber } from '../grading/exact.js';
import { ABSENT, type MarkValue } from '../marks/cells.js';
import type { ReportLevel, ReportSubject } from './model.js';

/*
 * The graded results of learners (guide grading.md): marks to subject totals, grades, the
 * aggregate and division (primary, O level) or points (A level), and positions. One grader:
 * the report cards, the mark sheet and the learner's page all read these, so a mark graded on
 * one screen is graded the same on every other. Pure (no database, no clock).
 *
 * Rules beyond the engine's (docs/ARCHITECTURE.md "Report cards"):
 * - proportions weigh a subject's total only when the grading covers every mark type they weigh
 *   (an end-of-term report); a mid-term report of BOT and MOT shows those marks and their
 *   average, and says why, rather than totals out of 50 or a total scaled in silence;
 * - a learner who missed a weighted mark type is graded by the school's rule (grading rules
 *   `missed`: re-weighted by default, counted 0, or no total), the row naming what was missed;
 * - a school that rounds (grading rules `rounding`) grades and prints the rounded mark: each
 *   paper's total and the subject's, so the printed mark and its grade always agree;
 * - a subject written in several papers totals the mean of its papers' totals; at A level each
 *   paper is graded and the subject's letter follows from the paper grades;
 * - a learner's total is the sum of their subject totals and the average their mean;
 * - a learner with no mark at all, like one absent from every exam, has the "no mark" division
 *   (X) at primary and O level;
 * - positions rank by the school's basis (grading rules `positions`), complete results first.
 * Every mark is combined exactly (grading/exact.ts); numbers are floats only as handed out.
 */

export interface GradingMarkType {
  id: string;
  label: string;
  /** What a raw mark is out of (mark type setting, default 100). */
  outof: number;
}

export interface GradingSubject {
  id: string;
  name: string;
  code: string | null;
  category: string;
}

export interface GradingLearner {
  id: string;
  stream: string | null;
}

export interface GradingMark {
  student_id: string;
  subject_id: string;
  marktype_id: string;
  paper: string;
  mark: number | null;
  absent: boolean;
}

/** What grading a class needs: the rules, the mark types graded, the subjects, bands and proportions. */
export interface GradingInputs {
  level: ReportLevel;
  /** Show raw marks rather than marks out of 100 (display only). */
  rawmark: boolean;
  rules: GradingRules;
  /** The mark types graded, in the school's order. */
  markTypes: ReadonlyArray<GradingMarkType>;
  /** Every mark type label of the school by id (to name what proportions weigh beyond the grading). */
  markTypeLabels: ReadonlyMap<string, string>;
  /** The subjects, in the school's order. */
  subjects: ReadonlyArray<GradingSubject>;
  /** Each subject's grade bands for the class, term and year. */
  bands: ReadonlyMap<string, GradeBand[]>;
  /** Each subject's proportions by mark type id (percent). */
  proportions: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** Initials of each subject's teacher by `${subject_id}|${stream}` ('' for a whole-class teacher). */
  initials?: ReadonlyMap<string, string>;
  /** Each subject comment by `${student_id}|${subject_id}`. */
  subjectComments?: ReadonlyMap<string, string>;
}

const PAPER_ORDER = ['I', 'II', 'III', 'IV', 'V', 'VI'];

const isCategory = (value: string): value is SubjectCategory => (SUBJECT_CATEGORIES as readonly string[]).includes(value);

/** Marks by learner, then subject, then paper, then mark type id. */
export type MarkIndex = Map<string, Map<string, Map<string, Map<string, GradingMark>>>>;

export function indexMarks(marks: ReadonlyArray<GradingMark>): MarkIndex {
  const index: MarkIndex = new Map();
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

const markValue = (mark: GradingMark | undefined): MarkValue => (mark === undefined ? null : mark.absent ? ABSENT : mark.mark);

/**
 * The proportions a subject's total uses, by mark type label: all of them when the grading
 * covers every mark type they weigh, none otherwise (with the explanation why).
 */
function proportionsFor(subjectId: string, inputs: GradingInputs): { proportions: Proportions; notCovered: string[] } {
  const labels = new Map(inputs.markTypes.map((type) => [type.id, type.label]));
  const weights = inputs.proportions.get(subjectId);
  if (!weights || weights.size === 0) return { proportions: {}, notCovered: [] };
  const notCovered = [...weights.keys()].filter((id) => !labels.has(id));
  if (notCovered.length > 0) return { proportions: {}, notCovered };
  return { proportions: Object.fromEntries([...weights].map(([id, percent]) => [labels.get(id) as string, percent])), notCovered };
}

type Shown = Exact | typeof ABSENT | null;

interface PaperResult {
  paper: string;
  total: Exact | null;
  totalExplain: Explanation;
  grade: string | null;
  value: number | null;
  gradeExplain: Explanation;
  /** The mark shown per mark type label. */
  shown: Record<string, Shown>;
  /** The weighted mark types missed and re-weighted or counted 0. */
  missed: string[];
}

/** One paper of a subject: its total from the graded mark types, and its grade. */
function paperResult(
  paper: string,
  byType: ReadonlyMap<string, GradingMark> | undefined,
  subject: GradingSubject,
  inputs: GradingInputs,
  weighting: ReturnType<typeof proportionsFor>,
  otherTypes: string[],
): PaperResult {
  const marks = inputs.markTypes.map((type) => ({ markType: type.label, value: markValue(byType?.get(type.id)), maximum: type.outof }));
  const total = subjectTotal(marks, weighting.proportions, inputs.rules.missed);
  const computed =
    otherTypes.length > 0
      ? {
          ...total.explain,
          parts: [...(total.explain.parts ?? []), explanation('subjectTotal.proportionsOfOtherExams', { markTypes: otherTypes })],
        }
      : total.explain;
  // The paper's mark as graded and printed: rounded first when the school rounds.
  const mark = subjectMark({ value: total.value.exact, explain: computed }, inputs.rules.rounding);
  const grade = gradeOfTotal(mark.value, inputs.bands.get(subject.id) ?? [], inputs.rules);
  const shown: PaperResult['shown'] = {};
  marks.forEach((mark, index) => {
    const percent = total.value.marks[index]?.percent ?? null;
    if (mark.value === ABSENT) shown[mark.markType] = ABSENT;
    else if (mark.value === null || percent === null) shown[mark.markType] = null;
    else if (inputs.rawmark) shown[mark.markType] = exact(mark.value);
    else {
      // Out of 100, and weighted when the mark type has a proportion: the part it adds to the total.
      const scaled = exactPercent(mark.value, mark.maximum);
      const proportion = weighting.proportions[mark.markType];
      shown[mark.markType] = proportion === undefined ? scaled : percentOf(scaled, proportion);
    }
  });
  return {
    paper,
    total: mark.value,
    totalExplain: mark.explain,
    grade: grade.value.grade,
    value: grade.value.value,
    gradeExplain: grade.explain,
    shown,
    missed: total.value.missed,
  };
}

/** A subject as a learner's result holds it: the card's row (floats), and the exact total behind it. */
export interface GradedSubjectResult {
  row: ReportSubject;
  /** The subject total exactly, null without one. */
  exact: Exact | null;
  graded: GradedSubject;
  papers: AlevelPaper[];
}

const shownNumber = (value: Shown): number | typeof ABSENT | null => (value === null || value === ABSENT ? value : toNumber(value));

/** A learner's result in one subject they have marks in. */
function subjectResult(
  learner: GradingLearner,
  subject: GradingSubject,
  byPaper: ReadonlyMap<string, ReadonlyMap<string, GradingMark>>,
  inputs: GradingInputs,
): GradedSubjectResult {
  const weighting = proportionsFor(subject.id, inputs);
  const otherTypes = weighting.notCovered.map((id) => inputs.markTypeLabels.get(id) ?? id);
  const paperNames = [...byPaper.keys()].sort((a, b) => PAPER_ORDER.indexOf(a) - PAPER_ORDER.indexOf(b));
  const papers = paperNames.map((paper) => paperResult(paper, byPaper.get(paper), subject, inputs, weighting, otherTypes));
  const category = isCategory(subject.category) ? subject.category : null;
  const initials = inputs.initials?.get(`${subject.id}|${learner.stream ?? ''}`) ?? inputs.initials?.get(`${subject.id}|`) ?? null;
  const single = papers.length === 1 ? papers[0] : undefined;

  let total: Exact | null;
  let totalExplain: Explanation;
  let grade: string | null;
  let value: number | null;
  let gradeExplain: Explanation;
  let shown: Record<string, Shown>;
  if (single) {
    ({ total, totalExplain, grade, value, gradeExplain, shown } = single);
  } else {
    const totals = papers.map((paper) => paper.total);
    const complete = totals.every((each): each is Exact => each !== null);
    const mean = complete ? exactMean(totals) : null;
    const meanExplain =
      mean === null
        ? explanation(
            'subjectTotal.incomplete',
            { markTypes: papers.filter((paper) => paper.total === null).map((paper) => `Paper ${paper.paper}`) },
            papers.map((paper) => paper.totalExplain),
          )
        : explanation(
            'subjectTotal.papers',
            { total: toNumber(mean), count: totals.length, marks: totals.map((each) => toNumber(each as Exact)) },
            papers.map((paper) => paper.totalExplain),
          );
    // The mean of the papers' marks, rounded again when the school rounds (the mean of 60 and 61 is 60.5).
    ({ value: total, explain: totalExplain } = subjectMark({ value: mean, explain: meanExplain }, inputs.rules.rounding));
    const graded = gradeOfTotal(total, inputs.bands.get(subject.id) ?? [], inputs.rules);
    grade = graded.value.grade;
    value = graded.value.value;
    gradeExplain = graded.explain;
    shown = {};
    for (const type of inputs.markTypes) {
      const values = papers.map((paper) => paper.shown[type.label] ?? null);
      const numbers = values.filter((each): each is Exact => each !== null && each !== ABSENT);
      shown[type.label] =
        numbers.length === values.length && numbers.length > 0 ? exactMean(numbers) : values.includes(ABSENT) ? ABSENT : null;
    }
  }
  const absentEverywhere = papers.length > 0 && papers.every((paper) => Object.values(paper.shown).every((mark) => mark === ABSENT));
  return {
    row: {
      subject_id: subject.id,
      subject: subject.name,
      code: subject.code,
      marks: Object.fromEntries(Object.entries(shown).map(([label, mark]) => [label, shownNumber(mark)])),
      ...(inputs.level === 'alevel'
        ? { papers: papers.map((paper) => ({ paper: paper.paper, mark: toNumber(paper.total), grade: paper.grade })) }
        : {}),
      total: toNumber(total),
      grade,
      // Named only when the rule gave the subject a total despite them.
      missed: total === null ? [] : [...new Set(papers.flatMap((paper) => paper.missed))],
      points: null,
      comment: inputs.subjectComments?.get(`${learner.id}|${subject.id}`) ?? '',
      initials,
      explain: { total: totalExplain, grade: gradeExplain },
    },
    exact: total,
    graded: { subject: subject.name, category, value: value ?? (absentEverywhere ? ABSENT : null) },
    papers: papers.map((paper) => ({
      paper: paper.paper,
      value: paper.value ?? (Object.values(paper.shown).every((mark) => mark === ABSENT) ? ABSENT : null),
    })),
  };
}

/** A learner's graded result: subjects, total and average, and the level's result. */
export interface LearnerResult<Learner extends GradingLearner = GradingLearner> {
  learner: Learner;
  subjects: GradedSubjectResult[];
  total: Explained<Exact | null>;
  average: Explained<Exact | null>;
  aggregate: Explained<number | null> | null;
  division: Explained<string | null> | null;
  points: Explained<number | null> | null;
  /** What positions rank this learner by, under the school's rules (see rankKey). */
  ranked: Omit<Ranked, 'id' | 'stream'>;
}

/** The total of the subjects whose names are given (the counted subjects that break an aggregate's ties). */
function totalOf(subjects: ReadonlyArray<GradedSubjectResult>, names: ReadonlyArray<string>): Exact | null {
  const totals = subjects.filter((subject) => names.includes(subject.row.subject)).map((subject) => subject.exact);
  return totals.some((each) => each === null) ? null : exactSum(totals as Exact[]);
}

/** The ranking basis a class is ranked by under the school's rules (grading.md "Positions"). */
export function rankBasis(level: ReportLevel, rules: GradingRules): RankBasis {
  const { basis, incomplete } = rules.positions;
  if (basis === 'total') return { by: 'total', order: 'higher', tieByTotal: false, incomplete };
  if (basis === 'result' && (level === 'primary' || level === 'olevel'))
    return { by: 'aggregate', order: 'lower', tieByTotal: true, incomplete };
  if (basis === 'result' && level === 'alevel') return { by: 'points', order: 'higher', tieByTotal: true, incomplete };
  return { by: 'average', order: 'higher', tieByTotal: true, incomplete };
}

/** Grades one learner's marks (indexed by indexMarks) under the inputs. */
export function gradeLearner<Learner extends GradingLearner>(
  learner: Learner,
  marks: MarkIndex,
  inputs: GradingInputs,
): LearnerResult<Learner> {
  const own = marks.get(learner.id);
  const subjects = inputs.subjects.flatMap((subject) => {
    const byPaper = own?.get(subject.id);
    return byPaper ? [subjectResult(learner, subject, byPaper, inputs)] : [];
  });
  const totals = subjects.map((subject) => subject.exact).filter((each): each is Exact => each !== null);
  const sum = exactSum(totals);
  const noTotal = { value: null, explain: explanation('learner.noTotal') };
  const total: Explained<Exact | null> =
    totals.length === 0 ? noTotal : { value: sum, explain: explanation('learner.total', { total: toNumber(sum), count: totals.length }) };
  const mean = exactMean(totals);
  const average: Explained<Exact | null> =
    mean === null
      ? noTotal
      : { value: mean, explain: explanation('learner.average', { average: toNumber(mean), total: toNumber(sum), count: totals.length }) };
  // Whether every subject the learner has marks in has a total: what an average or a total ranks fairly.
  const everyTotal = subjects.length > 0 && subjects.every((subject) => subject.exact !== null);
  const basis = rankBasis(inputs.level, inputs.rules);
  const byAverage = { complete: everyTotal, score: basis.by === 'total' ? total.value : average.value, total: total.value };

  const level = inputs.level;
  if (level === 'primary' || level === 'olevel') {
    // A learner with no mark at all is graded like one absent from every exam: the "no mark"
    // division (X), each of the class's subjects named as without a mark.
    const graded: GradedSubject[] =
      subjects.length > 0
        ? subjects.map((each) => each.graded)
        : inputs.subjects.map((subject) => ({
            subject: subject.name,
            category: isCategory(subject.category) ? subject.category : null,
            value: null,
          }));
    const result = level === 'primary' ? primaryResult(graded, inputs.rules) : olevelResult(graded, inputs.rules);
    const aggregateExplain =
      result.explain.parts?.find((part) => part.code === 'primary.aggregate' || part.code === 'olevel.aggregate') ?? result.explain;
    const counted = 'counted' in result.value ? result.value.counted : result.value.best;
    // At O level a learner missing a subject they sat has fewer graded subjects: their aggregate
    // of fewer values would look better than a complete learner's, unless the best are all there.
    const gradedCount = graded.filter((each) => typeof each.value === 'number').length;
    const olevelComplete = gradedCount > 0 && (gradedCount === graded.length || gradedCount >= inputs.rules.olevel.bestCount);
    const complete = result.value.aggregate !== null && (level === 'primary' || olevelComplete);
    return {
      learner,
      subjects,
      total,
      average,
      aggregate: { value: result.value.aggregate, explain: aggregateExplain },
      division: { value: result.value.division, explain: result.explain },
      points: null,
      ranked:
        basis.by === 'aggregate'
          ? { complete, score: result.value.aggregate, total: complete ? totalOf(subjects, counted) : total.value }
          : { ...byAverage, complete: complete && everyTotal },
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
    // Complete when every subject is graded: a principal with its letter, a subsidiary with every paper.
    const complete = subjects.length > 0 && subjects.every((subject) => subject.papers.every((paper) => typeof paper.value === 'number'));
    const points = subjects.length === 0 ? noTotal : { value: result.value.totalPoints, explain: result.explain };
    return {
      learner,
      subjects,
      total,
      average,
      aggregate: null,
      division: null,
      points,
      ranked:
        basis.by === 'points' ? { complete, score: points.value, total: total.value } : { ...byAverage, complete: complete && everyTotal },
    };
  }
  return { learner, subjects, total, average, aggregate: null, division: null, points: null, ranked: byAverage };
}

/** Each learner's positions in the class and stream, under the school's basis. */
export function learnerPositions(
  results: ReadonlyArray<LearnerResult>,
  inputs: Pick<GradingInputs, 'level' | 'rules'>,
): Map<string, LearnerPositions> {
  return classPositions(
    results.map((each) => ({ id: each.learner.id, stream: each.learner.stream ?? '', ...each.ranked })),
    rankBasis(inputs.level, inputs.rules),
  );
}
