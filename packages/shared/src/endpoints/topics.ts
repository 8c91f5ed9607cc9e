import { z } from 'zod';
import { topics } from '../resources/curriculum.js';
import { defineEndpoint } from './definition.js';

/*
 * A competency created with its scores (issue 26 point 2, spec §2 "/school/topics/new": "an
 * optional filled scores sheet"): the competency's fields and a marks sheet of its class and
 * subject, filled offline, saved in one action. A refused row saves nothing, not even the
 * competency, so the teacher sends the same form again once the sheet is right.
 */

/** The new competency as the list reads it, and what the sheet saved. */
export const TopicWithScoresSchema = z.object({
  created: topics.record,
  message: z.string(),
  saved: z.number(),
  unchanged: z.number(),
});

export const topicWithScoresEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/school/topics/sheet',
  access: { action: 'manage', subject: 'mark' },
  body: topics.input,
  file: { field: 'file', required: true },
  response: TopicWithScoresSchema,
});
