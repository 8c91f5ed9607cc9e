import { z } from 'zod';
import { IN_USE_MESSAGES } from '../messages.js';
import { TenantNewSchema, TenantSchema, TenantUpdateSchema } from '../schemas/tenant.js';
import { defineResource } from './definition.js';

/**
 * Tenants (schools and businesses) on `/businesses`. Their routes are written by hand (a new
 * tenant gets default roles and its creator as administrator); the list screen is the common one.
 */
export const tenants = defineResource({
  name: 'tenants',
  path: '/api/tenants',
  listKey: 'tenants',
  record: TenantSchema,
  // A new school may start with the Ugandan defaults; an edit takes the form alone.
  input: TenantNewSchema,
  updateInput: TenantUpdateSchema,
  filters: z.object({}),
  searchFields: ['name', 'tenantcode', 'category'],
  sort: [['name', 'asc']],
  pageSize: 25,
  subject: 'tenant',
  inUse: IN_USE_MESSAGES.tenants,
  exportColumns: [
    ['name', 'Name'],
    ['tenantcode', 'Code'],
    ['category', 'Category'],
  ],
});
