import { z } from 'zod';
import { GRADING_RULE_MESSAGES as M } from './rule-messages.js';

/*
 * The new curriculum's rules (guide new-curriculum.md, "What is computed"): data with the
 * guide's defaults, part of a school's grading rules and edited on the same screen. A school
 * changes the identifier bands and their words, how the formative 20% is made, the A..E table
 * (its own ranges; no table is official) and whether positions and the S4 certificate preview
 * are printed.
 */

/**
 * How the formative 20% is made: `scores`, the subject score out of 3 scaled to 20 (mode A, the
 * default); `scoresAndProject`, the subject score to 10 and the project to 10 (mode B).
 */
export const NC_FORMATIVE_MODES = ['scores', 'scoresAndProject'] as const;
export type NcFormativeMode = (typeof NC_FORMATIVE_MODES)[number];

const label = z.string(M.labelEmpty).trim().min(1, M.labelEmpty).max(40, M.labelEmpty);
const descriptor = z.string().trim().max(300);
/** A score bound on the identifier scale: 0 to 3, one decimal. */
const scoreBound = z
  .number(M.ncScoreOutOfRange)
  .min(0, M.ncScoreOutOfRange)
  .max(3, M.ncScoreOutOfRange)
  .refine((value) => Number.isInteger(Math.round(value * 10 * 1e6) / 1e6), M.ncScoreOutOfRange);
const percentBound = z
  .number(M.ncPercentOutOfRange)
  .int(M.ncPercentOutOfRange)
  .min(0, M.ncPercentOutOfRange)
  .max(100, M.ncPercentOutOfRange);

/** Bands best first: each starts strictly below the one before, the last at 0 (every value has a band). */
function refuseUnsortedBands(bands: ReadonlyArray<{ atLeast: number }>, ctx: z.RefinementCtx) {
  bands.forEach((band, index) => {
    const before = bands[index - 1];
    if ((before && band.atLeast >= before.atLeast) || (index === bands.length - 1 && band.atLeast !== 0))
      ctx.addIssue({ code: 'custom', message: M.ncBoundsUnsorted, path: [index, 'atLeast'] });
  });
}

export const NcRulesSchema = z.object({
  /** The identifiers, best first: a score at least `atLeast` (out of 3) is described by `label` and `descriptor`. */
  identifiers: z
    .array(z.object({ label, atLeast: scoreBound, descriptor }))
    .min(1, M.gradesEmpty)
    .superRefine(refuseUnsortedBands),
  formative: z.enum(NC_FORMATIVE_MODES, M.ncFormativeUnknown),
  /** The grades over the total out of 100, best first, with their descriptors (UNEB's by default). */
  grades: z
    .array(z.object({ grade: label, atLeast: percentBound, descriptor }))
    .min(1, M.gradesEmpty)
    .superRefine(refuseUnsortedBands),
  /** Positions printed on the new-curriculum card (not by default: schools print none). */
  positions: z.boolean(),
  /** The S4 certificate preview (Result 1, 2 or 3) printed on S4 cards. */
  certificate: z.boolean(),
});
export type NcRules = z.infer<typeof NcRulesSchema>;
export type NcIdentifierBand = NcRules['identifiers'][number];
export type NcGradeBand = NcRules['grades'][number];

/** The guide's defaults: the spec's bands (§9), mode A, A >= 80 .. E with UNEB's descriptors, no positions. */
export const DEFAULT_NC_RULES: NcRules = {
  identifiers: [
    { label: 'Outstanding', atLeast: 2.5, descriptor: 'Most or all learning outcomes achieved for overall achievement' },
    { label: 'Moderate', atLeast: 1.5, descriptor: 'Many learning outcomes achieved, enough for overall achievement' },
    { label: 'Basic', atLeast: 0, descriptor: 'Few learning outcomes achieved, but not sufficient for overall achievement' },
  ],
  formative: 'scores',
  grades: [
    {
      grade: 'A',
      atLeast: 80,
      descriptor:
        'Exceptional: demonstrates an extraordinary level of competency by applying innovatively and creatively the acquired knowledge and skills in real-life situations',
    },
    {
      grade: 'B',
      atLeast: 70,
      descriptor:
        'Outstanding: demonstrates a high level of competency by applying the acquired knowledge and skills in real-life situations',
    },
    {
      grade: 'C',
      atLeast: 60,
      descriptor:
        'Satisfactory: demonstrates an adequate level of competency by applying the acquired knowledge and skills in real-life situations',
    },
    {
      grade: 'D',
      atLeast: 50,
      descriptor: 'Basic: demonstrates a minimum level of competency in applying the acquired knowledge and skills in real-life situations',
    },
    {
      grade: 'E',
      atLeast: 0,
      descriptor:
        'Elementary: demonstrates below the basic level of competency in applying the acquired knowledge and skills in real-life situations',
    },
  ],
  positions: false,
  certificate: false,
};
