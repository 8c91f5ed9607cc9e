import { matchClass, RESULT_MESSAGES, type ResourceDefinition, resourceEndpoints, SETTINGS_MESSAGES } from '@mustard/shared';
import type { FastifyInstance } from 'fastify';
import { invalid } from '../errors.js';
import { type FileAnswer, spreadsheetAnswer, tenantEndpointRoute } from '../plugins/endpoints.js';
import { schoolOf } from '../plugins/school.js';
import { rowsToWorkbook, timestampedFileName } from './excel.js';
import { EXPORT_LIMIT, type ListQuery, type ResourceRepository, type ResourceStorage, resourceRepository } from './resource-repository.js';

export { EXPORT_LIMIT, type ResourceStorage };

/**
 * The class fields of a resource's input in the school's spelling (`p4` becomes `P4`; a list
 * `s5, S6` becomes `S5,S6`), or a 422 naming each field that holds a class the school does not
 * have. Blank list fields stay blank.
 */
export function placeClassFields(
  fields: ResourceDefinition['classFields'],
  input: Record<string, unknown>,
  classes: ReadonlyArray<string>,
): Record<string, unknown> {
  const errors: Record<string, string[]> = {};
  const placed = { ...input };
  for (const { field, list } of fields ?? []) {
    const value = input[field];
    if (typeof value !== 'string') continue;
    const typed = list
      ? value
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean)
      : [value];
    const matched = typed.map((item) => matchClass(classes, item));
    if (matched.some((item) => item === null)) errors[field] = [SETTINGS_MESSAGES.classUnknown];
    else placed[field] = list ? matched.join(',') : matched[0];
  }
  if (Object.keys(errors).length > 0) throw invalid(errors);
  return placed;
}

/** `field.path` read from a nested record (`subject.name`). */
export function readPath(row: Record<string, unknown>, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), row);
}

/**
 * A list's `excel=1` answer (spec §9): its export columns as one sheet, downloaded as
 * mustard-<timestamp>.xlsx. Every list that offers "Download excel" answers through this.
 */
export async function listWorkbook(definition: ResourceDefinition, records: Array<Record<string, unknown>>): Promise<FileAnswer> {
  const sheet = await rowsToWorkbook(
    definition.name,
    definition.exportColumns.map(([field, header]) => ({ header, value: (row) => readPath(row, field) })),
    records.slice(0, EXPORT_LIMIT),
  );
  return spreadsheetAnswer(timestampedFileName('mustard'), sheet);
}

/**
 * The routes of one resource (issue 4 "One mechanism"), from its contracts (shared
 * `resourceEndpoints`) and its repository: list with filters, search, paging and `excel=1`;
 * read one; create; update; delete (409 with the resource's reason when others depend on it).
 * Every member of the school reads; writing needs the resource's subject class. Each write is
 * one transaction with its audit entry. Answers the repository, for the module's own routes.
 */
export function registerResource<D extends ResourceDefinition>(
  app: FastifyInstance,
  definition: D,
  storage: ResourceStorage,
): ResourceRepository<D> {
  const repository = resourceRepository(definition, storage);
  const endpoints = resourceEndpoints(definition);

  tenantEndpointRoute(app, endpoints.list, async (tx, { query }) => {
    const list = query as ListQuery;
    const { records, total } = await repository.list(tx, list);
    if (!list.excel) return { [definition.listKey]: records, totalRecords: total };
    // A tree's spreadsheet lists each record followed by its children.
    return listWorkbook(
      definition,
      records.flatMap((record) => [record, ...((record.children as Array<Record<string, unknown>> | undefined) ?? [])]),
    );
  });

  // A record read back is what the record schema describes; the answer is serialised by that
  // same schema (the compiler cannot relate a generic schema's output to its input).
  const asAnswer = (record: Promise<unknown>) => record as Promise<never>;

  tenantEndpointRoute(app, endpoints.read, (tx, { params }) => asAnswer(repository.found(tx, params.id)));

  if (storage.create !== false)
    tenantEndpointRoute(app, endpoints.create, (tx, { body }, request) =>
      asAnswer(repository.create(tx, placeClassFields(definition.classFields, body as Record<string, unknown>, schoolOf(request).classes))),
    );

  tenantEndpointRoute(app, endpoints.update, (tx, { params, body }, request) =>
    asAnswer(
      repository.update(
        tx,
        params.id,
        placeClassFields(definition.classFields, body as Record<string, unknown>, schoolOf(request).classes),
      ),
    ),
  );

  tenantEndpointRoute(app, endpoints.remove, async (tx, { params }) => {
    await repository.remove(tx, params.id);
    return { message: RESULT_MESSAGES.deleted };
  });

  return repository;
}
