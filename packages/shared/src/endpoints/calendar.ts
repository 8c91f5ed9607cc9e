import { TermDatesInputSchema, TermDatesQuerySchema, TermDatesResponseSchema } from '../calendar.js';
import { defineEndpoint } from './definition.js';

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
