import { listResponseSchema } from '../resources/definition.js';
import { GradeSetSchema, grades } from '../resources/school.js';
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
