import { z } from 'zod';
import { IN_USE_MESSAGES } from '../messages.js';
import { InvitationCreateSchema, UserSchema, UserUpdateSchema } from '../schemas/user.js';
import { defineResource } from './definition.js';

/**
 * A school's members on `/users` (the Admin Console link, issue 13 point 5). Their routes are
 * written by hand (endpoints/users.ts): adding a member sends an invitation, which the person
 * accepts with their own password, and an update changes only the member's roles there.
 */
export const members = defineResource({
  name: 'users',
  path: '/api/users',
  listKey: 'users',
  record: UserSchema,
  input: InvitationCreateSchema,
  updateInput: UserUpdateSchema,
  filters: z.object({}),
  searchFields: ['name', 'email'],
  sort: [['name', 'asc']],
  pageSize: 25,
  subject: 'user',
  // Never answered: removing a member keeps what they did (their assignments stay, named).
  inUse: IN_USE_MESSAGES.staff,
  exportColumns: [
    ['name', 'Name'],
    ['email', 'Email'],
    ['role_names', 'Roles'],
  ],
});
