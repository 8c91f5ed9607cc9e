import { TermDatesInputSchema, TermDatesQuerySchema, TermDatesResponseSchema } from '../calendar.js';
import { IdParamsSchema, MessageResponseSchema } from '../schemas/common.js';
import { HomeResponseSchema } from '../schemas/home.js';
import { defineEndpoint } from './definition.js';

/** The dashboard's counts: active learners per class, and stock locations. */
export const homeEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/home/mustard',
  access: 'member',
  response: HomeResponseSchema,
});

/** A year's term dates: the school's own, else the Ugandan defaults. */
export const termDatesEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/termdates',
  access: 'member',
  query: TermDatesQuerySchema,
  response: TermDatesResponseSchema,
});

/** A year's three terms, saved whole. */
export const saveTermDatesEndpoint = defineEndpoint({
  method: 'PUT',
  path: '/api/school/termdates',
  access: { action: 'update', subject: 'setting' },
  body: TermDatesInputSchema,
  response: TermDatesResponseSchema,
});

/** Removes a learner entered by mistake (no marks, no fee lines); 409 for anyone else. */
export const deleteStudentEndpoint = defineEndpoint({
  method: 'DELETE',
  path: '/api/school/students/:id',
  access: { action: 'delete', subject: 'student' },
  params: IdParamsSchema,
  response: MessageResponseSchema,
});
