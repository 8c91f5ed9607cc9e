import fc from 'fast-check';
import Fraction from 'fraction.js';
import { describe, expect, it } from 'vitest';
import { ABSENT } from '../../marks/cells.js';
import { defaultGradeBands } from '../bands.js';
import { type Exact, exact, exactRound } from '../exact.js';
import { explainText } from './explain.js';
import { DEFAULT_GRADING_RULES, type GradingRules, GradingRulesSchema, MISSED_RULES, type MissedMarkRule } from './rules.js';
import { gradeOfTotal, gradeValueOf, subjectMark, subjectTotal } from './subject-total.js';

const BOT_MOT_EOT = { BOT: 20, MOT: 30, EOT: 50 };

describe('subject total with proportions (grading.md: BOT 20%, MOT 30%, EOT 50%)', () => {
  it('weights each mark type by its proportion', () => {
    const result = subjectTotal(
      [
        { markType: 'BOT', value: 60 },
        { markType: 'MOT', value: 70 },
        { markType: 'EOT', value: 80 },
      ],
      BOT_MOT_EOT,
    );
    expect(result.value.total).toBeCloseTo(73);
    expect(result.value.warnings).toEqual([]);
    expect(explainText(result.explain, true)).toBe(
      'The total 73 is the sum of each mark type weighted by its proportion. BOT: 60 out of 100 is 60%. BOT: 60% weighted 20% gives 12. MOT: 70 out of 100 is 70%. MOT: 70% weighted 30% gives 21. EOT: 80 out of 100 is 80%. EOT: 80% weighted 50% gives 40.',
    );
  });

  it('proportions not adding up to 100: a warning, and the total is not scaled', () => {
    const result = subjectTotal(
      [
        { markType: 'MOT', value: 70 },
        { markType: 'EOT', value: 80 },
      ],
      { MOT: 30, EOT: 50 },
    );
    expect(result.value.total).toBeCloseTo(61);
    expect(result.value.warnings).toEqual([{ code: 'subjectTotal.proportionsNot100', params: { sum: 80 } }]);
    expect(explainText(result.value.warnings[0]!)).toBe('The proportions add up to 80%, not 100%; the total is not scaled.');
  });

  it('a raw mark out of another maximum is scaled to a percentage first', () => {
    const result = subjectTotal(
      [
        { markType: 'BOT', value: 15, maximum: 30 },
        { markType: 'EOT', value: 80 },
      ],
      { BOT: 50, EOT: 50 },
    );
    expect(result.value.total).toBeCloseTo(65);
    expect(result.value.marks).toEqual([
      { markType: 'BOT', percent: 50 },
      { markType: 'EOT', percent: 80 },
    ]);
    expect(explainText(result.explain.parts![0]!)).toBe('BOT: 15 out of 30 is 50%.');
  });

  it('under the school rule `none`, ABS or a missing weighted mark leaves no total (not 0, not re-weighted), and names it', () => {
    const result = subjectTotal(
      [
        { markType: 'BOT', value: ABSENT },
        { markType: 'EOT', value: 80 },
      ],
      BOT_MOT_EOT,
      'none',
    );
    expect(result.value.missed).toEqual([]);
    expect(result.value.total).toBeNull();
    expect(result.explain.params).toEqual({ markTypes: ['BOT', 'MOT'] });
    expect(explainText(result.explain)).toBe('No total: BOT, MOT has no mark, and a missing mark is not counted as 0.');
    expect(result.explain.parts?.map((part) => part.code)).toEqual([
      'mark.absent',
      'mark.missing',
      'mark.scaled',
      'subjectTotal.weightedPart',
    ]);
  });

  it('a mark type with a mark but no proportion is not part of the total, and says so', () => {
    const result = subjectTotal(
      [
        { markType: 'EOT', value: 80 },
        { markType: 'Weekly', value: 10 },
      ],
      { EOT: 100 },
    );
    expect(result.value.total).toBe(80);
    expect(result.explain.parts?.map((part) => explainText(part))).toContain('Weekly has no proportion and is not part of the total.');
  });
});

describe('subject total without proportions', () => {
  it('a single mark type shows that mark', () => {
    const result = subjectTotal([{ markType: 'EOT', value: 67.5 }]);
    expect(result.value.total).toBe(67.5);
    expect(explainText(result.explain)).toBe('The total 67.5 is the EOT mark.');
  });

  it('several mark types: each raw mark and their average', () => {
    const result = subjectTotal([
      { markType: 'BOT', value: 60 },
      { markType: 'EOT', value: 45, maximum: 50 },
    ]);
    expect(result.value.total).toBe(75);
    expect(result.value.marks).toEqual([
      { markType: 'BOT', percent: 60 },
      { markType: 'EOT', percent: 90 },
    ]);
    expect(explainText(result.explain)).toBe('The total 75 is the average of 2 marks: 60, 90.');
  });

  it('the average leaves out ABS and missing marks, and names them', () => {
    const result = subjectTotal([
      { markType: 'BOT', value: 60 },
      { markType: 'MOT', value: ABSENT },
      { markType: 'EOT', value: null },
    ]);
    expect(result.value.total).toBe(60);
    expect(result.explain.parts?.map((part) => explainText(part))).toEqual([
      'BOT: 60 out of 100 is 60%.',
      'MOT: absent (ABS), not counted as 0.',
      'MOT has no mark and is left out of the average.',
      'EOT: no mark entered, not counted as 0.',
      'EOT has no mark and is left out of the average.',
    ]);
  });

  it('no mark at all: no total', () => {
    expect(subjectTotal([{ markType: 'EOT', value: ABSENT }]).value.total).toBeNull();
    expect(subjectTotal([]).explain.code).toBe('subjectTotal.noMarks');
  });
});

describe('grade of a total', () => {
  const bands = defaultGradeBands();

  it('takes the band of the existing grade set and names it (74.5 is C3, 79.9 is D2)', () => {
    expect(gradeOfTotal(74.5, bands).value).toEqual({ grade: 'C3', value: 3 });
    expect(gradeOfTotal(79.9, bands).value).toEqual({ grade: 'D2', value: 2 });
    expect(explainText(gradeOfTotal(73, bands).explain)).toBe('73 is in C3 (70 to 74), value 3.');
  });

  it('no total, no grade; below every band, no grade', () => {
    expect(gradeOfTotal(null, bands).value).toEqual({ grade: null, value: null });
    expect(gradeOfTotal(10, bands.slice(0, 3)).explain.code).toBe('grade.noBand');
  });

  it('a grade the rules give no value is shown, and said', () => {
    const result = gradeOfTotal(95, defaultGradeBands('lower'));
    expect(result.value).toEqual({ grade: 'A+', value: null });
    expect(result.explain.parts?.[0]?.code).toBe('grade.unknownLabel');
  });

  it('grade values come from the rules, case-insensitively', () => {
    expect(gradeValueOf('c6')).toBe(6);
    const rules: GradingRules = {
      ...DEFAULT_GRADING_RULES,
      grades: { ...DEFAULT_GRADING_RULES.grades, values: [{ label: 'A', value: 1 }] },
    };
    expect(gradeValueOf('a', rules)).toBe(1);
    expect(gradeValueOf('D1', rules)).toBeNull();
  });
});

describe('a missed mark type (grading rules `missed`, grading.md "Marks to a subject mark")', () => {
  // BOT 20%, MOT 30% (missed), EOT 50%: BOT 60, EOT 70.
  const missedMot = [
    { markType: 'BOT', value: 60 },
    { markType: 'MOT', value: ABSENT },
    { markType: 'EOT', value: 70 },
  ] as const;
  const bands = defaultGradeBands();

  it('by default the mark types sat are re-weighted: (12 + 35) / 70 x 100 = 67.14..., C4, and MOT is named', () => {
    const result = subjectTotal(missedMot, BOT_MOT_EOT);
    expect(result.value.exact?.equals(new Fraction(470n, 7n))).toBe(true);
    expect(result.value.missed).toEqual(['MOT']);
    expect(gradeOfTotal(result.value.exact, bands).value).toEqual({ grade: 'C4', value: 4 });
    expect(explainText(result.explain, true)).toBe(
      'The total 67.14 re-weights the mark types sat (MOT missed): their weighted marks, 47 out of their proportions of 70%, scaled up to 100% (47 / 70 × 100). ' +
        'BOT: 60 out of 100 is 60%. BOT: 60% weighted 20% gives 12. MOT: absent (ABS), missed: the mark types sat are re-weighted. ' +
        'EOT: 70 out of 100 is 70%. EOT: 70% weighted 50% gives 35.',
    );
    expect(DEFAULT_GRADING_RULES.missed).toBe('reweight');
  });

  it('`zero`: the missed part counts 0: 12 + 0 + 35 = 47, P7', () => {
    const result = subjectTotal(missedMot, BOT_MOT_EOT, 'zero');
    expect(result.value.total).toBe(47);
    expect(result.value.missed).toEqual(['MOT']);
    expect(gradeOfTotal(result.value.exact, bands).value.grade).toBe('P7');
    expect(explainText(result.explain)).toBe(
      'The total 47 is the sum of each mark type weighted by its proportion, MOT missed counting 0.',
    );
    expect(result.explain.parts?.map((part) => explainText(part))).toContain(
      "MOT: absent (ABS), missed: counted as 0 (the school's rule).",
    );
  });

  it('`none`: no total, the subject is X (the behaviour before the rule)', () => {
    const result = subjectTotal(missedMot, BOT_MOT_EOT, 'none');
    expect([result.value.total, result.value.missed]).toEqual([null, []]);
    expect(explainText(result.explain)).toBe('No total: MOT has no mark, and a missing mark is not counted as 0.');
  });

  it('a mark type never entered is missed too, and said as such', () => {
    const result = subjectTotal(
      [
        { markType: 'BOT', value: 60 },
        { markType: 'EOT', value: 70 },
      ],
      BOT_MOT_EOT,
    );
    expect(result.value.missed).toEqual(['MOT']);
    expect(result.explain.parts?.map((part) => explainText(part))).toContain(
      'MOT: no mark entered, missed: the mark types sat are re-weighted.',
    );
  });

  it('re-weighted exactly: BOT 58.5 and EOT 60.6 with MOT missed is 60 exactly (C5), never 59.99...', () => {
    const result = subjectTotal(
      [
        { markType: 'BOT', value: 58.5 },
        { markType: 'EOT', value: 60.6 },
      ],
      BOT_MOT_EOT,
    );
    expect(result.value.exact?.equals(60)).toBe(true);
    expect(result.value.total).toBe(60);
    expect(gradeOfTotal(result.value.exact, bands).value.grade).toBe('C5');
  });

  it('proportions not adding up to 100 are scaled to their own sum, not to 100, and still warned of', () => {
    // MOT 30 (missed), EOT 50: 35 out of 50%, scaled up to 80%: 56, what EOT 70 is worth when all is sat.
    const result = subjectTotal([{ markType: 'EOT', value: 70 }], { MOT: 30, EOT: 50 });
    expect(result.value.total).toBe(56);
    expect(result.value.warnings.map((warning) => warning.code)).toEqual(['subjectTotal.proportionsNot100']);
  });

  it('a subject with no weighted mark has no total under every rule', () => {
    for (const rule of MISSED_RULES) {
      const result = subjectTotal(
        [
          { markType: 'BOT', value: ABSENT },
          { markType: 'MOT', value: ABSENT },
          { markType: 'Weekly', value: 90 },
        ],
        BOT_MOT_EOT,
        rule,
      );
      expect([rule, result.value.total, result.value.missed]).toEqual([rule, null, []]);
    }
    expect(explainText(subjectTotal([{ markType: 'BOT', value: ABSENT }], BOT_MOT_EOT, 'zero').explain)).toBe(
      'No total: there is no mark.',
    );
  });

  it('without proportions nothing changes: the average of the marks there are, whatever the rule', () => {
    for (const rule of MISSED_RULES) {
      const result = subjectTotal(missedMot, {}, rule);
      expect([result.value.total, result.value.missed]).toEqual([65, []]);
      expect(result.explain.code).toBe('subjectTotal.average');
    }
  });

  it('saved rules without `missed` or `rounding` read with the defaults; an unknown value is refused in words', () => {
    const { missed: _missed, rounding: _rounding, ...older } = DEFAULT_GRADING_RULES;
    const parsed = GradingRulesSchema.parse(older);
    expect([parsed.missed, parsed.rounding]).toEqual(['reweight', 'none']);
    const refused = GradingRulesSchema.safeParse({ ...DEFAULT_GRADING_RULES, missed: 'average', rounding: 'up' });
    expect(refused.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['missed', 'Choose how a missed mark type counts from the list'],
      ['rounding', 'Choose how the subject mark is rounded from the list'],
    ]);
  });

  // Marks of one decimal (0..100) and whole percentages: BOT, MOT and EOT, any of them missed.
  const markArb = fc.oneof(
    fc.integer({ min: 0, max: 1000 }).map((tenths) => tenths / 10),
    fc.constant(ABSENT),
    fc.constant(null),
  );
  const proportionsArb = fc
    .tuple(fc.integer({ min: 1, max: 98 }), fc.integer({ min: 1, max: 98 }))
    .filter(([a, b]) => a + b < 100)
    .map(([a, b]) => ({ BOT: a, MOT: b, EOT: 100 - a - b }));
  const marksOf = (values: ReadonlyArray<number | typeof ABSENT | null>) =>
    ['BOT', 'MOT', 'EOT'].map((markType, index) => ({ markType, value: values[index] ?? null }));
  const total = (values: ReadonlyArray<number | typeof ABSENT | null>, weights: Record<string, number>, rule: MissedMarkRule) =>
    subjectTotal(marksOf(values), weights, rule).value;

  it('property: re-weighted lies between the lowest and highest mark sat, at least the zero rule, and equals it when nothing is missed', () => {
    fc.assert(
      fc.property(fc.array(markArb, { minLength: 3, maxLength: 3 }), proportionsArb, (values, weights) => {
        const sat = values.filter((value): value is number => typeof value === 'number');
        const reweighted = total(values, weights, 'reweight');
        const zeroed = total(values, weights, 'zero');
        const none = total(values, weights, 'none');
        if (sat.length === 0) return reweighted.exact === null && zeroed.exact === null && none.exact === null;
        const low = exact(Math.min(...sat));
        const high = exact(Math.max(...sat));
        const r = reweighted.exact as Exact;
        const z = zeroed.exact as Exact;
        const between = r.gte(low) && r.lte(high);
        if (sat.length === 3)
          return between && r.equals(z) && none.exact !== null && r.equals(none.exact) && reweighted.missed.length === 0;
        return (
          between &&
          z.lte(r) &&
          none.exact === null &&
          reweighted.missed.length === 3 - sat.length &&
          zeroed.missed.length === 3 - sat.length
        );
      }),
    );
  });

  it('property: a learner who sat every part at the same mark scores that mark, whatever was missed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 1, max: 3 }), proportionsArb, (tenths, missedAt, weights) => {
        const mark = tenths / 10;
        const values = [mark, mark, mark].map((value, index) => (index === missedAt - 1 ? ABSENT : value));
        return total(values, weights, 'reweight').exact?.equals(exact(mark)) === true;
      }),
    );
  });
});

describe('rounding the subject mark before grading (grading rules `rounding`)', () => {
  const bands = defaultGradeBands();
  const mark = (value: number | Exact, rounding: GradingRules['rounding']) => {
    const explained = subjectMark(
      { value: exact(value), explain: { code: 'subjectTotal.single', params: { markType: 'EOT', total: 0 } } },
      rounding,
    );
    return { value: explained.value, grade: gradeOfTotal(explained.value, bands).value.grade, explain: explained.explain };
  };

  it('whole: 59.5 is 60, C5 (59.49 is 59, C6); the explanation says it was rounded and rests on the total', () => {
    const rounded = mark(59.5, 'whole');
    expect([toFloat(rounded.value), rounded.grade]).toEqual([60, 'C5']);
    expect(explainText(rounded.explain)).toBe(
      'The mark 60 is the total 59.5 rounded half up to a whole number; the school grades the rounded mark.',
    );
    expect(rounded.explain.parts?.[0]?.code).toBe('subjectTotal.single');
    expect([toFloat(mark(59.49, 'whole').value), mark(59.49, 'whole').grade]).toEqual([59, 'C6']);
    expect([toFloat(mark(44.5, 'whole').value), mark(44.5, 'whole').grade]).toEqual([45, 'P7']);
  });

  it('one decimal: 59.96 is 60.0 (C5), 59.95 is 60.0, 59.94 is 59.9 (C6)', () => {
    expect([toFloat(mark(59.96, 'oneDecimal').value), mark(59.96, 'oneDecimal').grade]).toEqual([60, 'C5']);
    expect(toFloat(mark(59.95, 'oneDecimal').value)).toBe(60);
    expect([toFloat(mark(59.94, 'oneDecimal').value), mark(59.94, 'oneDecimal').grade]).toEqual([59.9, 'C6']);
    expect(explainText(mark(59.96, 'oneDecimal').explain)).toBe(
      'The mark 60 is the total 59.96 rounded half up to one decimal; the school grades the rounded mark.',
    );
  });

  it("none: the exact mark is graded (59.96 is C6) and the explanation is the total's", () => {
    const kept = mark(59.96, 'none');
    expect([toFloat(kept.value), kept.grade, kept.explain.code]).toEqual([59.96, 'C6', 'subjectTotal.single']);
    expect(subjectMark({ value: null, explain: { code: 'subjectTotal.noMarks', params: {} } }, 'whole').value).toBeNull();
  });

  it('a re-weighted total is rounded exactly: 470/7 = 67.142... is 67 and 67.1', () => {
    expect(toFloat(exactRound(new Fraction(470n, 7n), 0))).toBe(67);
    expect(toFloat(exactRound(new Fraction(470n, 7n), 1))).toBe(67.1);
    // 2/3 of a tenth above 59.9: 59.9666... is 60.0 at one decimal.
    expect(toFloat(exactRound(new Fraction(17990n, 300n), 1))).toBe(60);
  });

  it('property: half up, exactly: the rounded mark is within half a step, a half goes up, and it is a multiple of the step', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10_000_000n }),
        fc.bigInt({ min: 1n, max: 999n }),
        fc.integer({ min: 0, max: 1 }),
        (n, d, places) => {
          const value = new Fraction(n, d);
          const step = new Fraction(1n, 10n ** BigInt(places));
          const rounded = exactRound(value, places);
          const off = value.sub(rounded);
          const half = step.div(2);
          return off.compare(half) < 0 && off.neg().compare(half) <= 0 && rounded.div(step).d === 1n;
        },
      ),
    );
  });
});

const toFloat = (value: Exact | null) => (value === null ? null : value.valueOf());
