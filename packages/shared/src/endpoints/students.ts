import { IdParamsSchema, MessageResponseSchema } from '../schemas/common.js';
import { defineEndpoint } from './definition.js';

/** Removes a learner entered by mistake (no marks, no fee lines); 409 for anyone else. */
export const deleteStudentEndpoint = defineEndpoint({
  method: 'DELETE',
  path: '/api/school/students/:id',
  access: { action: 'delete', subject: 'student' },
  params: IdParamsSchema,
  response: MessageResponseSchema,
});
