import { z } from 'zod';

/** Home dashboard counts: class -> number of active learners (spec §3 "Home response"). */
export const HomeResponseSchema = z.object({ students: z.record(z.string(), z.number()) });
export type HomeResponse = z.infer<typeof HomeResponseSchema>;
