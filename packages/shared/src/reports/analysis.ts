import type { GradingRules } from '../grading/engine/rules.js';
import { ABSENT } from '../marks/cells.js';
import type { GradedClass } from './graded-class.js';
import type { GradingLearner, GradingSubject } from './graded-results.js';
import type { ReportLevel } from './model.js';

/*
 * The result analysis of a class (issue 28 point 1, guide statistics.md "Result analysis"): a
 * row per subject read from the class's graded results (gradeClass, the cards' one grader),
 * never a second grading. Directions (statistics.md): grade values are lower-better, marks
 * higher-better; an absent (ABS) or missing mark is left out of every mean and count but N
 * absent, never counted as a fail or 0; ties share a rank; nothing is rounded here (precision is
 * the renderer's). Pure.
 */

export interface AnalysisLearner extends GradingLearner {
  gender: 'F' | 'M' | null;
}

/** Mean mark and mean grade point of the learners of one sex who sat a subject. */
export interface AnalysisSexMeans {
  sat: number;
  meanMark: number | null;
  meanGradePoint: number | null;
}

export interface AnalysisSubjectRow {
  subject_id: string;
  subject: string;
  /** The subject teacher's initials, as the cards print them (the first found). */
  teacher: string | null;
  /** Learners with a grade in the subject. */
  sat: number;
  /** Learners absent (ABS) from the subject: never a fail nor a 0. */
  absent: number;
  /** Learners per grade label (every label of the school's grades, 0 when none). */
  grades: Record<string, number>;
  /** Percent of those who sat with a distinction (value at most `distinctionAtMost`). */
  distinction: number | null;
  /** Percent with a credit or better (value at most the rules' creditAtMost). */
  credit: number | null;
  /** Percent with a pass or better (value at most the rules' passAtMost). */
  pass: number | null;
  /** Percent failing (value above passAtMost). */
  fail: number | null;
  meanMark: number | null;
  /** Mean grade value (lower is better). */
  meanGradePoint: number | null;
  /** sum(n_g * (worst - g)) / (N * (worst - best)) * 100 (statistics.md "weightedagg", default weights). */
  performanceIndex: number | null;
  /** Rank by mean grade point, lower better, ties sharing a rank; null when nobody sat. */
  position: number | null;
  boys: AnalysisSexMeans;
  girls: AnalysisSexMeans;
}

export interface ResultAnalysis {
  /** The grade labels, best (lowest value) first: the columns of the counts. */
  grades: string[];
  subjects: AnalysisSubjectRow[];
  /** Learners per division (primary and O level), in the rules' order; null at other levels. */
  divisions: Array<{ division: string; count: number }> | null;
  /** The division of learners without a result (a primary class's X), not counted against Division I; null where none. */
  noMarkDivision: string | null;
  /** Learners analysed. */
  learners: number;
}

export interface AnalysisOptions {
  rules: GradingRules;
  /** The class's subjects in the school's order. */
  subjects: ReadonlyArray<GradingSubject>;
  level: ReportLevel;
  /** The learners analysed (a stream's); all of the class when null. */
  only?: ReadonlySet<string> | null;
  /** A distinction is a grade value at most this (D1-D2 by default, statistics.md). */
  distinctionAtMost?: number;
}

const mean = (values: readonly number[]): number | null =>
  values.length === 0 ? null : values.reduce((sum, each) => sum + each, 0) / values.length;

const percent = (count: number, of: number): number | null => (of === 0 ? null : (count * 100) / of);

/** Ranks by a lower-better score, ties sharing a rank ("1, 2, 2, 4"); null scores are unranked. */
export function rankLowerBetter(scores: ReadonlyArray<number | null>): Array<number | null> {
  return scores.map((score) => (score === null ? null : 1 + scores.filter((other) => other !== null && other < score).length));
}

/** The result analysis of a graded class (see the file's comment). */
export function resultAnalysis<Learner extends AnalysisLearner>(graded: GradedClass<Learner>, options: AnalysisOptions): ResultAnalysis {
  const { rules, level } = options;
  const distinctionAtMost = options.distinctionAtMost ?? 2;
  const gradeValues = [...rules.grades.values].sort((a, b) => a.value - b.value);
  const labelOf = new Map(gradeValues.map((grade) => [grade.value, grade.label]));
  const best = gradeValues[0]?.value ?? 1;
  const worst = gradeValues[gradeValues.length - 1]?.value ?? 9;
  const results = graded.results.filter((each) => !options.only || options.only.has(each.learner.id));

  const rows = options.subjects.map((subject) => {
    const sat: Array<{ value: number; mark: number | null; gender: 'F' | 'M' | null }> = [];
    let absent = 0;
    let teacher: string | null = null;
    for (const result of results) {
      const found = result.subjects.find((each) => each.row.subject_id === subject.id);
      if (!found) continue;
      teacher ??= found.row.initials;
      const value = found.graded.value;
      if (typeof value === 'number') sat.push({ value, mark: found.row.total, gender: result.learner.gender });
      else if (value === ABSENT) absent += 1;
    }
    const n = sat.length;
    const grades = Object.fromEntries(gradeValues.map((grade) => [grade.label, 0]));
    for (const each of sat) {
      const label = labelOf.get(each.value);
      if (label !== undefined) grades[label] = (grades[label] ?? 0) + 1;
    }
    const count = (test: (value: number) => boolean) => sat.filter((each) => test(each.value)).length;
    const sexMeans = (gender: 'F' | 'M'): AnalysisSexMeans => {
      const own = sat.filter((each) => each.gender === gender);
      return {
        sat: own.length,
        meanMark: mean(own.flatMap((each) => (each.mark === null ? [] : [each.mark]))),
        meanGradePoint: mean(own.map((each) => each.value)),
      };
    };
    const span = worst - best;
    return {
      subject_id: subject.id,
      subject: subject.name,
      teacher,
      sat: n,
      absent,
      grades,
      distinction: percent(
        count((value) => value <= distinctionAtMost),
        n,
      ),
      credit: percent(
        count((value) => value <= rules.grades.creditAtMost),
        n,
      ),
      pass: percent(
        count((value) => value <= rules.grades.passAtMost),
        n,
      ),
      fail: percent(
        count((value) => value > rules.grades.passAtMost),
        n,
      ),
      meanMark: mean(sat.flatMap((each) => (each.mark === null ? [] : [each.mark]))),
      meanGradePoint: mean(sat.map((each) => each.value)),
      performanceIndex: n === 0 || span <= 0 ? null : (sat.reduce((sum, each) => sum + (worst - each.value), 0) * 100) / (n * span),
      position: null as number | null,
      boys: sexMeans('M'),
      girls: sexMeans('F'),
    } satisfies AnalysisSubjectRow;
  });
  const ranks = rankLowerBetter(rows.map((row) => row.meanGradePoint));
  rows.forEach((row, index) => {
    row.position = ranks[index] ?? null;
  });

  let divisions: ResultAnalysis['divisions'] = null;
  if (level === 'primary' || level === 'olevel') {
    const names =
      level === 'primary'
        ? [...rules.primary.divisions.map((each) => each.division), rules.primary.otherwise, rules.primary.noMark]
        : [...rules.olevel.divisions.map((each) => each.division), rules.olevel.otherwise];
    const order = [...new Set(names)];
    const counts = new Map(order.map((name) => [name, 0]));
    for (const result of results) {
      const division = result.division?.value;
      if (division == null) continue;
      counts.set(division, (counts.get(division) ?? 0) + 1);
    }
    divisions = [...counts].map(([division, count]) => ({ division, count }));
  }
  return {
    grades: gradeValues.map((grade) => grade.label),
    subjects: rows,
    divisions,
    noMarkDivision: level === 'primary' ? rules.primary.noMark : null,
    learners: results.length,
  };
}

/** A class's line of a whole school's analysis (issue 28 point 7). */
export interface ClassSummary {
  learners: number;
  /** Learners with a division other than the "no mark" one: the share's denominator. */
  withResult: number;
  divisions: ResultAnalysis['divisions'];
  /** % of the learners with a result (not the "no mark" division) in the first division; null without divisions or results. */
  divisionOne: number | null;
  /** The mean of the subjects' mean grade points (lower is better); null when no subject was sat. */
  meanGradePoint: number | null;
}

/**
 * A class's summary from its analysis: the head teacher's first comparison of classes, and the
 * share its division chart notes (one computation). The learners without a result (the
 * analysis's `noMarkDivision`, the rules' X) are not counted against Division I.
 */
export function classSummary(
  analysis: Pick<ResultAnalysis, 'divisions' | 'learners' | 'subjects'> & { noMarkDivision?: string | null | undefined },
): ClassSummary {
  const { divisions } = analysis;
  const noMark = analysis.noMarkDivision ?? null;
  const withResult = divisions?.filter((each) => each.division !== noMark).reduce((sum, each) => sum + each.count, 0) ?? 0;
  const first = divisions?.[0];
  const points = analysis.subjects.flatMap((row) => (row.meanGradePoint === null ? [] : [row.meanGradePoint]));
  return {
    learners: analysis.learners,
    withResult,
    divisions,
    divisionOne: first && withResult > 0 && first.division !== noMark ? (first.count * 100) / withResult : null,
    meanGradePoint: points.length === 0 ? null : points.reduce((sum, value) => sum + value, 0) / points.length,
  };
}
