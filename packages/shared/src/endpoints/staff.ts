import { z } from 'zod';
import { MyAssignmentsQuerySchema, MyAssignmentsResponseSchema } from '../assignments.js';
import { defineEndpoint } from './definition.js';

/**
 * The school's members as teacher options (spec §7 "requisition defaults": users, id and name),
 * by name. A teacher is always a member, never a typed name.
 */
export const requisitionDefaultsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/requisitions/defaults',
  access: 'member',
  response: z.object({ users: z.array(z.object({ id: z.string(), name: z.string() })) }),
});

/** What the signed-in member may enter in a term, from their roles and assignments (issue 13 point 4). */
export const myAssignmentsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/assignments/mine',
  access: 'member',
  query: MyAssignmentsQuerySchema,
  response: MyAssignmentsResponseSchema,
});
