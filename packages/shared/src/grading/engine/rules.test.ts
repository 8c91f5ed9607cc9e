import { describe, expect, it } from 'vitest';
import { DEFAULT_GRADING_RULES, GRADING_RULE_MESSAGES, type GradingRules, GradingRulesSchema } from './rules.js';

const M = GRADING_RULE_MESSAGES;

/** The messages and paths a changed copy of the defaults is refused with. */
function refusals(change: (rules: any) => void): Array<[string, string]> {
  const rules = structuredClone(DEFAULT_GRADING_RULES) as GradingRules;
  change(rules);
  const result = GradingRulesSchema.safeParse(rules);
  return result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
}

describe('the default grading rules (grading.md)', () => {
  it('pass the schema unchanged', () => {
    expect(GradingRulesSchema.parse(DEFAULT_GRADING_RULES)).toEqual(DEFAULT_GRADING_RULES);
  });

  it('hold the guide’s numbers: D1..F9 1..9, credit <= 6, pass <= 8; PLE caps 12/23/29/34; UCE best 8, caps 32/45/58/68', () => {
    const { grades, primary, olevel, alevel } = DEFAULT_GRADING_RULES;
    expect(grades.values.map((grade) => `${grade.label}=${grade.value}`).join(' ')).toBe('D1=1 D2=2 C3=3 C4=4 C5=5 C6=6 P7=7 P8=8 F9=9');
    expect([grades.creditAtMost, grades.passAtMost]).toEqual([6, 8]);
    expect(primary.countedCategories).toEqual(['english', 'mathematics', 'science', 'humanity']);
    expect(primary.divisions.map((division) => division.aggregateAtMost)).toEqual([12, 23, 29, 34]);
    expect([primary.otherwise, primary.noMark]).toEqual(['U', 'X']);
    expect(olevel.bestCount).toBe(8);
    expect(olevel.divisions.map((division) => [division.division, division.aggregateAtMost])).toEqual([
      ['I', 32],
      ['II', 45],
      ['III', 58],
      ['IV', 68],
    ]);
    expect(alevel.points).toEqual({ A: 6, B: 5, C: 4, D: 3, E: 2, O: 1, F: 0 });
    expect(alevel.subsidiary).toEqual({ categories: ['subsidiary', 'general'], creditAtMost: 6, points: 1 });
    expect(alevel.tables.map((table) => table.papers)).toEqual([1, 2, 3, 4]);
  });
});

describe('the schema refuses nonsense, with catalogue sentences', () => {
  it('unsorted or overlapping division caps', () => {
    expect(
      refusals((rules) => {
        rules.primary.divisions[1].aggregateAtMost = 12;
      }),
    ).toEqual([['primary.divisions.1.aggregateAtMost', M.divisionCapsUnsorted]]);
    expect(
      refusals((rules) => {
        rules.olevel.divisions.reverse();
      }),
    ).toContainEqual(['olevel.divisions.1.aggregateAtMost', M.divisionCapsUnsorted]);
  });

  it('a division named twice, or without a name', () => {
    expect(
      refusals((rules) => {
        rules.primary.divisions[1].division = 'I';
      }),
    ).toEqual([['primary.divisions.1.division', M.divisionNameRepeated]]);
    expect(
      refusals((rules) => {
        rules.primary.divisions[0].division = '  ';
      }),
    ).toEqual([['primary.divisions.0.division', M.divisionNameEmpty]]);
  });

  it('unknown letters, in a table rule and in a school score', () => {
    expect(
      refusals((rules) => {
        rules.alevel.tables[0].rules[0].letter = 'S';
      }),
    ).toEqual([['alevel.tables.0.rules.0.letter', M.unknownLetter]]);
    expect(
      refusals((rules) => {
        rules.alevel.schoolScores = [{ papers: 2, total: 4, score: 'A+' }];
      }),
    ).toEqual([['alevel.schoolScores.0.score', M.unknownLetter]]);
  });

  it('negative or fractional points', () => {
    expect(
      refusals((rules) => {
        rules.alevel.points.F = -1;
      }),
    ).toEqual([['alevel.points.F', M.notNegative]]);
    expect(
      refusals((rules) => {
        rules.alevel.subsidiary.points = 0.5;
      }),
    ).toEqual([['alevel.subsidiary.points', M.wholeNumber]]);
  });

  it('a credit worse than a pass; grades repeated', () => {
    expect(
      refusals((rules) => {
        rules.grades.creditAtMost = 9;
      }),
    ).toEqual([['grades.creditAtMost', M.creditAbovePass]]);
    expect(
      refusals((rules) => {
        rules.grades.values[1].label = 'd1';
        rules.grades.values[2].value = 1;
      }),
    ).toEqual([
      ['grades.values.1.label', M.gradeLabelRepeated],
      ['grades.values.2.value', M.gradeValueRepeated],
    ]);
  });

  it('unknown or repeated categories, and no counted category', () => {
    expect(
      refusals((rules) => {
        rules.primary.countedCategories = ['english', 'art'];
      }),
    ).toEqual([['primary.countedCategories.1', M.unknownCategory]]);
    expect(
      refusals((rules) => {
        rules.olevel.divisions[0].requiredCategories = ['science', 'science'];
      }),
    ).toEqual([['olevel.divisions.0.requiredCategories', M.categoryRepeated]]);
    expect(
      refusals((rules) => {
        rules.primary.countedCategories = [];
      }),
    ).toEqual([['primary.countedCategories', M.countedEmpty]]);
  });

  it('tables: two for the same paper count, a paper count out of 1..6, a rule without a condition', () => {
    expect(
      refusals((rules) => {
        rules.alevel.tables[1].papers = 1;
      }),
    ).toEqual([['alevel.tables.1.papers', M.tableRepeated]]);
    expect(
      refusals((rules) => {
        rules.alevel.tables[0].papers = 7;
      }),
    ).toEqual([['alevel.tables.0.papers', M.papersOutOfRange]]);
    expect(
      refusals((rules) => {
        rules.alevel.tables[0].rules.push({ letter: 'O' });
      }),
    ).toEqual([['alevel.tables.0.rules.6.letter', M.ruleWithoutCondition]]);
  });

  it('school scores: repeated, or a total the papers cannot reach', () => {
    expect(
      refusals((rules) => {
        rules.alevel.schoolScores = [
          { papers: 2, total: 4, score: 'A' },
          { papers: 2, total: 4, score: 'B' },
        ];
      }),
    ).toEqual([['alevel.schoolScores.1.total', M.scoreRepeated]]);
    expect(
      refusals((rules) => {
        rules.alevel.schoolScores = [
          { papers: 2, total: 19, score: 'F' },
          { papers: 3, total: 2, score: 'A' },
        ];
      }),
    ).toEqual([
      ['alevel.schoolScores.0.total', M.scoreTotalUnreachable],
      ['alevel.schoolScores.1.total', M.scoreTotalUnreachable],
    ]);
  });

  it('every refusal is a sentence of the catalogue', () => {
    const messages = new Set<string>(Object.values(M));
    const all = refusals((rules) => {
      rules.grades.values = [];
      rules.primary.divisions = [];
      rules.olevel.bestCount = 0;
      rules.alevel.points.A = 'six';
    });
    expect(all.length).toBeGreaterThan(0);
    for (const [, message] of all) expect(messages).toContain(message);
  });
});
