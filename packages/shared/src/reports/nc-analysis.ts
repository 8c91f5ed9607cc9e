import { z } from 'zod';
import type { NcRules } from '../grading/engine/nc-rules.js';
import type { NcLearnerResult, NcSubjectInput } from '../grading/engine/new-curriculum.js';
import { compareExact, type Exact, exactMean, toNumber } from '../grading/exact.js';
import { ABSENT } from '../marks/cells.js';

/*
 * The result analysis of a class on the new curriculum (issue 28 point 1, "or, for new-curriculum
 * classes, identifiers and grades A..E"; guides statistics.md and new-curriculum.md): no
 * divisions, aggregates or grade points, but per subject the learners per grade of the school's
 * A..E table and per identifier (3 Outstanding, 2 Moderate, 1 Basic by default), the mean score
 * (out of 3) and mean total (out of 100), the share at C or better and at D or better, the
 * subject's position by its mean total and its teacher; boys against girls; and the class's
 * overall grades and identifiers. Read from the learners' cards as the one new-curriculum grader
 * made them (gradeNcLearner), never graded a second time. A subject the card leaves off (nothing
 * entered) is not counted; an ABS exam is absent, never a 0 nor an E; ties share a position;
 * nothing rounded here (precision is the renderer's). Pure.
 */

const count = z.number();
const nullable = z.number().nullable();

const NcSexSchema = z.object({ assessed: count, meanTotal: nullable, meanScore: nullable });
export type NcAnalysisSex = z.infer<typeof NcSexSchema>;

export const NcAnalysisSubjectSchema = z.object({
  subject_id: z.string(),
  subject: z.string(),
  /** The subject teacher's initials, as the cards print them (the first found). */
  teacher: z.string().nullable(),
  /** Learners with a grade in the subject (a total out of 100). */
  assessed: count,
  /** Learners whose card shows the subject without a grade because the exam is ABS: never an E nor 0. */
  absent: count,
  /** Learners whose card shows the subject without a grade otherwise (an exam mark or every competency score not entered). */
  missing: count,
  /** Learners per grade (every grade of the table, 0 when none). */
  grades: z.record(z.string(), count),
  /** Learners with a subject score (and so an identifier). */
  scored: count,
  /** Learners per identifier label (every identifier, 0 when none). */
  identifiers: z.record(z.string(), count),
  /** Mean subject score out of 3 of those scored. */
  meanScore: nullable,
  /** Mean total out of 100 of those assessed. */
  meanTotal: nullable,
  /** % of those assessed at the satisfactory grade (C) or better. */
  satisfactory: nullable,
  /** % of those assessed at the pass grade (D) or better: every grade but the last. */
  pass: nullable,
  /** Rank by mean total, higher better, ties sharing a rank; null when nobody was assessed. */
  position: nullable,
  boys: NcSexSchema,
  girls: NcSexSchema,
});
export type NcAnalysisSubject = z.infer<typeof NcAnalysisSubjectSchema>;

const OverallRowSchema = z.object({ count, boys: count, girls: count });

export const NcAnalysisSchema = z.object({
  /** The grades best first (the school's A..E table), with their descriptors. */
  grades: z.array(z.object({ grade: z.string(), descriptor: z.string() })),
  /** The identifiers best first: value 3 Outstanding, 2 Moderate, 1 Basic by default. */
  identifiers: z.array(z.object({ value: z.number(), label: z.string() })),
  /** The grade the satisfactory % counts from (C), and the pass % (D); null for a table too short. */
  satisfactoryGrade: z.string().nullable(),
  passGrade: z.string().nullable(),
  subjects: z.array(NcAnalysisSubjectSchema),
  /** The class's overall achievement: learners per overall grade (mean of totals) and per overall identifier (mean of scores). */
  overall: z.object({
    grades: z.array(OverallRowSchema.extend({ grade: z.string() })),
    /** Learners without an overall grade (no subject with a total). */
    ungraded: OverallRowSchema,
    identifiers: z.array(OverallRowSchema.extend({ value: z.number(), label: z.string() })),
    /** Learners without an overall identifier (no subject score). */
    unscored: OverallRowSchema,
    meanTotal: nullable,
    meanScore: nullable,
  }),
});
export type NcAnalysis = z.infer<typeof NcAnalysisSchema>;

/** A learner of the class analysed: their card as the new-curriculum grader made it, with what it was made from. */
export interface NcAnalysisLearner {
  id: string;
  gender: 'F' | 'M' | null;
  /** The learner's subjects as the card read them (the exam's ABS is read here). */
  inputs: ReadonlyArray<NcSubjectInput>;
  result: NcLearnerResult;
  /** The learner's subject teachers' initials by subject id, as the card prints them. */
  initials?: ReadonlyMap<string, string>;
}

export interface NcAnalysisOptions {
  rules: NcRules;
  /** The class's subjects in the school's order: a row each. */
  subjects: ReadonlyArray<{ id: string; name: string }>;
}

const percent = (part: number, of: number): number | null => (of === 0 ? null : (part * 100) / of);
const meanOf = (values: ReadonlyArray<Exact>) => toNumber(exactMean(values));

/** Ranks by a higher-better exact score, ties sharing a rank ("1, 2, 2, 4"); null scores are unranked. */
export function rankHigherBetter(scores: ReadonlyArray<Exact | null>): Array<number | null> {
  return scores.map((score) =>
    score === null ? null : 1 + scores.filter((other) => other !== null && compareExact(other, score) > 0).length,
  );
}

/** A row of learners counted by sex. */
const tally = (learners: ReadonlyArray<{ gender: 'F' | 'M' | null }>) => ({
  count: learners.length,
  boys: learners.filter((each) => each.gender === 'M').length,
  girls: learners.filter((each) => each.gender === 'F').length,
});

/** The new-curriculum result analysis of a class's learners (see the file's comment). */
export function ncResultAnalysis(learners: ReadonlyArray<NcAnalysisLearner>, options: NcAnalysisOptions): NcAnalysis {
  const { rules } = options;
  const letters = rules.grades.map((band) => band.grade);
  const rankOf = new Map(letters.map((letter, index) => [letter, index]));
  // C or better: the top three of A..E (all but the lowest two); D or better: all but the lowest (the certificate preview's pass).
  const satisfactoryAt = letters.length >= 3 ? letters.length - 3 : null;
  const passAt = letters.length >= 2 ? letters.length - 2 : null;
  const atOrAbove = (grade: string, at: number | null) => at !== null && (rankOf.get(grade) ?? Number.POSITIVE_INFINITY) <= at;
  const identifierLabels = rules.identifiers.map((band) => band.label);

  const rows = options.subjects.map((subject) => {
    const assessed: Array<{ gender: 'F' | 'M' | null; total: Exact; grade: string }> = [];
    const scored: Array<{ gender: 'F' | 'M' | null; score: Exact; identifier: string | null }> = [];
    let absent = 0;
    let missing = 0;
    let teacher: string | null = null;
    for (const learner of learners) {
      const found = learner.result.subjects.find((each) => each.subject_id === subject.id);
      if (!found) continue;
      teacher ??= learner.initials?.get(subject.id) ?? null;
      if (found.score) scored.push({ gender: learner.gender, score: found.score, identifier: found.identifier?.label ?? null });
      if (found.total && found.grade) assessed.push({ gender: learner.gender, total: found.total, grade: found.grade.grade });
      else if (learner.inputs.find((input) => input.subject_id === subject.id)?.exam?.mark === ABSENT) absent += 1;
      else missing += 1;
    }
    const grades: Record<string, number> = Object.fromEntries(letters.map((letter) => [letter, 0]));
    for (const each of assessed) grades[each.grade] = (grades[each.grade] ?? 0) + 1;
    const identifiers: Record<string, number> = Object.fromEntries(identifierLabels.map((label) => [label, 0]));
    for (const each of scored) if (each.identifier !== null) identifiers[each.identifier] = (identifiers[each.identifier] ?? 0) + 1;
    const sex = (gender: 'F' | 'M'): NcAnalysisSex => {
      const own = assessed.filter((each) => each.gender === gender);
      return {
        assessed: own.length,
        meanTotal: meanOf(own.map((each) => each.total)),
        meanScore: meanOf(scored.filter((each) => each.gender === gender).map((each) => each.score)),
      };
    };
    const exactTotal = exactMean(assessed.map((each) => each.total));
    const row: NcAnalysisSubject = {
      subject_id: subject.id,
      subject: subject.name,
      teacher,
      assessed: assessed.length,
      absent,
      missing,
      grades,
      scored: scored.length,
      identifiers,
      meanScore: meanOf(scored.map((each) => each.score)),
      meanTotal: toNumber(exactTotal),
      satisfactory: percent(assessed.filter((each) => atOrAbove(each.grade, satisfactoryAt)).length, assessed.length),
      pass: percent(assessed.filter((each) => atOrAbove(each.grade, passAt)).length, assessed.length),
      position: null,
      boys: sex('M'),
      girls: sex('F'),
    };
    return { row, exactTotal };
  });
  const ranks = rankHigherBetter(rows.map((each) => each.exactTotal));
  rows.forEach((each, index) => {
    each.row.position = ranks[index] ?? null;
  });

  const overallGrades = letters.map((grade) => ({
    grade,
    ...tally(learners.filter((learner) => learner.result.overall.grade?.grade === grade)),
  }));
  const overallIdentifiers = rules.identifiers.map((band, index) => ({
    value: rules.identifiers.length - index,
    label: band.label,
    ...tally(learners.filter((learner) => learner.result.overall.identifier?.label === band.label)),
  }));
  const totals = learners.flatMap((learner) => (learner.result.overall.total ? [learner.result.overall.total] : []));
  const scores = learners.flatMap((learner) => (learner.result.overall.score ? [learner.result.overall.score] : []));
  return {
    grades: rules.grades.map((band) => ({ grade: band.grade, descriptor: band.descriptor })),
    identifiers: rules.identifiers.map((band, index) => ({ value: rules.identifiers.length - index, label: band.label })),
    satisfactoryGrade: satisfactoryAt === null ? null : (letters[satisfactoryAt] ?? null),
    passGrade: passAt === null ? null : (letters[passAt] ?? null),
    subjects: rows.map((each) => each.row),
    overall: {
      grades: overallGrades,
      ungraded: tally(learners.filter((learner) => !learner.result.overall.grade)),
      identifiers: overallIdentifiers,
      unscored: tally(learners.filter((learner) => !learner.result.overall.identifier)),
      meanTotal: meanOf(totals),
      meanScore: meanOf(scores),
    },
  };
}

/** The new-curriculum analysis's words (a school document, in the school's language as the cards are). */
export const NC_ANALYSIS_WORDS = {
  curriculum: 'New curriculum: grades A..E and identifiers, no divisions',
  exam: 'Summative exam',
  assessed: 'Graded',
  absent: 'ABS',
  missing: 'Missing',
  scored: 'Scored',
  meanScore: 'Mean score /3',
  meanTotal: 'Mean /100',
  grades: 'Grades',
  identifiers: 'Identifiers',
  overall: 'Overall achievement',
  overallGrades: 'Learners per overall grade (mean of the totals)',
  overallIdentifiers: 'Learners per overall identifier (mean of the scores)',
  noGrade: 'No grade',
  noScore: 'No score',
  all: 'All',
  key: 'Identifiers',
} as const;

/** A share's column: "% C+" (the grade or better). */
export const ncAtLeastWord = (grade: string | null) => `% ${grade ?? '-'}+`;

/** An identifier's column: "3 Outstanding". */
export const ncIdentifierWord = (identifier: { value: number; label: string }) => `${identifier.value} ${identifier.label}`;

/** How each new-curriculum column is computed (guides statistics.md, new-curriculum.md), by column name. */
export const NC_ANALYSIS_EXPLAIN: Record<string, string> = {
  assessed: 'learners with a grade in the subject: a total out of 100 (formative /20 + summative /80), graded as the cards grade it',
  absent: 'learners whose card shows the subject without a grade because the exam is ABS: never an E nor 0',
  missing: 'learners whose card shows the subject without a grade otherwise: an exam mark or every competency score not entered',
  scored: 'learners with a subject score (the mean of the competencies’ scores), so an identifier',
  identifiers: 'learners per identifier of their subject score (3 Outstanding, 2 Moderate, 1 Basic by the school’s bands)',
  meanScore: 'sum of the subject scores / N scored (out of 3)',
  meanTotal: 'sum of the totals / N graded (out of 100)',
  satisfactory: '% of those graded at the satisfactory grade (C) or better',
  pass: '% of those graded at D or better (every grade but the last, as the S4 certificate preview counts a pass)',
  position: 'rank by mean total, higher better; ties share a rank',
  overall: 'each learner’s overall grade from the mean of their totals, and identifier from the mean of their scores',
};
