import type { MarkValue } from '../../marks/cells.js';
import { ABSENT } from '../../marks/cells.js';
import { type AoiScore, competencyScores } from '../competencies.js';
import { type Exact, exact, exactMean, exactPercent, toNumber } from '../exact.js';
import { type Explanation, explanation } from './explain.js';
import type { NcGradeBand, NcIdentifierBand, NcRules } from './nc-rules.js';

/*
 * The new-curriculum grader (guide new-curriculum.md, "What is computed"; issue 27 point 1):
 * pure, beside the old curriculum's, every rule the school's data (nc-rules.ts).
 *
 *   topic score    = mean of its activity-of-integration scores (an ABS is no score)
 *   subject score  = mean of the term's topic scores                        -> identifier
 *   formative /20  = score / 3 x 20 (mode A) | score / 3 x 10 + project / max x 10 (mode B)
 *   summative /80  = exam % x 0.8
 *   total /100     = formative + summative; with Disable Formative the exam % alone
 *   grade          = the first band of the school's A..E table the total reaches
 *   overall        = mean of subject scores -> identifier; mean of totals -> grade
 *
 * A missing or ABS value is never a 0: a part that lacks one has no value, and what rests on it
 * has none either (a total without its exam is no total). A subject with no score and no exam
 * mark is left off the card. Values are exact fractions, compared exactly with the bands; the
 * numbers handed out are rounded by the caller for display only.
 */

/** One subject of a learner, as the card's loader gathers it. */
export interface NcSubjectInput {
  subject_id: string;
  subject: string;
  /** A compulsory subject (the S4 certificate preview counts them). */
  compulsory?: boolean;
  /** The class's competencies of the subject this term, in the order the card lists them. */
  topics: ReadonlyArray<{ topic_id: string; title: string }>;
  /** The learner's activity-of-integration scores of those competencies. */
  aois: ReadonlyArray<AoiScore>;
  /** The summative exam: the learner's mark (ABS, or none) out of the mark type's maximum. */
  exam: { mark: MarkValue; outof: number } | null;
  /** The subject's project this term (mode B and the certificate preview), the learner's score or none. */
  project: { score: number | null; max: number } | null;
  /** The class and subject's own A..E table, where the school set one; else the rules' table. */
  grades?: ReadonlyArray<NcGradeBand>;
  /**
   * The class and subject's grade set for the term (the grade sets screen), if any: used as the
   * subject's A..E table when its grades are the school's new-curriculum letters (ncGradeTable).
   */
  gradeSet?: ReadonlyArray<{ grade: string; lower: number }>;
}

/**
 * A class and subject's grade set as its A..E table ("editable per class and subject like the
 * grade sets"): when every grade of the set is one of the rules' letters (A to E by default), the
 * set's lower bounds with the rules' descriptors, best first; otherwise (no set, or an
 * old-curriculum set of D1..F9 kept from before) none, and the rules' table stands.
 */
export function ncGradeTable(gradeSet: ReadonlyArray<{ grade: string; lower: number }> | undefined, rules: NcRules): NcGradeBand[] | null {
  if (!gradeSet || gradeSet.length === 0) return null;
  const byLetter = new Map(rules.grades.map((band) => [band.grade.trim().toLowerCase(), band]));
  const bands = gradeSet.map((row) => ({ row, known: byLetter.get(row.grade.trim().toLowerCase()) }));
  if (bands.some((band) => !band.known)) return null;
  return bands
    .map(({ row, known }) => ({ grade: known?.grade ?? row.grade, atLeast: row.lower, descriptor: known?.descriptor ?? '' }))
    .sort((a, b) => b.atLeast - a.atLeast);
}

export interface NcOptions {
  /** An exam-only card: no activity scores counted, the total is the exam %. */
  noFormative?: boolean;
  /** Print the S4 certificate preview (an S4 class, and the school's rules allowing it). */
  certificate?: boolean;
}

export interface NcTopicResult {
  topic_id: string;
  title: string;
  /** The AOI scores in the order stored (ABS kept). */
  aois: MarkValue[];
  score: Exact | null;
  identifier: NcIdentifierBand | null;
  explain: Explanation;
}

export interface NcSubjectResult {
  subject_id: string;
  subject: string;
  topics: NcTopicResult[];
  score: Exact | null;
  identifier: NcIdentifierBand | null;
  formative: Exact | null;
  summative: Exact | null;
  /** The exam as a percentage (the Disable Formative card's total). */
  examPercent: Exact | null;
  total: Exact | null;
  grade: NcGradeBand | null;
  /** Whether the card shows the subject: it has a score or an exam mark. */
  shown: boolean;
  explain: {
    score: Explanation;
    formative: Explanation;
    summative: Explanation;
    total: Explanation;
    grade: Explanation;
  };
}

export type NcCertificateResult = 'Result 1' | 'Result 2' | 'Result 3';

export interface NcLearnerResult {
  subjects: NcSubjectResult[];
  overall: {
    score: Exact | null;
    identifier: NcIdentifierBand | null;
    total: Exact | null;
    grade: NcGradeBand | null;
    explain: { score: Explanation; total: Explanation };
  };
  certificate: { result: NcCertificateResult; explain: Explanation } | null;
}

const TWENTY = exact(20);
const TEN = exact(10);
const THREE = exact(3);
const EIGHTY_PERCENT = exact(0.8);

/** A number handed out in an explanation: the exact value as the nearest float. */
const out = (value: Exact | null) => toNumber(value);

/** The first band (best first) whose lower bound the value reaches, exactly; the last starts at 0. */
function bandOf<Band extends { atLeast: number }>(bands: ReadonlyArray<Band>, value: Exact): Band | null {
  return bands.find((band) => value.gte(exact(band.atLeast))) ?? null;
}

/** The identifier of a score (out of 3) by the school's bands. */
export function ncIdentifier(score: Exact, rules: NcRules): NcIdentifierBand | null {
  return bandOf(rules.identifiers, score);
}

/** The grade of a total (out of 100) by a table. */
export function ncGrade(total: Exact, table: ReadonlyArray<NcGradeBand>): NcGradeBand | null {
  return bandOf(table, total);
}

/** One subject of a learner, graded. */
export function gradeNcSubject(input: NcSubjectInput, rules: NcRules, options: NcOptions = {}): NcSubjectResult {
  const scored = new Map(competencyScores(input.aois).map((topic) => [topic.topic_id, topic]));
  const topics: NcTopicResult[] = input.topics.map(({ topic_id, title }) => {
    const topic = scored.get(topic_id);
    const aois = topic?.aois ?? [];
    const score = topic?.score ?? null;
    return {
      topic_id,
      title,
      aois,
      score,
      identifier: score ? ncIdentifier(score, rules) : null,
      explain: score
        ? explanation('nc.topic', { title, aois: aois.map((value) => (value === null ? '-' : value)), score: out(score) })
        : explanation(aois.length > 0 ? 'nc.topicAbsent' : 'nc.topicNoScore', { title }),
    };
  });
  const counted = options.noFormative ? [] : topics.flatMap((topic) => (topic.score ? [topic.score] : []));
  const score = exactMean(counted);
  const identifier = score ? ncIdentifier(score, rules) : null;
  const scoreExplain = score
    ? explanation('nc.subjectScore', {
        scores: counted.map((value) => out(value) as number),
        score: out(score),
        identifier: identifier?.label ?? null,
      })
    : explanation(options.noFormative ? 'nc.formativeDisabled' : 'nc.subjectNoScore', {});

  // The exam: ABS or no mark is no summative part, never a 0.
  const examMark = input.exam?.mark;
  const examPercent = input.exam && typeof examMark === 'number' ? exactPercent(examMark, input.exam.outof) : null;
  const summative = examPercent ? examPercent.mul(EIGHTY_PERCENT) : null;
  const summativeExplain = examPercent
    ? explanation('nc.summative', {
        mark: examMark as number,
        outof: input.exam?.outof ?? null,
        percent: out(examPercent),
        summative: out(summative),
      })
    : explanation(examMark === ABSENT ? 'nc.examAbsent' : 'nc.examMissing', {});

  let formative: Exact | null = null;
  let formativeExplain: Explanation;
  if (options.noFormative) formativeExplain = explanation('nc.formativeDisabled', {});
  else if (!score) formativeExplain = explanation('nc.subjectNoScore', {});
  else if (rules.formative === 'scoresAndProject' && input.project && input.project.score !== null) {
    const projectPart = exact(input.project.score).mul(TEN).div(exact(input.project.max));
    formative = score.mul(TEN).div(THREE).add(projectPart);
    formativeExplain = explanation('nc.formativeWithProject', {
      score: out(score),
      project: input.project.score,
      max: input.project.max,
      formative: out(formative),
    });
  } else {
    formative = score.mul(TWENTY).div(THREE);
    formativeExplain = explanation(rules.formative === 'scoresAndProject' ? 'nc.formativeNoProject' : 'nc.formative', {
      score: out(score),
      formative: out(formative),
    });
  }

  let total: Exact | null;
  let totalExplain: Explanation;
  if (options.noFormative) {
    total = examPercent;
    totalExplain = total ? explanation('nc.totalExamOnly', { total: out(total) }) : explanation('nc.totalIncomplete', {});
  } else if (formative && summative) {
    total = formative.add(summative);
    totalExplain = explanation('nc.total', { formative: out(formative), summative: out(summative), total: out(total) });
  } else {
    total = null;
    totalExplain = explanation('nc.totalIncomplete', {});
  }
  const table = ncGradeTable(input.gradeSet, rules) ?? (input.grades && input.grades.length > 0 ? input.grades : rules.grades);
  const grade = total ? ncGrade(total, table) : null;
  const gradeExplain =
    total && grade
      ? explanation('nc.grade', { total: out(total), grade: grade.grade, atLeast: grade.atLeast })
      : explanation('grade.noMark', {});
  return {
    subject_id: input.subject_id,
    subject: input.subject,
    topics,
    score,
    identifier,
    formative,
    summative,
    examPercent,
    total,
    grade,
    shown: score !== null || examPercent !== null || topics.some((topic) => topic.aois.length > 0) || examMark === ABSENT,
    explain: { score: scoreExplain, formative: formativeExplain, summative: summativeExplain, total: totalExplain, grade: gradeExplain },
  };
}

/**
 * The S4 certificate preview (guide, [C]): Result 1 when at least one subject is graded D or
 * better, eight or more subjects are graded including every compulsory one, and there is a
 * project score; Result 3 when every graded subject is the table's last grade (E); else Result 2.
 */
function certificateOf(subjects: ReadonlyArray<NcSubjectResult>, inputs: ReadonlyArray<NcSubjectInput>, rules: NcRules) {
  const graded = subjects.filter((subject) => subject.grade);
  const lowest = rules.grades.at(-1)?.grade;
  const passRank = Math.max(0, rules.grades.length - 2);
  const passing = graded.filter((subject) => rules.grades.findIndex((band) => band.grade === subject.grade?.grade) <= passRank);
  const compulsoryGraded = inputs
    .filter((input) => input.compulsory)
    .every((input) => graded.some((subject) => subject.subject_id === input.subject_id));
  const project = inputs.some((input) => input.project && input.project.score !== null);
  const params = { graded: graded.length, passing: passing.length, compulsory: compulsoryGraded, project };
  if (graded.length > 0 && graded.every((subject) => subject.grade?.grade === lowest))
    return { result: 'Result 3' as const, explain: explanation('nc.certificate3', params) };
  if (passing.length > 0 && graded.length >= 8 && compulsoryGraded && project)
    return { result: 'Result 1' as const, explain: explanation('nc.certificate1', params) };
  return { result: 'Result 2' as const, explain: explanation('nc.certificate2', params) };
}

/** A learner's card: every subject graded (those with nothing to show left off), the overall, and the certificate preview if asked. */
export function gradeNcLearner(inputs: ReadonlyArray<NcSubjectInput>, rules: NcRules, options: NcOptions = {}): NcLearnerResult {
  const subjects = inputs.map((input) => gradeNcSubject(input, rules, options)).filter((subject) => subject.shown);
  const scores = subjects.flatMap((subject) => (subject.score ? [subject.score] : []));
  const totals = subjects.flatMap((subject) => (subject.total ? [subject.total] : []));
  const score = exactMean(scores);
  const total = exactMean(totals);
  const identifier = score ? ncIdentifier(score, rules) : null;
  const grade = total ? ncGrade(total, rules.grades) : null;
  return {
    subjects,
    overall: {
      score,
      identifier,
      total,
      grade,
      explain: {
        score: score
          ? explanation('nc.overallScore', { count: scores.length, score: out(score), identifier: identifier?.label ?? null })
          : explanation('nc.subjectNoScore', {}),
        total: total
          ? explanation('nc.overallTotal', { count: totals.length, total: out(total), grade: grade?.grade ?? null })
          : explanation('nc.totalIncomplete', {}),
      },
    },
    certificate: options.certificate ? certificateOf(subjects, inputs, rules) : null,
  };
}
