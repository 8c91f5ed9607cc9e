/*
 * Why a number is what it is (guide grading.md: "a published result keeps the rule set it was
 * computed with, so it can be recomputed and explained later"). An explanation is data, not
 * prose: a code from a closed list, the numbers it speaks of, and the explanations it rests on.
 * The web translates each code; explainText gives the English sentence (the PDF, the tests).
 */

/** Every kind of explanation the engine gives. A new code needs a sentence in explainText. */
export const EXPLANATION_CODES = [
  // Marks to a subject total
  'mark.scaled',
  'mark.absent',
  'mark.missing',
  'mark.missedReweighted',
  'mark.missedZero',
  'subjectTotal.weighted',
  'subjectTotal.reweighted',
  'subjectTotal.missedZero',
  'subjectTotal.rounded',
  'subjectTotal.weightedPart',
  'subjectTotal.proportionsNot100',
  'subjectTotal.notWeighted',
  'subjectTotal.single',
  'subjectTotal.average',
  'subjectTotal.leftOut',
  'subjectTotal.incomplete',
  'subjectTotal.noMarks',
  'subjectTotal.proportionsOfOtherExams',
  'subjectTotal.papers',
  // Subject total to a grade
  'grade.band',
  'grade.noBand',
  'grade.noMark',
  'grade.unknownLabel',
  'gradeSet.none',
  'gradeSet.gap',
  // Primary (PLE)
  'primary.subject',
  'primary.subjectNoMark',
  'primary.categoryMissing',
  'primary.notCounted',
  'primary.aggregate',
  'primary.division',
  'primary.divisionNoMark',
  'primary.divisionNone',
  // O level (UCE)
  'olevel.subjectCounted',
  'olevel.subjectLeftOut',
  'olevel.subjectNoMark',
  'olevel.aggregate',
  'olevel.noGradedSubject',
  'olevel.division',
  'olevel.divisionNone',
  'olevel.divisionTried',
  'olevel.condition.aggregate',
  'olevel.condition.subjects',
  'olevel.condition.category',
  'olevel.condition.creditIn',
  'olevel.condition.anyOf',
  'olevel.condition.passesCredits',
  // A level (UACE)
  'alevel.paper',
  'alevel.paperNoMark',
  'alevel.incomplete',
  'alevel.rule',
  'alevel.otherwise',
  'alevel.tableOfFewerPapers',
  'alevel.noTable',
  'alevel.schoolScore',
  'alevel.schoolScoreMissing',
  'alevel.points',
  'alevel.principal',
  'alevel.subsidiary',
  'alevel.subsidiaryNoMark',
  'alevel.totalPoints',
  // A learner's totals
  'learner.total',
  'learner.average',
  'learner.noTotal',
  // Positions and means
  'position.rank',
  'position.incompleteAfter',
  'position.unranked',
  'position.unrankedIncomplete',
  'mean.value',
  'mean.none',
  // The new curriculum (S1-S4)
  'nc.topic',
  'nc.topicAbsent',
  'nc.topicNoScore',
  'nc.subjectScore',
  'nc.subjectNoScore',
  'nc.formative',
  'nc.formativeWithProject',
  'nc.formativeNoProject',
  'nc.formativeDisabled',
  'nc.summative',
  'nc.examAbsent',
  'nc.examMissing',
  'nc.total',
  'nc.totalExamOnly',
  'nc.totalIncomplete',
  'nc.grade',
  'nc.overallScore',
  'nc.overallTotal',
  'nc.certificate1',
  'nc.certificate2',
  'nc.certificate3',
] as const;
export type ExplanationCode = (typeof EXPLANATION_CODES)[number];

/** A value an explanation speaks of: a number, a label, a yes/no, or nothing (no mark). */
export type ExplanationParam = string | number | boolean | null | ReadonlyArray<string | number>;

export interface Explanation {
  code: ExplanationCode;
  params: Record<string, ExplanationParam>;
  /** The explanations this one rests on, in reading order. */
  parts?: Explanation[];
}

/** A computed value with the reason for it. */
export interface Explained<Value> {
  value: Value;
  explain: Explanation;
}

/** Builds an explanation, leaving `parts` out when there are none (tests compare shapes). */
export function explanation(code: ExplanationCode, params: Record<string, ExplanationParam> = {}, parts?: Explanation[]): Explanation {
  return parts && parts.length > 0 ? { code, params, parts } : { code, params };
}

/**
 * Numbers as a report prints them: at most two decimals, no trailing zeros, cut rather than
 * rounded (printedNumber), so that a total of 59.996 never reads as the 60 its grade is not.
 */
function show(value: ExplanationParam | undefined): string {
  if (value === null || value === undefined) return '-';
  if (typeof value === 'number') return String(printedNumber(value));
  if (Array.isArray(value)) return value.map((item) => show(item)).join(', ');
  return String(value);
}

/**
 * A number as printed: cut to two decimals (towards zero), not rounded. Band bounds have at most
 * two decimals, so a printed mark reaches a bound exactly when the mark itself does: 59.996 prints
 * 59.99 beside its C6, never 60. The small allowance keeps a float such as 0.29 (0.28999...) at
 * 0.29; the exact values handed out are never that close to a cut.
 */
export function printedNumber(value: number): number {
  const cut = Math.trunc(value * 100 + (value < 0 ? -1e-7 : 1e-7)) / 100;
  return cut === 0 ? 0 : cut;
}

/** "1 point", "5 points". */
const points = (value: ExplanationParam | undefined) => `${show(value)} ${value === 1 ? 'point' : 'points'}`;

type Sentence = (p: Record<string, ExplanationParam>) => string;

/** The English sentence of each code; a Record so that a code without a sentence fails to compile. */
const SENTENCES: Record<ExplanationCode, Sentence> = {
  'mark.scaled': (p) => `${show(p.markType)}: ${show(p.raw)} out of ${show(p.maximum)} is ${show(p.percent)}%.`,
  'mark.absent': (p) => `${show(p.markType)}: absent (ABS), not counted as 0.`,
  'mark.missing': (p) => `${show(p.markType)}: no mark entered, not counted as 0.`,
  'mark.missedReweighted': (p) =>
    `${show(p.markType)}: ${p.absent ? 'absent (ABS)' : 'no mark entered'}, missed: the mark types sat are re-weighted.`,
  'mark.missedZero': (p) =>
    `${show(p.markType)}: ${p.absent ? 'absent (ABS)' : 'no mark entered'}, missed: counted as 0 (the school's rule).`,
  'subjectTotal.reweighted': (p) =>
    `The total ${show(p.total)} re-weights the mark types sat (${show(p.markTypes)} missed): their weighted marks, ${show(p.sum)} out of their proportions of ${show(p.sat)}%, scaled up to ${show(p.whole)}% (${show(p.sum)} / ${show(p.sat)} × ${show(p.whole)}).`,
  'subjectTotal.missedZero': (p) =>
    `The total ${show(p.total)} is the sum of each mark type weighted by its proportion, ${show(p.markTypes)} missed counting 0.`,
  'subjectTotal.rounded': (p) =>
    `The mark ${show(p.total)} is the total ${show(p.exact)} rounded half up to ${p.to === 'whole' ? 'a whole number' : 'one decimal'}; the school grades the rounded mark.`,
  'subjectTotal.weighted': (p) => `The total ${show(p.total)} is the sum of each mark type weighted by its proportion.`,
  'subjectTotal.weightedPart': (p) =>
    `${show(p.markType)}: ${show(p.percent)}% weighted ${show(p.proportion)}% gives ${show(p.contribution)}.`,
  'subjectTotal.proportionsNot100': (p) => `The proportions add up to ${show(p.sum)}%, not 100%; the total is not scaled.`,
  'subjectTotal.notWeighted': (p) => `${show(p.markType)} has no proportion and is not part of the total.`,
  'subjectTotal.single': (p) => `The total ${show(p.total)} is the ${show(p.markType)} mark.`,
  'subjectTotal.average': (p) => `The total ${show(p.total)} is the average of ${show(p.count)} marks: ${show(p.marks)}.`,
  'subjectTotal.leftOut': (p) => `${show(p.markType)} has no mark and is left out of the average.`,
  'subjectTotal.incomplete': (p) => `No total: ${show(p.markTypes)} has no mark, and a missing mark is not counted as 0.`,
  'subjectTotal.noMarks': () => 'No total: there is no mark.',
  'subjectTotal.proportionsOfOtherExams': (p) =>
    `The proportions also weigh ${show(p.markTypes)}, which this report does not cover: the marks shown are averaged instead.`,
  'subjectTotal.papers': (p) => `The total ${show(p.total)} is the average of the ${show(p.count)} papers: ${show(p.marks)}.`,
  'nc.topic': (p) => `${show(p.title)}: the mean of its activities of integration (${show(p.aois)}) is ${show(p.score)}.`,
  'nc.topicAbsent': (p) => `${show(p.title)}: absent from every activity of integration, so no score.`,
  'nc.topicNoScore': (p) => `${show(p.title)}: no activity of integration scored yet.`,
  'nc.subjectScore': (p) => `The mean of the competency scores (${show(p.scores)}) is ${show(p.score)}: ${show(p.identifier)}.`,
  'nc.subjectNoScore': () => 'No competency scored, so no score.',
  'nc.formative': (p) => `Formative: ${show(p.score)} out of 3 is ${show(p.formative)} out of 20.`,
  'nc.formativeWithProject': (p) =>
    `Formative: ${show(p.score)} out of 3 is half of 20, the project's ${show(p.project)} out of ${show(p.max)} the other half: ${show(p.formative)} out of 20.`,
  'nc.formativeNoProject': (p) => `Formative: no project score, so ${show(p.score)} out of 3 alone makes ${show(p.formative)} out of 20.`,
  'nc.formativeDisabled': () => 'Formative scores are left out: the exam alone counts.',
  'nc.summative': (p) =>
    `Summative: ${show(p.mark)} out of ${show(p.outof)} is ${show(p.percent)}%, which is ${show(p.summative)} out of 80.`,
  'nc.examAbsent': () => 'Absent from the exam (ABS): no summative part, never 0.',
  'nc.examMissing': () => 'No exam mark yet: no summative part.',
  'nc.total': (p) => `Total: ${show(p.formative)} + ${show(p.summative)} = ${show(p.total)} out of 100.`,
  'nc.totalExamOnly': (p) => `Total: the exam alone, ${show(p.total)}%.`,
  'nc.totalIncomplete': () => 'A part is missing, so no total.',
  'nc.grade': (p) => `${show(p.total)} is at least ${show(p.atLeast)}: grade ${show(p.grade)}.`,
  'nc.overallScore': (p) => `The mean of ${show(p.count)} subject scores is ${show(p.score)}: ${show(p.identifier)}.`,
  'nc.overallTotal': (p) => `The mean of ${show(p.count)} subject totals is ${show(p.total)}: grade ${show(p.grade)}.`,
  'nc.certificate1': (p) =>
    `Result 1: ${show(p.passing)} subjects at D or better, ${show(p.graded)} subjects graded with the compulsory ones, and a project score.`,
  'nc.certificate2': (p) =>
    `Result 2: a condition of Result 1 is missing (${show(p.graded)} subjects graded, ${show(p.passing)} at D or better, compulsory subjects ${p.compulsory ? 'graded' : 'not all graded'}, ${p.project ? 'a project score' : 'no project score'}).`,
  'nc.certificate3': () => 'Result 3: every subject is graded E.',
  'grade.band': (p) => `${show(p.mark)} is in ${show(p.grade)} (${show(p.lower)} to ${show(p.upper)}), value ${show(p.value)}.`,
  'grade.noBand': (p) => `${show(p.mark)} is below every band of the grade set: no grade.`,
  'grade.noMark': () => 'No mark, so no grade.',
  'grade.unknownLabel': (p) => `The grade ${show(p.grade)} has no value in the grading rules.`,
  'gradeSet.none': (p) => `${show(p.subject)} has no grade set for this class and term: its marks have no grade.`,
  'gradeSet.gap': (p) => `The grade set of ${show(p.subject)} gives no grade to marks from ${show(p.from)} to ${show(p.to)}.`,
  'primary.subject': (p) => `${show(p.subject)}: grade value ${show(p.value)}.`,
  'primary.subjectNoMark': (p) => `${show(p.subject)} has no mark (${show(p.reason)}).`,
  'primary.categoryMissing': (p) => `No ${show(p.category)} subject is counted.`,
  'primary.notCounted': (p) =>
    `${show(p.subject)} is not counted: one ${show(p.category)} subject counts, the best graded (${show(p.counted)}).`,
  'primary.aggregate': (p) => `Aggregate ${show(p.aggregate)}: the sum of the grade values ${show(p.values)}.`,
  'primary.division': (p) => `Aggregate ${show(p.aggregate)} is at most ${show(p.atMost)}: Division ${show(p.division)}.`,
  'primary.divisionNoMark': (p) => `A counted subject has no mark: Division ${show(p.division)}.`,
  'primary.divisionNone': (p) => `Aggregate ${show(p.aggregate)} is above ${show(p.atMost)}: Division ${show(p.division)}.`,
  'olevel.subjectCounted': (p) => `${show(p.subject)}: grade value ${show(p.value)}, among the best ${show(p.best)}.`,
  'olevel.subjectLeftOut': (p) => `${show(p.subject)}: grade value ${show(p.value)}, not among the best ${show(p.best)}.`,
  'olevel.subjectNoMark': (p) => `${show(p.subject)} has no mark (${show(p.reason)}) and is not counted.`,
  'olevel.aggregate': (p) => `Aggregate ${show(p.aggregate)}: the sum of the best ${show(p.counted)} of ${show(p.graded)} graded subjects.`,
  'olevel.noGradedSubject': (p) => `No subject has a mark: no aggregate, Division ${show(p.division)}.`,
  'olevel.division': (p) => `Division ${show(p.division)}: the first division whose conditions all hold.`,
  'olevel.divisionNone': (p) => `No division's conditions hold: ${show(p.division)}.`,
  'olevel.divisionTried': (p) => `Division ${show(p.division)}: ${p.held ? 'every condition holds' : 'a condition fails'}.`,
  'olevel.condition.aggregate': (p) => `Aggregate ${show(p.aggregate)} ${p.held ? 'is' : 'is not'} at most ${show(p.atMost)}.`,
  'olevel.condition.subjects': (p) => `${show(p.count)} graded subjects, ${p.held ? 'at least' : 'fewer than'} ${show(p.atLeast)}.`,
  'olevel.condition.category': (p) => `${p.held ? 'A' : 'No'} ${show(p.category)} subject is graded.`,
  'olevel.condition.creditIn': (p) =>
    `${show(p.category)} ${p.held ? 'is' : 'is not'} a credit (grade value ${show(p.value)}, credit at most ${show(p.atMost)}).`,
  'olevel.condition.anyOf': (p) => (p.held ? 'One of the alternatives holds.' : 'None of the alternatives holds.'),
  'olevel.condition.passesCredits': (p) =>
    `At least ${show(p.minPasses)} passes with at least ${show(p.minCredits)} credits (has ${show(p.passes)} passes, ${show(p.credits)} credits): ${p.held ? 'holds' : 'fails'}.`,
  'alevel.paper': (p) => `Paper ${show(p.paper)}: grade value ${show(p.value)}.`,
  'alevel.paperNoMark': (p) => `Paper ${show(p.paper)} has no mark (${show(p.reason)}).`,
  'alevel.incomplete': (p) => `${show(p.missing)} of ${show(p.papers)} papers have no mark: no subject grade.`,
  'alevel.rule': (p) => `${show(p.papers)} papers with values ${show(p.values)}: ${show(p.letter)} (${show(p.rule)}).`,
  'alevel.otherwise': (p) => `${show(p.papers)} papers with values ${show(p.values)}: no rule holds, so ${show(p.letter)}.`,
  'alevel.tableOfFewerPapers': (p) =>
    `There is no table for ${show(p.papers)} papers; the table for ${show(p.tablePapers)} papers is used.`,
  'alevel.noTable': (p) => `There is no table for ${show(p.papers)} papers: no subject grade.`,
  'alevel.schoolScore': (p) => `The school's A-level scores: ${show(p.papers)} papers totalling ${show(p.total)} score ${show(p.letter)}.`,
  'alevel.schoolScoreMissing': (p) =>
    `The school's A-level scores for ${show(p.papers)} papers have no row for a total of ${show(p.total)}: no subject grade.`,
  'alevel.principal': (p) =>
    p.letter === null
      ? `${show(p.subject)}: no subject grade, 0 points.`
      : `${show(p.subject)}: ${show(p.letter)}, worth ${points(p.points)}.`,
  'alevel.points': (p) => `${show(p.letter)} is worth ${points(p.points)}.`,
  'alevel.subsidiary': (p) =>
    `${show(p.subject)} (subsidiary): grade value ${show(p.value)} ${p.held ? 'is' : 'is not'} at most ${show(p.atMost)}, ${points(p.points)}.`,
  'alevel.subsidiaryNoMark': (p) => `${show(p.subject)} (subsidiary) has a paper without a mark: 0 points.`,
  'alevel.totalPoints': (p) => `Total ${points(p.total)} from ${show(p.subjects)} subjects.`,
  'learner.total': (p) => `Total ${show(p.total)}: the sum of ${show(p.count)} subject totals.`,
  'learner.average': (p) => `Average ${show(p.average)}: the total ${show(p.total)} over ${show(p.count)} subjects.`,
  'learner.noTotal': () => 'No total: no subject has a total.',
  'position.rank': (p) =>
    `Position ${show(p.rank)} out of ${show(p.outOf)}, ranked by ${show(p.by)} (${p.lowerFirst ? 'lower' : 'higher'} first): ${show(p.score)}${
      p.total === null ? '' : `, ties broken by the total ${show(p.total)}`
    }${Number(p.tied) > 1 ? `; shared by ${show(p.tied)}` : ''}.`,
  'position.incompleteAfter': (p) =>
    `Position ${show(p.rank)} out of ${show(p.outOf)}: the result is incomplete (a counted subject has no mark), so it follows every complete result, by the total ${show(p.total)}${Number(p.tied) > 1 ? `; shared by ${show(p.tied)}` : ''}.`,
  'position.unranked': () => 'No position: no total to rank by.',
  'position.unrankedIncomplete': () =>
    'No position: the result is incomplete (a counted subject has no mark), and the school does not rank incomplete results.',
  'mean.value': (p) => `Mean ${show(p.mean)}: ${show(p.sum)} over ${show(p.count)} learners.`,
  'mean.none': () => 'No mean: no learner has a total.',
};

/** The English sentence of an explanation, followed by those of its parts when `deep`. */
export function explainText(explained: Explanation, deep = false): string {
  const own = SENTENCES[explained.code](explained.params);
  if (!deep || !explained.parts) return own;
  return [own, ...explained.parts.map((part) => explainText(part, true))].join(' ');
}
