import { z } from 'zod';
import { CURRICULA } from '../curriculum.js';
import { INPUT_MESSAGES, SETTINGS_MESSAGES as M } from '../messages.js';
import { defineEndpoint } from './definition.js';

/*
 * Which classes are new-curriculum classes in a year (issue 26 point 1), and whether a
 * competency may score 0: read by every member (the marks grid and the reports follow them),
 * changed by those who manage the school's settings, as the grading rules are.
 */

const YearSchema = z.number({ error: M.yearInvalid }).int(M.yearInvalid).min(2000, M.yearInvalid).max(2100, M.yearInvalid);
const CurriculumSchema = z.enum(CURRICULA, { error: INPUT_MESSAGES.valueInvalid });

export const ClassCurriculaQuerySchema = z.object({
  year: z.coerce.number({ error: M.yearInvalid }).int(M.yearInvalid).min(2000, M.yearInvalid).max(2100, M.yearInvalid),
});
export type ClassCurriculaQuery = z.infer<typeof ClassCurriculaQuerySchema>;

/** A year's classes, each with its curriculum and the default it has when the school chose nothing. */
export const ClassCurriculaAnswerSchema = z.object({
  year: z.number(),
  allow_zero: z.boolean(),
  classes: z.array(z.object({ form: z.string(), curriculum: CurriculumSchema, default: CurriculumSchema })),
});
export type ClassCurriculaAnswer = z.infer<typeof ClassCurriculaAnswerSchema>;

/**
 * A year's choices: each class listed takes the curriculum given (one equal to its default is
 * no choice, and forgets one made before); a class left out keeps what it had. `allow_zero` is
 * the school's, for every year.
 */
export const ClassCurriculaSaveSchema = z.strictObject({
  year: YearSchema,
  allow_zero: z.boolean({ error: INPUT_MESSAGES.valueInvalid }),
  classes: z
    .array(
      z.strictObject({
        form: z.string({ error: M.classRequired }).trim().min(1, M.classRequired).max(50, M.classUnknown),
        curriculum: CurriculumSchema,
      }),
      { error: INPUT_MESSAGES.valueInvalid },
    )
    .max(100, INPUT_MESSAGES.valueInvalid),
});
export type ClassCurriculaSave = z.infer<typeof ClassCurriculaSaveSchema>;

/** The year's classes with their curricula, and the school's rule on a score of 0. */
export const classCurriculaEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/curricula',
  access: 'member',
  query: ClassCurriculaQuerySchema,
  response: ClassCurriculaAnswerSchema,
});

/** Saves a year's choices and the rule on a score of 0 in one go; answers as the GET does. */
export const saveClassCurriculaEndpoint = defineEndpoint({
  method: 'PUT',
  path: '/api/school/curricula',
  access: { action: 'manage', subject: 'setting' },
  body: ClassCurriculaSaveSchema,
  response: ClassCurriculaAnswerSchema,
});
