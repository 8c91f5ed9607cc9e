import { listQuerySchema, listResponseSchema, type ResourceDefinition } from '../resources/definition.js';
import { MessageResponseSchema } from '../schemas/common.js';
import { defineEndpoint } from './definition.js';
import { IdParamsSchema } from './fields.js';

/**
 * The five routes of a resource as endpoint contracts: list (filters, search, paging, and with
 * `excel=1` a spreadsheet), read, create, update, delete. Every member reads; writing needs the
 * action on the resource's subject class. The server registers them (registerResource), the web
 * calls them; a resource states only its definition.
 */
/* @__NO_SIDE_EFFECTS__ */
export function resourceEndpoints<D extends ResourceDefinition>(definition: D) {
  const item = `${definition.path}/:id`;
  const may = <A extends 'create' | 'update' | 'delete'>(action: A) => ({
    action: definition.writeAction ?? action,
    subject: definition.subject,
  });
  return {
    list: defineEndpoint({
      method: 'GET',
      path: definition.path,
      access: 'member',
      query: listQuerySchema(definition),
      response: listResponseSchema(definition),
      spreadsheet: true,
    }),
    read: defineEndpoint({
      method: 'GET',
      path: item,
      access: 'member',
      params: IdParamsSchema,
      response: definition.record as D['record'],
    }),
    create: defineEndpoint({
      method: 'POST',
      path: definition.path,
      access: may('create'),
      body: definition.input as D['input'],
      response: definition.record as D['record'],
    }),
    update: defineEndpoint({
      method: 'PUT',
      path: item,
      access: may('update'),
      params: IdParamsSchema,
      body: (definition.updateInput ?? definition.input) as D['input'],
      response: definition.record as D['record'],
    }),
    remove: defineEndpoint({
      method: 'DELETE',
      path: item,
      access: may('delete'),
      params: IdParamsSchema,
      response: MessageResponseSchema,
    }),
  };
}
