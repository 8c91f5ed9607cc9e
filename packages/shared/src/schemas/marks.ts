import { z } from 'zod';

/* Academic results (spec §3 "Student result record"): what the learner's page shows. */

/** A subject's result in one exam: the mark and the grade it earns ("score"); S5 and S6 per paper. */
export const SubjectResultSchema = z.object({
  subject_id: z.uuid(),
  subject: z.string(),
  category: z.string(),
  mark: z.number().nullable(),
  score: z.string().nullable(),
  papers: z.array(z.object({ paper: z.string(), mark: z.number(), score: z.string().nullable() })).optional(),
  total: z.number().optional(),
});
export type SubjectResult = z.infer<typeof SubjectResultSchema>;

/** A learner's academic records (spec §3 "Student result record"): one per class, term and year. */
export const StudentResultsSchema = z.object({
  results: z.array(
    z.object({
      form: z.string(),
      term: z.string(),
      year: z.number(),
      exams: z.array(z.object({ marktype_id: z.uuid(), marktype: z.string(), subjects: z.array(SubjectResultSchema) })),
      /** New-curriculum results: per subject the competencies (topics) scored 1 to 3, and their average. */
      ncresults: z.array(
        z.object({
          subject_id: z.uuid(),
          subject: z.string(),
          topics: z.array(z.object({ topic_id: z.uuid(), title: z.string(), mark: z.number(), score: z.string() })),
          average: z.number(),
          score: z.string(),
        }),
      ),
    }),
  ),
  /** The classes the learner was in before (promotions). */
  history: z.array(z.object({ form: z.string(), stream: z.string().nullable(), year: z.number(), outcome: z.string() })),
});
export type StudentResults = z.infer<typeof StudentResultsSchema>;
