import { z } from 'zod';
import { SETTINGS_MESSAGES } from '../messages.js';
import { listResponseSchema } from '../resources/definition.js';
import { term, year } from '../resources/fields.js';
import { GradeSetSchema, grades, proportions } from '../resources/school.js';
import { defineEndpoint } from './definition.js';

/**
 * A grade set written whole (spec §3 "Grade set"): the bands of one subject, class, term and
 * year; answers the set as saved, as the grades list would.
 */
export const saveGradeSetEndpoint = defineEndpoint({
  method: 'POST',
  path: grades.path,
  access: { action: 'create', subject: grades.subject },
  body: GradeSetSchema,
  response: listResponseSchema(grades),
});

/** How many of something a bulk action wrote, and how many it left as they were (already there). */
export const BulkCountSchema = z.object({ copied: z.number().int(), skipped: z.number().int() });
export type BulkCount = z.infer<typeof BulkCountSchema>;

/**
 * A new term's grade sets and proportions copied from another term in one action (issue 24:
 * "Copy from Term II"): every grade set (a class and subject's bands) and proportion of the
 * source term that the target term does not have yet. What the target has is never
 * overwritten: it is counted as skipped. One transaction.
 */
export const CopyTermSettingsSchema = z
  .strictObject({ from_term: term, from_year: year, term, year })
  .refine((body) => body.from_term !== body.term || body.from_year !== body.year, {
    error: SETTINGS_MESSAGES.copySameTerm,
    path: ['from_term'],
  });
export type CopyTermSettings = z.infer<typeof CopyTermSettingsSchema>;

export const CopyTermSettingsResponseSchema = z.object({ grades: BulkCountSchema, proportions: BulkCountSchema });
export type CopyTermSettingsResponse = z.infer<typeof CopyTermSettingsResponseSchema>;

export const copyTermSettingsEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/school/settings/copyterm',
  access: { action: 'create', subject: grades.subject },
  body: CopyTermSettingsSchema,
  response: CopyTermSettingsResponseSchema,
});

/** Where one grade set or proportion goes at once: every class of the school (same subject), or every active subject (same class). */
export const APPLY_TO = ['classes', 'subjects'] as const;
export type ApplyTo = (typeof APPLY_TO)[number];
const applyTo = z.enum(APPLY_TO, { error: SETTINGS_MESSAGES.categoryRequired });

/**
 * One grade set applied to all classes or all subjects (issue 24) instead of one dialog each,
 * for the term and year: each class's (or subject's) set is written whole; one that exists is
 * replaced only with `replace`, else counted as skipped. One transaction.
 */
export const ApplyGradeSetSchema = GradeSetSchema.safeExtend({ apply_to: applyTo });
export type ApplyGradeSet = z.infer<typeof ApplyGradeSetSchema>;

export const applyGradeSetEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/school/grades/apply',
  access: { action: 'create', subject: grades.subject },
  body: ApplyGradeSetSchema,
  response: BulkCountSchema,
});

/**
 * One proportion (a mark type's share of a subject's total) applied to all classes or all
 * subjects for the term and year; one that exists is changed only with `replace`, else counted
 * as skipped. One transaction.
 */
export const ApplyProportionSchema = proportions.input.extend({ apply_to: applyTo, replace: z.boolean().optional() });
export type ApplyProportion = z.infer<typeof ApplyProportionSchema>;

export const applyProportionEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/school/proportions/apply',
  access: { action: 'create', subject: proportions.subject },
  body: ApplyProportionSchema,
  response: BulkCountSchema,
});
