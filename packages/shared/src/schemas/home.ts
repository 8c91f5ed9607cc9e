import { z } from 'zod';

/**
 * Home dashboard counts: class -> number of active learners (spec §3 "Home response"); and the
 * tenant's stock locations, what a business has to show today (issue 10 point 8).
 */
export const HomeResponseSchema = z.object({ students: z.record(z.string(), z.number()), locations: z.number() });
export type HomeResponse = z.infer<typeof HomeResponseSchema>;

/**
 * A new school's setup checklist (issue 24 point 6): whether it has each thing a first term's
 * marks and cards need. Teachers: someone has been given a subject or a class to teach.
 */
export const HomeSetupSchema = z.object({
  subjects: z.boolean(),
  mark_types: z.boolean(),
  grade_sets: z.boolean(),
  learners: z.boolean(),
  teachers: z.boolean(),
});
export type HomeSetup = z.infer<typeof HomeSetupSchema>;
