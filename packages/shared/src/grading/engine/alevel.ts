import { type Explained, type Explanation, explanation } from './explain.js';
import { type GradeValue, noMarkReason } from './graded-subject.js';
import {
  type AlevelLetter,
  type AlevelRule,
  type AlevelTable,
  DEFAULT_GRADING_RULES,
  type GradingRules,
  type SubjectCategory,
} from './rules.js';

/*
 * A level (UACE style, guide grading.md): each paper has a grade value (1..9); the subject's
 * letter follows from them, either by the school's own "A-level scores" (the sum of the paper
 * values, when the school has rows for that many papers) or by the letter table for that many
 * papers (rules.ts: ordered rules over the sorted values, the first that holds decides).
 * A paper without a mark (ABS or nothing) leaves the subject without a letter: the rules are
 * about every paper written, and a letter from fewer papers would overstate the learner.
 */

export interface AlevelPaper {
  paper: string;
  value: GradeValue;
}

/** The words of a rule for the explanation, e.g. "worst at most 3, others at most 2". */
function describeRule(rule: AlevelRule): string {
  const conditions: string[] = [];
  if (rule.worstAtMost !== undefined) conditions.push(`worst at most ${rule.worstAtMost}`);
  if (rule.othersAtMost !== undefined) conditions.push(`others at most ${rule.othersAtMost}`);
  if (rule.sumAtMost !== undefined) conditions.push(`sum at most ${rule.sumAtMost}`);
  return conditions.join(', ');
}

/** Whether a rule holds for paper values sorted best (lowest) first. */
export function alevelRuleHolds(rule: AlevelRule, sortedValues: readonly number[]): boolean {
  const worst = sortedValues[sortedValues.length - 1] ?? 0;
  const others = sortedValues.slice(0, -1);
  const sum = sortedValues.reduce((total, value) => total + value, 0);
  if (rule.worstAtMost !== undefined && worst > rule.worstAtMost) return false;
  if (rule.othersAtMost !== undefined && others.some((value) => value > rule.othersAtMost!)) return false;
  if (rule.sumAtMost !== undefined && sum > rule.sumAtMost) return false;
  return true;
}

/** The table for a number of papers, or, past the last table, the one for the most papers below it. */
function tableFor(papers: number, tables: ReadonlyArray<AlevelTable>): AlevelTable | undefined {
  const exact = tables.find((table) => table.papers === papers);
  if (exact) return exact;
  return tables.filter((table) => table.papers < papers).sort((a, b) => b.papers - a.papers)[0];
}

/** The letter of a principal subject from its paper values (see the file's comment). */
export function alevelSubjectLetter(
  papers: ReadonlyArray<AlevelPaper>,
  rules: GradingRules = DEFAULT_GRADING_RULES,
): Explained<AlevelLetter | null> {
  const paperParts: Explanation[] = [];
  const values: number[] = [];
  let complete = papers.length > 0;
  for (const paper of papers) {
    if (typeof paper.value === 'number') {
      values.push(paper.value);
      paperParts.push(explanation('alevel.paper', { paper: paper.paper, value: paper.value }));
    } else {
      complete = false;
      paperParts.push(explanation('alevel.paperNoMark', { paper: paper.paper, reason: noMarkReason(paper.value) }));
    }
  }
  const count = papers.length;
  if (!complete)
    return { value: null, explain: explanation('alevel.incomplete', { papers: count, missing: count - values.length }, paperParts) };
  const sorted = [...values].sort((a, b) => a - b);
  const total = sorted.reduce((sum, value) => sum + value, 0);

  const schoolRows = rules.alevel.schoolScores.filter((row) => row.papers === count);
  if (schoolRows.length > 0) {
    const row = schoolRows.find((candidate) => candidate.total === total);
    if (!row) return { value: null, explain: explanation('alevel.schoolScoreMissing', { papers: count, total }, paperParts) };
    return { value: row.score, explain: explanation('alevel.schoolScore', { papers: count, total, letter: row.score }, paperParts) };
  }

  const table = tableFor(count, rules.alevel.tables);
  if (!table) return { value: null, explain: explanation('alevel.noTable', { papers: count }, paperParts) };
  const parts =
    table.papers === count
      ? paperParts
      : [explanation('alevel.tableOfFewerPapers', { papers: count, tablePapers: table.papers }), ...paperParts];
  const rule = table.rules.find((candidate) => alevelRuleHolds(candidate, sorted));
  if (rule) {
    return {
      value: rule.letter,
      explain: explanation('alevel.rule', { papers: count, values: sorted, letter: rule.letter, rule: describeRule(rule) }, parts),
    };
  }
  return {
    value: table.otherwise,
    explain: explanation('alevel.otherwise', { papers: count, values: sorted, letter: table.otherwise }, parts),
  };
}

/** The points of a letter (A 6 .. F 0 by default). */
export function alevelPoints(letter: AlevelLetter, rules: GradingRules = DEFAULT_GRADING_RULES): Explained<number> {
  const points = rules.alevel.points[letter];
  return { value: points, explain: explanation('alevel.points', { letter, points }) };
}

/**
 * The points of a subsidiary (General Paper, Sub-Math, Sub-ICT): the school's points (1) when
 * the grade value is at most the threshold (C6), else 0. A subsidiary written in several papers
 * is judged by its worst paper (every paper must reach the threshold), and one with a paper
 * without a mark earns nothing.
 */
export function alevelSubsidiaryPoints(
  subject: string,
  papers: ReadonlyArray<AlevelPaper>,
  rules: GradingRules = DEFAULT_GRADING_RULES,
): Explained<number> {
  const values = papers.map((paper) => paper.value);
  if (values.length === 0 || values.some((value) => typeof value !== 'number')) {
    return { value: 0, explain: explanation('alevel.subsidiaryNoMark', { subject }) };
  }
  const value = Math.max(...(values as number[]));
  const { creditAtMost, points } = rules.alevel.subsidiary;
  const held = value <= creditAtMost;
  const earned = held ? points : 0;
  return { value: earned, explain: explanation('alevel.subsidiary', { subject, value, atMost: creditAtMost, held, points: earned }) };
}

export interface AlevelSubject {
  subject: string;
  category: SubjectCategory | null;
  papers: AlevelPaper[];
}

export interface AlevelSubjectResult {
  subject: string;
  kind: 'principal' | 'subsidiary';
  /** A principal's letter (null when a paper has no mark); a subsidiary has none. */
  letter: AlevelLetter | null;
  points: number;
  explain: Explanation;
}

export interface AlevelResult {
  subjects: AlevelSubjectResult[];
  totalPoints: number;
}

/**
 * A learner's A-level result: each subject of a subsidiary category (General Paper, subsidiary)
 * earns subsidiary points, every other subject is a principal with a letter and its points;
 * the total is their sum (3 principals + GP + a subsidiary: at most 20 by default). A principal
 * without a letter earns 0 points, and its explanation says why.
 */
export function alevelResult(subjects: ReadonlyArray<AlevelSubject>, rules: GradingRules = DEFAULT_GRADING_RULES): Explained<AlevelResult> {
  const results: AlevelSubjectResult[] = subjects.map((subject) => {
    if (subject.category !== null && rules.alevel.subsidiary.categories.includes(subject.category)) {
      const points = alevelSubsidiaryPoints(subject.subject, subject.papers, rules);
      return { subject: subject.subject, kind: 'subsidiary', letter: null, points: points.value, explain: points.explain };
    }
    const letter = alevelSubjectLetter(subject.papers, rules);
    const points = letter.value === null ? 0 : alevelPoints(letter.value, rules).value;
    return {
      subject: subject.subject,
      kind: 'principal',
      letter: letter.value,
      points,
      explain: explanation('alevel.principal', { subject: subject.subject, letter: letter.value, points }, [letter.explain]),
    };
  });
  const totalPoints = results.reduce((sum, result) => sum + result.points, 0);
  return {
    value: { subjects: results, totalPoints },
    explain: explanation(
      'alevel.totalPoints',
      { total: totalPoints, subjects: results.length },
      results.map((result) => result.explain),
    ),
  };
}
