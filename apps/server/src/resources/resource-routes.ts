import {
  classOptions,
  IdParamsSchema,
  listQuerySchema,
  listResponseSchema,
  MessageResponseSchema,
  matchClass,
  RESULT_MESSAGES,
  type ResourceDefinition,
  SETTINGS_MESSAGES,
} from '@mustard/shared';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { z } from 'zod';
import { recordAudit } from '../audit/audit.repository.js';
import { newId } from '../db/ids.js';
import { containsPattern } from '../db/search.js';
import { type Trx, withTenant } from '../db/tenant.js';
import { inTenant } from '../db/tenant-filter.js';
import { conflict, invalid, notFound, sqlState, stillReferenced } from '../errors.js';
import { currentTenant, currentUser, tenantScope } from '../plugins/access.js';
import { rowsToWorkbook, timestampedFileName } from './excel.js';

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

/** How a resource is stored: what its definition in packages/shared does not say. */
export interface ResourceStorage {
  table: string;
  /**
   * Nested names of referenced records, as the spec's lists show them (`subject.name`): the
   * record field, the referenced table, the foreign key column and the column to show.
   */
  references?: Record<string, { table: string; key: string; column: string }>;
  /** Parent column when the list answers a tree: top-level records with their `children`. */
  treeParent?: string;
  /** The field a duplicate is reported on (default: the form's first field). */
  uniqueField?: string;
  /** Whether the generic create route exists (grades are created as whole sets instead). */
  create?: boolean;
  /** Checks inside the write's transaction, after validation; throw an AppError to refuse. */
  beforeWrite?(trx: Trx, tenantId: string, input: Record<string, unknown>, id: string | null): Promise<void>;
}

/** Spreadsheets are for a class or a school, not for exporting the whole database. */
export const EXPORT_LIMIT = 20_000;

type AnyQuery = SelectQueryBuilder<any, any, any>;

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (current instanceof z.ZodNullable || current instanceof z.ZodOptional || current instanceof z.ZodDefault) {
    current = current.unwrap() as z.ZodType;
  }
  return current;
}

/**
 * A list's `excel=1` answer (spec §9): its export columns as one sheet, downloaded as
 * mustard-<timestamp>.xlsx. Every list that offers "Download excel" answers through this.
 */
export async function sendListWorkbook(reply: FastifyReply, definition: ResourceDefinition, records: Array<Record<string, unknown>>) {
  const sheet = await rowsToWorkbook(
    definition.name,
    definition.exportColumns.map(([field, header]) => ({ header, value: (row) => readPath(row, field) })),
    records.slice(0, EXPORT_LIMIT),
  );
  return reply
    .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', `attachment; filename="${timestampedFileName('mustard')}"`)
    .send(sheet as never);
}

/** `field.path` read from a nested record (`subject.name`). */
export function readPath(row: Record<string, unknown>, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), row);
}

/**
 * The routes of one resource (issue 4 "One mechanism"): list with filters, search, paging and
 * `excel=1`; read one; create; update; delete (409 with the resource's reason when others depend
 * on it). Every member of the school reads; writing needs the resource's subject class. Each
 * write is one transaction with its audit entry.
 */
export function registerResource(app: FastifyInstance, definition: ResourceDefinition, storage: ResourceStorage): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const db = app.database.db;
  const shape = definition.record.shape as Record<string, z.ZodType>;
  const references = storage.references ?? {};
  const columns = Object.keys(shape).filter((field) => field !== 'children' && !(field in references));
  const numeric = new Set(columns.filter((field) => unwrap(shape[field] as z.ZodType) instanceof z.ZodNumber));
  const filterFields = Object.keys(definition.filters.shape);
  const entity = definition.name;

  /** The record columns of `alias`, numbers as numbers (PostgreSQL answers numeric as text). */
  const selectRecord = (query: AnyQuery, alias: string): AnyQuery => {
    let selected = query.select(
      columns.map((field) =>
        numeric.has(field) ? sql<number>`${sql.ref(`${alias}.${field}`)}::float8`.as(field) : sql.ref(`${alias}.${field}`).as(field),
      ),
    );
    for (const [field, reference] of Object.entries(references)) {
      const joined = `${field}_ref`;
      selected = selected
        .leftJoin(`${reference.table} as ${joined}`, (join) =>
          join.onRef(`${joined}.tenant_id`, '=', `${alias}.tenant_id`).onRef(`${joined}.id`, '=', `${alias}.${reference.key}`),
        )
        .select(sql.ref(`${joined}.${reference.column}`).as(`${field}__${reference.column}`));
    }
    return selected;
  };

  /** Flat columns to the record's shape: `subject__name` becomes `subject: { name }`. */
  const toRecord = (row: Record<string, unknown>): Record<string, unknown> => {
    const record: Record<string, unknown> = {};
    for (const field of columns) record[field] = row[field];
    for (const [field, reference] of Object.entries(references)) {
      const value = row[`${field}__${reference.column}`];
      record[field] = value === null || value === undefined ? null : { [reference.column]: value };
    }
    return record;
  };

  const ordered = (query: AnyQuery, alias: string): AnyQuery => {
    let result = query;
    for (const [field, direction] of definition.sort)
      result = result.orderBy(sql.ref(`${alias}.${field}`), (order) => (direction === 'asc' ? order.asc() : order.desc()).nullsLast());
    return result.orderBy(sql.ref(`${alias}.id`));
  };

  const findOne = async (trx: Trx, tenantId: string, id: string) => {
    const row = await selectRecord((trx as unknown as Kysely<any>).selectFrom(`${storage.table} as r`), 'r')
      .$call(inTenant(tenantId, 'r.tenant_id'))
      .where('r.id', '=', id)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  };

  /** Duplicates and dangling references as the form's own messages, inside the same answer. */
  const writeErrors = (error: unknown): never => {
    const state = sqlState(error);
    if (state === '23505')
      throw invalid({ [storage.uniqueField ?? Object.keys(definition.input.shape)[0] ?? 'id']: [SETTINGS_MESSAGES.duplicate] });
    if (state === '23503') {
      // The constraint's name carries its column (grades_tenant_id_subject_id_fkey).
      const message = String((error as Error).message);
      const field = Object.keys(definition.input.shape).find((name) => name.endsWith('_id') && message.includes(name));
      throw invalid({ [field ?? 'id']: [SETTINGS_MESSAGES.referenceMissing] });
    }
    throw error;
  };

  routes.get(
    definition.path,
    {
      config: { access: 'member' },
      schema: { querystring: listQuerySchema(definition), response: { 200: listResponseSchema(definition) } },
    },
    async (request, reply) => {
      const scope = tenantScope(request);
      const query = request.query as Record<string, unknown> & { search?: string; page: number; per_page: number; excel: boolean };
      const answer = await withTenant(db, scope, async (trx) => {
        let base = (trx as unknown as Kysely<any>)
          .selectFrom(`${storage.table} as r`)
          .$call(inTenant(scope.tenantId, 'r.tenant_id')) as AnyQuery;
        for (const field of filterFields) {
          const value = query[field];
          if (value !== undefined && value !== '')
            base = base.where(sql.ref(`r.${field}`), '=', field === 'active' ? value === 'true' : value);
        }
        if (query.search && definition.searchFields.length > 0) {
          const pattern = containsPattern(query.search);
          base = base.where((eb) =>
            eb.or(definition.searchFields.map((field) => eb(sql`${sql.ref(`r.${field}`)}::text`, 'ilike', pattern))),
          );
        }
        if (storage.treeParent) base = base.where(sql.ref(`r.${storage.treeParent}`), 'is', null);
        const { total } = (await base.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow()) as { total: number };
        let rowsQuery = ordered(selectRecord(base, 'r'), 'r');
        rowsQuery = query.excel ? rowsQuery.limit(EXPORT_LIMIT) : rowsQuery.limit(query.per_page).offset((query.page - 1) * query.per_page);
        const records = (await rowsQuery.execute()).map(toRecord);
        if (storage.treeParent && records.length > 0) {
          const parent = storage.treeParent;
          const children = (
            await ordered(selectRecord((trx as unknown as Kysely<any>).selectFrom(`${storage.table} as r`), 'r'), 'r')
              .$call(inTenant(scope.tenantId, 'r.tenant_id'))
              .where(
                sql.ref(`r.${parent}`),
                'in',
                records.map((record) => record.id),
              )
              .execute()
          ).map(toRecord);
          for (const record of records) record.children = children.filter((child) => child[parent] === record.id);
        }
        return { records, total };
      });
      if (query.excel)
        return sendListWorkbook(
          reply,
          definition,
          answer.records.flatMap((record) => [record, ...((record.children as Array<Record<string, unknown>> | undefined) ?? [])]),
        );
      return { [definition.listKey]: answer.records, totalRecords: answer.total };
    },
  );

  routes.get(
    `${definition.path}/:id`,
    { config: { access: 'member' }, schema: { params: IdParamsSchema, response: { 200: definition.record } } },
    async (request) => {
      const scope = tenantScope(request);
      const record = await withTenant(db, scope, (trx) => findOne(trx, scope.tenantId, request.params.id));
      if (!record) throw notFound();
      return record;
    },
  );

  if (storage.create !== false) {
    routes.post(
      definition.path,
      {
        config: { access: { action: 'create', subject: definition.subject } },
        schema: { body: definition.input, response: { 200: definition.record } },
      },
      async (request) => {
        const scope = tenantScope(request);
        const input = placeClassFields(
          definition.classFields,
          request.body as Record<string, unknown>,
          classOptions(currentTenant(request).tenant),
        );
        return withTenant(db, scope, async (trx) => {
          await storage.beforeWrite?.(trx, scope.tenantId, input, null);
          const id = newId();
          await (trx as unknown as Kysely<any>)
            .insertInto(storage.table)
            .values({ ...input, tenant_id: scope.tenantId, id })
            .execute()
            .catch(writeErrors);
          const record = await findOne(trx, scope.tenantId, id);
          await recordAudit(trx, scope.tenantId, {
            userId: currentUser(request).id,
            action: 'create',
            entity,
            entityId: id,
            after: record,
          });
          return record as Record<string, unknown>;
        });
      },
    );
  }

  routes.put(
    `${definition.path}/:id`,
    {
      config: { access: { action: 'update', subject: definition.subject } },
      schema: { params: IdParamsSchema, body: definition.input, response: { 200: definition.record } },
    },
    async (request) => {
      const scope = tenantScope(request);
      const input = placeClassFields(
        definition.classFields,
        request.body as Record<string, unknown>,
        classOptions(currentTenant(request).tenant),
      );
      const { id } = request.params;
      return withTenant(db, scope, async (trx) => {
        const before = await findOne(trx, scope.tenantId, id);
        if (!before) throw notFound();
        await storage.beforeWrite?.(trx, scope.tenantId, input, id);
        await (trx as unknown as Kysely<any>)
          .updateTable(storage.table)
          .set({ ...input, updated_at: sql`now()` })
          .$call(inTenant(scope.tenantId))
          .where('id', '=', id)
          .execute()
          .catch(writeErrors);
        const after = await findOne(trx, scope.tenantId, id);
        await recordAudit(trx, scope.tenantId, { userId: currentUser(request).id, action: 'update', entity, entityId: id, before, after });
        return after as Record<string, unknown>;
      });
    },
  );

  routes.delete(
    `${definition.path}/:id`,
    {
      config: { access: { action: 'delete', subject: definition.subject } },
      schema: { params: IdParamsSchema, response: { 200: MessageResponseSchema } },
    },
    async (request) => {
      const scope = tenantScope(request);
      const { id } = request.params;
      await withTenant(db, scope, async (trx) => {
        const before = await findOne(trx, scope.tenantId, id);
        if (!before) throw notFound();
        await (trx as unknown as Kysely<any>)
          .deleteFrom(storage.table)
          .$call(inTenant(scope.tenantId))
          .where('id', '=', id)
          .execute()
          .catch((error: unknown) => {
            throw stillReferenced(error) ? conflict(definition.inUse) : error;
          });
        await recordAudit(trx, scope.tenantId, { userId: currentUser(request).id, action: 'delete', entity, entityId: id, before });
      });
      return { message: RESULT_MESSAGES.deleted };
    },
  );
}
