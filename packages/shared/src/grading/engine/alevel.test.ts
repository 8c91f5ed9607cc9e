import { describe, expect, it } from 'vitest';
import { ABSENT } from '../../marks/cells.js';
import { alevelPoints, alevelResult, alevelSubjectLetter, alevelSubsidiaryPoints } from './alevel.js';
import { explainText } from './explain.js';
import { DEFAULT_GRADING_RULES, type GradingRules, GradingRulesSchema } from './rules.js';

const papers = (...values: Array<number | typeof ABSENT | null>) => values.map((value, index) => ({ paper: String(index + 1), value }));
const letterOf = (values: number[], rules?: GradingRules) => alevelSubjectLetter(papers(...values), rules).value;

/** A copy of the defaults with one part changed, checked by the schema as a save would be. */
function schoolRules(change: (rules: GradingRules) => void): GradingRules {
  const rules = structuredClone(DEFAULT_GRADING_RULES);
  change(rules);
  return GradingRulesSchema.parse(rules);
}

describe('A-level subject letters: every example of grading.md', () => {
  it.each([
    [[1, 3], 'B'],
    [[4, 4], 'C'],
    [[1, 6], 'E'],
    [[4, 8], 'E'],
    [[6, 7], 'O'],
    [[1, 9], 'O'],
    [[8, 9], 'F'],
    [[9, 9], 'F'],
    [[2, 2, 3], 'A'],
    [[3, 3, 4], 'B'],
    [[1, 1, 7], 'E'],
    [[5, 6, 8], 'E'],
    [[7, 7, 7], 'O'],
    [[8, 8, 8], 'O'],
    [[1, 1, 9], 'O'],
    [[1, 7, 7], 'O'],
    [[1, 9, 9], 'F'],
    [[9, 9, 9], 'F'],
    [[8, 8, 9], 'F'],
    [[1, 8, 9], 'F'],
    [[1, 1, 1, 3], 'A'],
  ] as const)('%j gives %s', (values, letter) => {
    expect(letterOf([...values])).toBe(letter);
  });

  it('two papers: A both <= 2, then the worse paper decides B, C, D, E', () => {
    expect([letterOf([2, 2]), letterOf([1, 3]), letterOf([2, 4]), letterOf([5, 5]), letterOf([6, 6])]).toEqual(['A', 'B', 'C', 'D', 'E']);
  });

  it('three papers: one paper may be one step worse (C = <= 4 but one <= 5, D = <= 5 but one <= 6)', () => {
    expect([letterOf([4, 4, 5]), letterOf([5, 5, 6]), letterOf([4, 5, 5])]).toEqual(['C', 'D', 'D']);
    // Two papers a step worse is no longer the better letter.
    expect(letterOf([2, 3, 3])).toBe('B');
  });

  it('four papers extend the step rule', () => {
    expect([
      letterOf([3, 3, 3, 5]),
      letterOf([3, 3, 3, 4]),
      letterOf([1, 1, 1, 7]),
      letterOf([7, 8, 8, 8]),
      letterOf([8, 8, 9, 9]),
    ]).toEqual(['C', 'B', 'E', 'O', 'F']);
  });

  it('one paper maps directly', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map((value) => letterOf([value]))).toEqual(['A', 'A', 'B', 'C', 'D', 'E', 'O', 'O', 'F']);
  });

  it('the order of the papers does not matter', () => {
    expect(letterOf([3, 1])).toBe('B');
    expect(letterOf([9, 1, 1])).toBe('O');
  });

  it('more papers than any table: the table for the most papers below is used, and said', () => {
    const result = alevelSubjectLetter(papers(1, 1, 1, 1, 3));
    expect(result.value).toBe('A');
    expect(result.explain.parts?.[0]).toEqual({ code: 'alevel.tableOfFewerPapers', params: { papers: 5, tablePapers: 4 } });
  });

  it('explains the rule that held, with the sorted values', () => {
    const result = alevelSubjectLetter(papers(3, 2, 2));
    expect(result.explain.code).toBe('alevel.rule');
    expect(result.explain.params).toMatchObject({ letter: 'A', values: [2, 2, 3], papers: 3 });
    expect(explainText(result.explain)).toBe('3 papers with values 2, 2, 3: A (worst at most 3, others at most 2).');
    expect(explainText(alevelSubjectLetter(papers(8, 9)).explain)).toBe('2 papers with values 8, 9: no rule holds, so F.');
  });

  it('ABS or a missing paper gives no letter, and says which paper', () => {
    const result = alevelSubjectLetter(papers(1, ABSENT, null));
    expect(result.value).toBeNull();
    expect(explainText(result.explain, true)).toBe(
      '2 of 3 papers have no mark: no subject grade. Paper 1: grade value 1. Paper 2 has no mark (absent). Paper 3 has no mark (missing).',
    );
  });
});

describe("the school's A-level scores", () => {
  const rules = schoolRules((draft) => {
    draft.alevel.schoolScores = [
      { papers: 2, total: 4, score: 'A' },
      { papers: 2, total: 5, score: 'A' },
      { papers: 2, total: 13, score: 'E' },
    ];
  });

  it('decide when rows exist for the paper count: (6,7) is E for this school, O by default', () => {
    expect(letterOf([6, 7])).toBe('O');
    expect(letterOf([6, 7], rules)).toBe('E');
    expect(letterOf([2, 3], rules)).toBe('A');
    expect(explainText(alevelSubjectLetter(papers(6, 7), rules).explain)).toBe(
      "The school's A-level scores: 2 papers totalling 13 score E.",
    );
  });

  it('leave other paper counts to the tables', () => {
    expect(letterOf([2, 2, 3], rules)).toBe('A');
  });

  it('give no letter for a total they do not list, and say so', () => {
    const result = alevelSubjectLetter(papers(1, 1), rules);
    expect(result.value).toBeNull();
    expect(result.explain.code).toBe('alevel.schoolScoreMissing');
  });
});

describe('A-level points', () => {
  it('A 6, B 5, C 4, D 3, E 2, O 1, F 0', () => {
    expect((['A', 'B', 'C', 'D', 'E', 'O', 'F'] as const).map((letter) => alevelPoints(letter).value)).toEqual([6, 5, 4, 3, 2, 1, 0]);
    expect(explainText(alevelPoints('B').explain)).toBe('B is worth 5 points.');
  });

  it('subsidiaries: 1 point for C6 or better, 0 below; a school may set the threshold at P8', () => {
    expect(alevelSubsidiaryPoints('General Paper', papers(6)).value).toBe(1);
    expect(alevelSubsidiaryPoints('General Paper', papers(7)).value).toBe(0);
    const lenient = schoolRules((draft) => {
      draft.alevel.subsidiary.creditAtMost = 8;
    });
    expect(alevelSubsidiaryPoints('General Paper', papers(7), lenient).value).toBe(1);
    expect(alevelSubsidiaryPoints('General Paper', papers(9), lenient).value).toBe(0);
    expect(explainText(alevelSubsidiaryPoints('Sub-Math', papers(4)).explain)).toBe(
      'Sub-Math (subsidiary): grade value 4 is at most 6, 1 point.',
    );
  });

  it('a subsidiary in several papers is judged by its worst; one without a mark earns 0', () => {
    expect(alevelSubsidiaryPoints('Sub-ICT', papers(2, 7)).value).toBe(0);
    const absent = alevelSubsidiaryPoints('Sub-ICT', papers(ABSENT));
    expect(absent.value).toBe(0);
    expect(absent.explain.code).toBe('alevel.subsidiaryNoMark');
  });

  it('a typical total: 3 principals + GP + a subsidiary, at most 20', () => {
    const best = alevelResult([
      { subject: 'Physics', category: 'science', papers: papers(1, 1) },
      { subject: 'Chemistry', category: 'science', papers: papers(1, 2, 1) },
      { subject: 'Mathematics', category: 'mathematics', papers: papers(2, 2) },
      { subject: 'General Paper', category: 'general', papers: papers(1) },
      { subject: 'Sub-ICT', category: 'subsidiary', papers: papers(3) },
    ]);
    expect(best.value.totalPoints).toBe(20);

    const mixed = alevelResult([
      { subject: 'History', category: 'humanity', papers: papers(3, 1) },
      { subject: 'Economics', category: 'humanity', papers: papers(6, 7) },
      { subject: 'Literature', category: 'english', papers: papers(8, ABSENT) },
      { subject: 'General Paper', category: 'general', papers: papers(5) },
      { subject: 'Sub-Math', category: 'subsidiary', papers: papers(8) },
    ]);
    expect(mixed.value.subjects.map((subject) => [subject.subject, subject.kind, subject.letter, subject.points])).toEqual([
      ['History', 'principal', 'B', 5],
      ['Economics', 'principal', 'O', 1],
      ['Literature', 'principal', null, 0],
      ['General Paper', 'subsidiary', null, 1],
      ['Sub-Math', 'subsidiary', null, 0],
    ]);
    expect(mixed.value.totalPoints).toBe(7);
    // Every number has its explanation: the total's parts are one per subject, each a sentence.
    expect(mixed.explain.parts).toHaveLength(5);
    expect(explainText(mixed.explain, true)).toContain('History');
    expect(explainText(mixed.explain, true)).not.toMatch(/undefined|NaN/);
    expect(explainText(mixed.explain)).toBe('Total 7 points from 5 subjects.');
    expect(mixed.explain.parts?.map((part) => explainText(part))).toEqual([
      'History: B, worth 5 points.',
      'Economics: O, worth 1 point.',
      'Literature: no subject grade, 0 points.',
      'General Paper (subsidiary): grade value 5 is at most 6, 1 point.',
      'Sub-Math (subsidiary): grade value 8 is not at most 6, 0 points.',
    ]);
  });
});
