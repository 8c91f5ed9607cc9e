import { z } from 'zod';
import { SUBJECT_CATEGORIES } from '../../constants.js';
import { DEFAULT_NC_RULES, NcRulesSchema } from './nc-rules.js';
import { GRADING_RULE_MESSAGES } from './rule-messages.js';

/*
 * A school's grading rules (guide grading.md: "every rule here is data with a default"). One
 * object per school, checked before it is saved: the schema refuses rules that cannot mean
 * anything (unsorted caps, unknown letters, negative points), each with a catalogue sentence.
 */

export { GRADING_RULE_MESSAGES };

const M = GRADING_RULE_MESSAGES;

/** The letters of an A-level subject, best first (grading.md "A level"). */
export const ALEVEL_LETTERS = ['A', 'B', 'C', 'D', 'E', 'O', 'F'] as const;
export type AlevelLetter = (typeof ALEVEL_LETTERS)[number];
export type SubjectCategory = (typeof SUBJECT_CATEGORIES)[number];

const MAX_PAPERS = 6;
const count = z.number(M.wholeNumber).int(M.wholeNumber).min(0, M.notNegative);
const positive = z.number(M.wholeNumber).int(M.wholeNumber).min(1, M.atLeastOne);
const category = z.enum(SUBJECT_CATEGORIES, M.unknownCategory);
const letter = z.enum(ALEVEL_LETTERS, M.unknownLetter);
const divisionName = z.string(M.divisionNameEmpty).trim().min(1, M.divisionNameEmpty);
const paperCount = z.number(M.wholeNumber).int(M.wholeNumber).min(1, M.papersOutOfRange).max(MAX_PAPERS, M.papersOutOfRange);

/** A list of categories named once each. */
const categories = z.array(category).refine((list) => new Set(list).size === list.length, M.categoryRepeated);

/** Issues for names repeated in a list, each on the later one (where the form shows it). */
function refuseRepeats<Item>(items: readonly Item[], key: (item: Item) => unknown, field: string, message: string, ctx: z.RefinementCtx) {
  const seen = new Set<unknown>();
  items.forEach((item, index) => {
    const value = key(item);
    if (seen.has(value)) ctx.addIssue({ code: 'custom', message, path: [index, field] });
    seen.add(value);
  });
}

/** Caps that must rise strictly in the order the divisions are tried (I before II ...). */
function refuseUnsortedCaps(divisions: ReadonlyArray<{ aggregateAtMost: number }>, ctx: z.RefinementCtx) {
  divisions.forEach((division, index) => {
    const before = divisions[index - 1];
    if (before && division.aggregateAtMost <= before.aggregateAtMost) {
      ctx.addIssue({ code: 'custom', message: M.divisionCapsUnsorted, path: [index, 'aggregateAtMost'] });
    }
  });
}

/** Names said once, caps rising: what every list of divisions must be. */
function refuseBadDivisions(divisions: ReadonlyArray<{ division: string; aggregateAtMost: number }>, ctx: z.RefinementCtx) {
  refuseRepeats(divisions, (division) => division.division, 'division', M.divisionNameRepeated, ctx);
  refuseUnsortedCaps(divisions, ctx);
}

const divisionFields = { division: divisionName, aggregateAtMost: count };

/**
 * What positions rank (grading.md "Positions"): `result`, the number that decides the result
 * (aggregate then total at primary and O level, points then total at A level; the average
 * where a class has neither), `average` or `total`. A learner whose result is incomplete (a
 * counted subject without a mark) follows the complete ones by total (`after`) or is not ranked
 * (`unranked`).
 */
export const POSITION_BASES = ['result', 'average', 'total'] as const;
export const INCOMPLETE_POSITIONS = ['after', 'unranked'] as const;
const positionRules = z.object({
  basis: z.enum(POSITION_BASES, M.positionBasisUnknown),
  incomplete: z.enum(INCOMPLETE_POSITIONS, M.positionIncompleteUnknown),
});
export type PositionRules = z.infer<typeof positionRules>;
export const DEFAULT_POSITION_RULES: PositionRules = { basis: 'result', incomplete: 'after' };

/**
 * A learner who missed one weighted mark type of a subject (ABS or no mark) but sat others
 * (grading.md "Marks to a subject mark"): `reweight`, the proportions of the mark types sat scaled
 * up to the whole (missed MOT: graded on BOT and EOT); `zero`, the missed part counts 0; `none`, no
 * total (the subject is X). A subject with no mark at all has no total under every rule.
 */
export const MISSED_RULES = ['reweight', 'zero', 'none'] as const;
export type MissedMarkRule = (typeof MISSED_RULES)[number];
export const DEFAULT_MISSED_RULE: MissedMarkRule = 'reweight';

/**
 * Rounding of a subject mark before it is graded (grading.md "Subject mark to grade"): `none`
 * grades the exact mark (printed cut to two decimals), `whole` and `oneDecimal` round it half up
 * and grade the rounded mark, which is the one printed.
 */
export const ROUNDING_RULES = ['none', 'whole', 'oneDecimal'] as const;
export type MarkRounding = (typeof ROUNDING_RULES)[number];
export const DEFAULT_ROUNDING_RULE: MarkRounding = 'none';

/** One alternative of an O-level division: at least so many passes and so many credits. */
const passesAndCredits = z.object({ minPasses: count, minCredits: count });

/**
 * An O-level division as conditions that must all hold (grading.md "Secondary O level"): the
 * aggregate of the best subjects at most a cap, at least so many graded subjects, a graded
 * subject of each required category, a credit in each `creditIn` category, and, when
 * `anyOf` is not empty, one of its passes-and-credits alternatives.
 */
const olevelDivision = {
  minSubjects: count,
  requiredCategories: categories,
  creditIn: categories,
  anyOf: z.array(passesAndCredits),
};

/**
 * A rule of an A-level table, over the paper values of a subject (1 best .. 9 worst): every
 * condition given must hold. `worstAtMost` bounds the worst paper, `othersAtMost` every paper
 * but the worst one ("one paper may be one step worse than the others"), `sumAtMost` the sum.
 */
const alevelRule = z
  .object({ letter, worstAtMost: positive.optional(), othersAtMost: positive.optional(), sumAtMost: positive.optional() })
  .refine((rule) => rule.worstAtMost !== undefined || rule.othersAtMost !== undefined || rule.sumAtMost !== undefined, {
    message: M.ruleWithoutCondition,
    path: ['letter'],
  });

/** The letter of a subject written in `papers` papers: the first rule that holds, else `otherwise`. */
const alevelTable = z.object({ papers: paperCount, rules: z.array(alevelRule), otherwise: letter });

/** A row of the school's own "A-level scores" (spec): `papers` papers whose values sum to `total` score `score`. */
const schoolScore = z.object({ papers: paperCount, total: positive, score: letter });

export const GradingRulesSchema = z
  .object({
    /** Grade labels and values (D1 1 .. F9 9); a credit is a value at most `creditAtMost`, a pass at most `passAtMost`. */
    grades: z
      .object({
        values: z
          .array(z.object({ label: z.string(M.labelEmpty).trim().min(1, M.labelEmpty), value: positive }))
          .min(1, M.gradesEmpty)
          .superRefine((values, ctx) => {
            refuseRepeats(values, (grade) => grade.label.toUpperCase(), 'label', M.gradeLabelRepeated, ctx);
            refuseRepeats(values, (grade) => grade.value, 'value', M.gradeValueRepeated, ctx);
          }),
        creditAtMost: positive,
        passAtMost: positive,
      })
      .refine((grades) => grades.creditAtMost <= grades.passAtMost, { message: M.creditAbovePass, path: ['creditAtMost'] }),
    /** PLE: the counted categories, the divisions by aggregate cap, the division of all else and of a missing mark. */
    primary: z.object({
      countedCategories: categories.min(1, M.countedEmpty),
      divisions: z.array(z.object(divisionFields)).min(1, M.divisionsEmpty).superRefine(refuseBadDivisions),
      otherwise: divisionName,
      noMark: divisionName,
    }),
    /** UCE: the best `bestCount` subjects make the aggregate; divisions are tried in order. */
    olevel: z.object({
      bestCount: positive,
      divisions: z
        .array(z.object({ ...divisionFields, ...olevelDivision }))
        .min(1, M.divisionsEmpty)
        .superRefine(refuseBadDivisions),
      otherwise: divisionName,
    }),
    /** UACE: letter tables per paper count, points per letter, subsidiaries, the school's own scores. */
    alevel: z.object({
      tables: z
        .array(alevelTable)
        .min(1, M.tablesEmpty)
        .superRefine((tables, ctx) => refuseRepeats(tables, (table) => table.papers, 'papers', M.tableRepeated, ctx)),
      points: z.object(Object.fromEntries(ALEVEL_LETTERS.map((key) => [key, count])) as Record<AlevelLetter, typeof count>),
      subsidiary: z.object({ categories, creditAtMost: positive, points: count }),
      schoolScores: z
        .array(schoolScore)
        .superRefine((rows, ctx) => refuseRepeats(rows, (row) => `${row.papers}:${row.total}`, 'total', M.scoreRepeated, ctx)),
    }),
    /** Positions (added after schools saved rules: a school's saved rules without it take the default). */
    positions: positionRules.default(() => ({ ...DEFAULT_POSITION_RULES })),
    /** A missed weighted mark type (added later too: saved rules without it take the default). */
    missed: z.enum(MISSED_RULES, M.missedUnknown).default(DEFAULT_MISSED_RULE),
    /** Rounding of the subject mark before grading (saved rules without it take the default). */
    rounding: z.enum(ROUNDING_RULES, M.roundingUnknown).default(DEFAULT_ROUNDING_RULE),
    /** The new curriculum's S1-S4 (issue 27; saved rules without it take the guide's defaults). */
    newCurriculum: NcRulesSchema.default(() => structuredClone(DEFAULT_NC_RULES)),
  })
  .superRefine((rules, ctx) => {
    // A school score's total is a sum of paper values: each paper lies between the best and worst grade value.
    const values = rules.grades.values.map((grade) => grade.value);
    const best = Math.min(...values);
    const worst = Math.max(...values);
    rules.alevel.schoolScores.forEach((row, index) => {
      if (row.total < row.papers * best || row.total > row.papers * worst) {
        ctx.addIssue({ code: 'custom', message: M.scoreTotalUnreachable, path: ['alevel', 'schoolScores', index, 'total'] });
      }
    });
  });

export type GradingRules = z.infer<typeof GradingRulesSchema>;
export type AlevelRule = GradingRules['alevel']['tables'][number]['rules'][number];
export type AlevelTable = GradingRules['alevel']['tables'][number];
export type OlevelDivision = GradingRules['olevel']['divisions'][number];

/** The guide's D1..F9 grade values: a label for each value 1..9. */
const DEFAULT_GRADE_LABELS = ['D1', 'D2', 'C3', 'C4', 'C5', 'C6', 'P7', 'P8', 'F9'];

/**
 * The letter steps shared by the 3- and 4-paper tables (grading.md: "one paper may be one step
 * worse than the others"; "4 papers: extend the same step rule"): A all <= 2 but one <= 3,
 * B 3/4, C 4/5, D 5/6; E one 7 or 8 with the others credits (1,1,7), (5,6,8); O all passes,
 * or one F9 with the others at most P7 (1,1,9), (1,7,7); F two F9s or an F9 with P8s.
 */
const STEP_RULES: AlevelRule[] = [
  { letter: 'A', worstAtMost: 3, othersAtMost: 2 },
  { letter: 'B', worstAtMost: 4, othersAtMost: 3 },
  { letter: 'C', worstAtMost: 5, othersAtMost: 4 },
  { letter: 'D', worstAtMost: 6, othersAtMost: 5 },
  { letter: 'E', worstAtMost: 8, othersAtMost: 6 },
  { letter: 'O', worstAtMost: 8 },
  { letter: 'O', othersAtMost: 7 },
];

/** The guide's defaults (grading.md), [C], [W] and [D] alike; a school edits a copy. */
export const DEFAULT_GRADING_RULES: GradingRules = {
  grades: { values: DEFAULT_GRADE_LABELS.map((label, index) => ({ label, value: index + 1 })), creditAtMost: 6, passAtMost: 8 },
  primary: {
    countedCategories: ['english', 'mathematics', 'science', 'humanity'],
    divisions: [
      { division: 'I', aggregateAtMost: 12 },
      { division: 'II', aggregateAtMost: 23 },
      { division: 'III', aggregateAtMost: 29 },
      { division: 'IV', aggregateAtMost: 34 },
    ],
    otherwise: 'U',
    noMark: 'X',
  },
  olevel: {
    bestCount: 8,
    divisions: [
      {
        division: 'I',
        aggregateAtMost: 32,
        minSubjects: 8,
        requiredCategories: ['english', 'mathematics', 'science', 'humanity'],
        creditIn: ['english'],
        anyOf: [{ minPasses: 0, minCredits: 7 }],
      },
      {
        division: 'II',
        aggregateAtMost: 45,
        minSubjects: 0,
        requiredCategories: [],
        creditIn: ['english'],
        anyOf: [{ minPasses: 0, minCredits: 6 }],
      },
      {
        division: 'III',
        aggregateAtMost: 58,
        minSubjects: 0,
        requiredCategories: [],
        creditIn: [],
        anyOf: [
          { minPasses: 8, minCredits: 3 },
          { minPasses: 7, minCredits: 4 },
          { minPasses: 0, minCredits: 5 },
        ],
      },
      {
        division: 'IV',
        aggregateAtMost: 68,
        minSubjects: 0,
        requiredCategories: [],
        creditIn: [],
        anyOf: [{ minPasses: 1, minCredits: 0 }],
      },
    ],
    otherwise: 'U',
  },
  alevel: {
    tables: [
      {
        // One paper maps directly: the letter of two equal papers of that value.
        papers: 1,
        rules: [
          { letter: 'A', worstAtMost: 2 },
          { letter: 'B', worstAtMost: 3 },
          { letter: 'C', worstAtMost: 4 },
          { letter: 'D', worstAtMost: 5 },
          { letter: 'E', worstAtMost: 6 },
          { letter: 'O', worstAtMost: 8 },
        ],
        otherwise: 'F',
      },
      {
        // (1,3) B, (4,4) C, (1,6) E, (4,8) E, (6,7) O, (1,9) O, (8,9) F.
        papers: 2,
        rules: [
          { letter: 'A', worstAtMost: 2 },
          { letter: 'B', worstAtMost: 3 },
          { letter: 'C', worstAtMost: 4 },
          { letter: 'D', worstAtMost: 5 },
          { letter: 'E', worstAtMost: 6 },
          { letter: 'E', worstAtMost: 8, sumAtMost: 12 },
          { letter: 'O', worstAtMost: 8, sumAtMost: 16 },
          { letter: 'O', othersAtMost: 6 },
        ],
        otherwise: 'F',
      },
      { papers: 3, rules: STEP_RULES.map((rule) => ({ ...rule })), otherwise: 'F' },
      { papers: 4, rules: STEP_RULES.map((rule) => ({ ...rule })), otherwise: 'F' },
    ],
    points: { A: 6, B: 5, C: 4, D: 3, E: 2, O: 1, F: 0 },
    subsidiary: { categories: ['subsidiary', 'general'], creditAtMost: 6, points: 1 },
    schoolScores: [],
  },
  positions: DEFAULT_POSITION_RULES,
  missed: DEFAULT_MISSED_RULE,
  rounding: DEFAULT_ROUNDING_RULE,
  newCurriculum: DEFAULT_NC_RULES,
};
