import { type EndpointInput, type ListAnswer, type ResourceDefinition, resourceEndpoints } from '@mustard/shared';
import type { z } from 'zod';
import { call, downloadFrom } from './api.js';

/** What a list screen sends: its filter bar's values, the search, the page. */
export type ListQuery = Record<string, unknown>;
/** What a form sends: its values, or a FormData where a photo travels with them. */
export type FormBody = Record<string, unknown> | FormData;

/**
 * The calls of one list screen, each through an endpoint contract (packages/shared): the URL
 * from the contract's path, the answer parsed by its schema, so the rows a screen draws are what
 * the contract promises. `resourceCalls` gives them for a resource the server registers from
 * its definition; a resource whose routes are written by hand (learners, members, schools,
 * marks) gives its own from its module's contracts.
 */
export interface ResourceCalls<Row> {
  list(query: ListQuery): Promise<ListAnswer<Row>>;
  /** The list as a spreadsheet (`excel=1`), saved under the server's file name. */
  download(query: ListQuery): Promise<string>;
  read?(id: string): Promise<Row>;
  /** The answer a create gives: the record, or what the screen shows once (a member's invitation code). */
  create?(body: FormBody): Promise<unknown>;
  update?(id: string, body: FormBody): Promise<Row>;
  remove?(id: string): Promise<unknown>;
}

/** The contracts of a resource, as built for any resource: their answers are the record schema's. */
type Endpoints = ReturnType<typeof resourceEndpoints<ResourceDefinition>>;
type Query = EndpointInput<Endpoints['list']>['query'];
type Body = EndpointInput<Endpoints['create']>['body'];

/**
 * The five calls of a resource from its contracts (`resourceEndpoints`): list, read, create,
 * update, remove, and the list's spreadsheet. The answers are parsed by the resource's record
 * schema, so they are its records. What a screen's form or filter bar holds goes as the server's
 * contract takes it (the server checks it, and answers a 422 naming each field it refuses).
 */
export function resourceCalls<D extends ResourceDefinition>(resource: D): Required<ResourceCalls<z.output<D['record']>>> {
  type Row = z.output<D['record']>;
  const endpoints: Endpoints = resourceEndpoints<ResourceDefinition>(resource);
  return {
    list: async (query) => {
      const answer = await call(endpoints.list, { query: query as Query });
      return { rows: answer[resource.listKey] as Row[], totalRecords: answer.totalRecords as number };
    },
    download: (query) => downloadFrom(endpoints.list, { query: query as Query }),
    read: async (id) => (await call(endpoints.read, { params: { id } })) as Row,
    create: (body) => call(endpoints.create, { body: body as Body }),
    update: async (id, body) => (await call(endpoints.update, { params: { id }, body: body as Body })) as Row,
    remove: (id) => call(endpoints.remove, { params: { id } }),
  };
}

/** Every record a school keeps of one kind fits one answer: a school has tens of subjects, not thousands. */
export const ALL_RECORDS = 1000;

/** The query key of a resource's whole list, shared by every select of its records and what a write refreshes. */
export const choicesKey = (resource: { name: string }, tenantId: string | undefined) => ['choices', resource.name, tenantId] as const;

/** A resource's whole list (its records for a select, or whether a school has any yet). */
export function allRecords<D extends ResourceDefinition>(resource: D): Promise<ListAnswer<z.output<D['record']>>> {
  return resourceCalls(resource).list({ per_page: ALL_RECORDS });
}
