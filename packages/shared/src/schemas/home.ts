import { z } from 'zod';

/**
 * Home dashboard counts: class -> number of active learners (spec §3 "Home response"); and the
 * tenant's stock locations, what a business has to show today (issue 10 point 8).
 */
export const HomeResponseSchema = z.object({ students: z.record(z.string(), z.number()), locations: z.number() });
export type HomeResponse = z.infer<typeof HomeResponseSchema>;
