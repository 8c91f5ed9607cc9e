import { type GradedClass, gradeClass } from './graded-class.js';
import type { GradingInputs, GradingLearner, GradingMark, GradingMarkType } from './graded-results.js';

/*
 * The average mark sheet (issue 28 point 5): a class's year, each learner's each subject's mean
 * over the terms taken, then those means graded by the one grader the terminal report uses
 * (gradeClass), so grades, aggregates or divisions and positions come from the school's rules
 * as on the cards. A term without a mark in a subject (absent, missing) is not a 0: the mean is
 * over the terms the learner has a mark in. Pure.
 */

/** One learner's total in one subject in one term: null when absent or missing. */
export interface TermSubjectTotal {
  student_id: string;
  subject_id: string;
  total: number | null;
}

/** A learner's mean in a subject: the mean over the terms with a mark, and how many terms that is. */
export interface SubjectMean {
  mean: number;
  terms: number;
}

/** Each learner's each subject's mean over the terms taken (terms without a mark are left out, never 0), by learner then subject. */
export function meansOverTerms(totals: ReadonlyArray<TermSubjectTotal>): Map<string, Map<string, SubjectMean>> {
  const sums = new Map<string, Map<string, { sum: number; terms: number }>>();
  for (const each of totals) {
    if (each.total === null || !Number.isFinite(each.total)) continue;
    let bySubject = sums.get(each.student_id);
    if (!bySubject) {
      bySubject = new Map();
      sums.set(each.student_id, bySubject);
    }
    const found = bySubject.get(each.subject_id) ?? { sum: 0, terms: 0 };
    bySubject.set(each.subject_id, { sum: found.sum + each.total, terms: found.terms + 1 });
  }
  const means = new Map<string, Map<string, SubjectMean>>();
  for (const [learner, bySubject] of sums) {
    means.set(learner, new Map([...bySubject].map(([subject, { sum, terms }]) => [subject, { mean: sum / terms, terms }])));
  }
  return means;
}

/** The one mark type the means are graded as: a mark out of 100. */
export const MEAN_MARK_TYPE: GradingMarkType = { id: 'mean', label: 'Mean', outof: 100 };

/** One learner's total in one paper of a subject in one term (A level): null when absent or missing. */
export interface TermPaperTotal extends TermSubjectTotal {
  paper: string;
}

/**
 * Each learner's each subject's each paper's mean over the terms taken (A level: each paper is
 * graded on its own), by learner, subject, then paper; a term without a mark is left out, never 0.
 * A paper sat (ABS or no mark) in every term but never with a mark is null: the cards give a
 * subject with a paper without a mark no letter, and so does the sheet.
 */
export function paperMeansOverTerms(totals: ReadonlyArray<TermPaperTotal>): Map<string, Map<string, Map<string, SubjectMean | null>>> {
  const byPaper = new Map<string, Map<string, Map<string, TermSubjectTotal[]>>>();
  for (const each of totals) {
    let bySubject = byPaper.get(each.student_id);
    if (!bySubject) {
      bySubject = new Map();
      byPaper.set(each.student_id, bySubject);
    }
    let papers = bySubject.get(each.subject_id);
    if (!papers) {
      papers = new Map();
      bySubject.set(each.subject_id, papers);
    }
    // The paper stands in as the subject: the mean of one learner's one paper.
    const found = papers.get(each.paper) ?? [];
    found.push({ student_id: each.student_id, subject_id: each.paper, total: each.total });
    papers.set(each.paper, found);
  }
  const means = new Map<string, Map<string, Map<string, SubjectMean | null>>>();
  for (const [learner, bySubject] of byPaper) {
    const subjects = new Map<string, Map<string, SubjectMean | null>>();
    for (const [subject, papers] of bySubject) {
      const paperMeans = meansOverTerms([...papers.values()].flat()).get(learner);
      // A subject with no paper ever marked has no mean, as meansOverTerms leaves it out.
      if (!paperMeans || paperMeans.size === 0) continue;
      subjects.set(subject, new Map([...papers.keys()].map((paper) => [paper, paperMeans.get(paper) ?? null])));
    }
    if (subjects.size > 0) means.set(learner, subjects);
  }
  return means;
}

type MeanInputs = Omit<GradingInputs, 'markTypes' | 'proportions' | 'rawmark'>;

/** Grades marks of the one mean mark type through the one grader (gradeClass). */
function gradeMeanMarks<Learner extends GradingLearner>(
  learners: ReadonlyArray<Learner>,
  marks: GradingMark[],
  inputs: MeanInputs,
): GradedClass<Learner> {
  return gradeClass(learners, marks, {
    ...inputs,
    rawmark: true,
    markTypes: [MEAN_MARK_TYPE],
    markTypeLabels: new Map([...inputs.markTypeLabels, [MEAN_MARK_TYPE.id, MEAN_MARK_TYPE.label]]),
    proportions: new Map(),
  });
}

/**
 * Grades the means through the one grader (gradeClass): each mean is the learner's one mark in
 * the subject, out of 100, graded by the given inputs' grade bands (the year's last term's) and
 * the school's rules, so aggregates, divisions and positions (ties share a rank) are recomputed
 * from the graded means.
 */
export function gradeMeans<Learner extends GradingLearner>(
  learners: ReadonlyArray<Learner>,
  means: ReadonlyMap<string, ReadonlyMap<string, SubjectMean>>,
  inputs: MeanInputs,
): GradedClass<Learner> {
  const marks: GradingMark[] = [];
  for (const learner of learners) {
    for (const [subject_id, { mean }] of means.get(learner.id) ?? []) {
      marks.push({ student_id: learner.id, subject_id, marktype_id: MEAN_MARK_TYPE.id, paper: 'I', mark: mean, absent: false });
    }
  }
  return gradeMeanMarks(learners, marks, inputs);
}

/**
 * Grades the paper means (A level) through the one grader: each paper's mean is the learner's one
 * mark in that paper, out of 100, so each paper is graded (D1..F9), a principal subject's letter
 * and points and a subsidiary's points follow from them as on the cards, and the learner's total
 * points and position (ties share a rank) are recomputed from the graded means.
 */
export function gradePaperMeans<Learner extends GradingLearner>(
  learners: ReadonlyArray<Learner>,
  means: ReadonlyMap<string, ReadonlyMap<string, ReadonlyMap<string, SubjectMean | null>>>,
  inputs: MeanInputs,
): GradedClass<Learner> {
  const marks: GradingMark[] = [];
  for (const learner of learners)
    for (const [subject_id, papers] of means.get(learner.id) ?? [])
      for (const [paper, found] of papers)
        marks.push({
          student_id: learner.id,
          subject_id,
          marktype_id: MEAN_MARK_TYPE.id,
          paper,
          mark: found?.mean ?? null,
          // A paper never marked: absent, as on the cards (no letter), never a 0.
          absent: found === null,
        });
  return gradeMeanMarks(learners, marks, inputs);
}
