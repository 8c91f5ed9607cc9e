import { IdParamsSchema } from '../schemas/common.js';
import { StudentResultsSchema } from '../schemas/marks.js';
import { defineEndpoint } from './definition.js';

/** A learner's academic records: per class, term and year, each exam's subjects with mark and grade. */
export const studentResultsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/students/:id/results',
  access: 'member',
  params: IdParamsSchema,
  response: StudentResultsSchema,
});
