import { type CatalogueMessage, exactText, type ResourceDefinition, SETTINGS_MESSAGES } from '@mustard/shared';
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { z } from 'zod';
import { recordAudit } from '../audit/audit.repository.js';
import { newId } from '../db/ids.js';
import { containsPattern } from '../db/search.js';
import type { TenantTx } from '../db/tenant.js';
import { inTenant } from '../db/tenant-filter.js';
import type { DB, GLOBAL_TABLES } from '../db/types.js';
import { conflict, invalid, notFound, sqlState, stillReferenced } from '../errors.js';

/** A table a tenant owns (every one but the global tables): what a resource may be stored in. */
export type TenantTable = Exclude<keyof DB & string, (typeof GLOBAL_TABLES)[number]>;

/** How a resource is stored: what its definition in packages/shared does not say. */
export interface ResourceStorage {
  table: TenantTable;
  /**
   * Nested names of referenced records, as the spec's lists show them (`subject.name`): the
   * record field, the referenced table, the foreign key column and the column to show.
   */
  references?: Record<string, { table: TenantTable; key: string; column: string }>;
  /**
   * People a record names (`teacher` from `user_id`), nested as `{ name, member }`: users are
   * global, so the name shows even for someone no longer a member, who is marked so.
   */
  people?: Record<string, string>;
  /** Parent column when the list answers a tree: top-level records with their `children`. */
  treeParent?: string;
  /** The field a duplicate is reported on (default: the form's first field). */
  uniqueField?: string;
  /**
   * When a duplicate is a conflict with what exists (an assignment held twice) rather than a
   * field to correct: 409 with this text instead of 422 on `uniqueField`.
   */
  duplicate?: CatalogueMessage;
  /**
   * Unique and foreign-key constraints by name, each reported on its own field with its own
   * text (a product's code and its barcode are both unique; a foreign key named without its
   * column): checked before `uniqueField`, `duplicate` and the generic foreign-key reading.
   */
  constraints?: Record<string, { field: string; message: CatalogueMessage }>;
  /** Whether the generic create route exists (grades are created as whole sets instead). */
  create?: boolean;
  /** Checks inside the write's transaction, after validation; throw an AppError to refuse. */
  beforeWrite?(tx: TenantTx, input: Record<string, unknown>, id: string | null): Promise<void>;
  /** Checks inside the delete's transaction, once the record is found; throw an AppError to refuse. */
  beforeRemove?(tx: TenantTx, id: string): Promise<void>;
}

/** Spreadsheets are for a class or a school, not for exporting the whole database. */
export const EXPORT_LIMIT = 20_000;

type AnyQuery = SelectQueryBuilder<any, any, any>;
type AnyRecord = Record<string, unknown>;

export interface ListQuery {
  search?: string;
  page: number;
  per_page: number;
  excel: boolean;
  [filter: string]: unknown;
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (current instanceof z.ZodNullable || current instanceof z.ZodOptional || current instanceof z.ZodDefault) {
    current = current.unwrap() as z.ZodType;
  }
  return current;
}

/**
 * The queries of one resource, for its generic routes and for a module's own routes alike (the
 * grade set reads what it saved with `where`): records read in the shape of the definition's
 * record (numbers as numbers, references nested), writes with their audit entry and the form's
 * own messages for duplicates and dangling references. Every call takes the action's
 * tenant-bound transaction.
 */
export function resourceRepository<D extends ResourceDefinition>(definition: D, storage: ResourceStorage) {
  /** A record as the definition's schema describes it. */
  type Row = z.output<D['record']>;
  const shape = definition.record.shape as Record<string, z.ZodType>;
  const references = storage.references ?? {};
  const people = storage.people ?? {};
  const columns = Object.keys(shape).filter(
    (field) => !(storage.treeParent && field === 'children') && !(field in references) && !(field in people),
  );
  const kindOf = (field: string) => unwrap(shape[field] as z.ZodType);
  const numeric = new Set(columns.filter((field) => kindOf(field) instanceof z.ZodNumber));
  // Exact decimals (money, quantities) as the shortest text of their value ("12500", not
  // "12500.0000"): answers are written from the schema's JSON Schema, which runs no transform.
  const exact = new Set(columns.filter((field) => kindOf(field) === exactText));
  // A filter on a yes/no column arrives as 'true' or 'false' in the query string.
  const flags = new Set(columns.filter((field) => kindOf(field) instanceof z.ZodBoolean));
  const filterFields = Object.keys(definition.filters.shape);
  const entity = definition.name;
  const table = `${storage.table} as r`;
  const db = (tx: TenantTx) => tx.trx as unknown as Kysely<any>;

  /** The record columns of `r`, numbers as numbers (PostgreSQL answers numeric as text). */
  const selectRecord = (query: AnyQuery): AnyQuery => {
    let selected = query.select(
      columns.map((field) =>
        numeric.has(field)
          ? sql<number>`${sql.ref(`r.${field}`)}::float8`.as(field)
          : exact.has(field)
            ? sql<string>`trim_scale(${sql.ref(`r.${field}`)})::text`.as(field)
            : sql.ref(`r.${field}`).as(field),
      ),
    );
    for (const [field, reference] of Object.entries(references)) {
      const joined = `${field}_ref`;
      selected = selected
        .leftJoin(`${reference.table} as ${joined}`, (join) =>
          join.onRef(`${joined}.tenant_id`, '=', 'r.tenant_id').onRef(`${joined}.id`, '=', `r.${reference.key}`),
        )
        .select(sql.ref(`${joined}.${reference.column}`).as(`${field}__${reference.column}`));
    }
    for (const [field, key] of Object.entries(people)) {
      const joined = `${field}_person`;
      selected = selected
        .leftJoin(`users as ${joined}`, `${joined}.id`, `r.${key}`)
        .select(sql.ref(`${joined}.name`).as(`${field}__name`))
        .select(
          sql<boolean>`exists (select 1 from memberships m where m.tenant_id = r.tenant_id and m.user_id = ${sql.ref(`r.${key}`)})`.as(
            `${field}__member`,
          ),
        );
    }
    return selected;
  };

  /** Flat columns to the record's shape: `subject__name` becomes `subject: { name }`. */
  const toRecord = (row: AnyRecord): AnyRecord => {
    const record: AnyRecord = {};
    for (const field of columns) record[field] = row[field];
    for (const [field, reference] of Object.entries(references)) {
      const value = row[`${field}__${reference.column}`];
      record[field] = value === null || value === undefined ? null : { [reference.column]: value };
    }
    for (const field of Object.keys(people)) {
      const name = row[`${field}__name`];
      record[field] = name === null || name === undefined ? null : { name, member: Boolean(row[`${field}__member`]) };
    }
    return record;
  };

  const ordered = (query: AnyQuery): AnyQuery => {
    let result = query;
    for (const [field, direction] of definition.sort)
      result = result.orderBy(sql.ref(`r.${field}`), (order) => (direction === 'asc' ? order.asc() : order.desc()).nullsLast());
    return result.orderBy(sql.ref('r.id'));
  };

  const from = (tx: TenantTx): AnyQuery => db(tx).selectFrom(table).$call(inTenant(tx.tenantId, 'r.tenant_id')) as AnyQuery;

  /** Duplicates and dangling references as the form's own messages, inside the same answer. */
  const writeErrors = (error: unknown): never => {
    const state = sqlState(error);
    if (state === '23505' || state === '23503') {
      // node-postgres and PGlite both carry `constraint`; the message names it too.
      const named = (error as { constraint?: string }).constraint;
      const message = String((error as Error).message);
      const known = Object.entries(storage.constraints ?? {}).find(([name]) => name === named || message.includes(`"${name}"`));
      if (known) throw invalid({ [known[1].field]: [known[1].message] });
    }
    if (state === '23505' && storage.duplicate) throw conflict(storage.duplicate);
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

  const find = async (tx: TenantTx, id: string): Promise<Row | undefined> => {
    const row = await selectRecord(from(tx)).where('r.id', '=', id).executeTakeFirst();
    return row ? (toRecord(row) as Row) : undefined;
  };

  const found = async (tx: TenantTx, id: string): Promise<Row> => {
    const record = await find(tx, id);
    if (!record) throw notFound();
    return record;
  };

  return {
    find,
    found,

    /** Records whose columns equal `where`, in the list's order (a grade set, say). */
    async where(tx: TenantTx, where: Partial<Row>): Promise<Row[]> {
      let query = selectRecord(from(tx));
      for (const [field, value] of Object.entries(where)) query = query.where(sql.ref(`r.${field}`), '=', value);
      return (await ordered(query).execute()).map(toRecord) as Row[];
    },

    /** A page of the list (or, for a spreadsheet, up to EXPORT_LIMIT), with the total that match. */
    async list(tx: TenantTx, query: ListQuery): Promise<{ records: Row[]; total: number }> {
      let base = from(tx);
      for (const field of filterFields) {
        const value = query[field];
        if (value !== undefined && value !== '') base = base.where(sql.ref(`r.${field}`), '=', flags.has(field) ? value === 'true' : value);
      }
      if (query.search && definition.searchFields.length > 0) {
        const pattern = containsPattern(query.search);
        base = base.where((eb) => eb.or(definition.searchFields.map((field) => eb(sql`${sql.ref(`r.${field}`)}::text`, 'ilike', pattern))));
      }
      if (storage.treeParent) base = base.where(sql.ref(`r.${storage.treeParent}`), 'is', null);
      const { total } = (await base.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow()) as { total: number };
      let rows = ordered(selectRecord(base));
      rows = query.excel ? rows.limit(EXPORT_LIMIT) : rows.limit(query.per_page).offset((query.page - 1) * query.per_page);
      const records = (await rows.execute()).map(toRecord);
      if (storage.treeParent && records.length > 0) {
        const parent = storage.treeParent;
        const children = (
          await ordered(selectRecord(from(tx)))
            .where(
              sql.ref(`r.${parent}`),
              'in',
              records.map((record) => record.id),
            )
            .execute()
        ).map(toRecord);
        for (const record of records) record.children = children.filter((child) => child[parent] === record.id);
      }
      return { records: records as Row[], total };
    },

    async create(tx: TenantTx, input: AnyRecord): Promise<Row> {
      await storage.beforeWrite?.(tx, input, null);
      const id = newId();
      await db(tx)
        .insertInto(storage.table)
        .values({ ...input, tenant_id: tx.tenantId, id })
        .execute()
        .catch(writeErrors);
      const record = await found(tx, id);
      await recordAudit(tx, { action: 'create', entity, entityId: id, after: record });
      return record;
    },

    async update(tx: TenantTx, id: string, input: AnyRecord): Promise<Row> {
      const before = await found(tx, id);
      await storage.beforeWrite?.(tx, input, id);
      await db(tx)
        .updateTable(storage.table)
        .set({ ...input, updated_at: sql`now()` })
        .$call(inTenant(tx.tenantId))
        .where('id', '=', id)
        .execute()
        .catch(writeErrors);
      const after = await found(tx, id);
      await recordAudit(tx, { action: 'update', entity, entityId: id, before, after });
      return after;
    },

    /** Removes a record; 409 with the resource's reason while others depend on it. */
    async remove(tx: TenantTx, id: string): Promise<void> {
      const before = await found(tx, id);
      await storage.beforeRemove?.(tx, id);
      await db(tx)
        .deleteFrom(storage.table)
        .$call(inTenant(tx.tenantId))
        .where('id', '=', id)
        .execute()
        .catch((error: unknown) => {
          throw stillReferenced(error) ? conflict(definition.inUse) : error;
        });
      await recordAudit(tx, { action: 'delete', entity, entityId: id, before });
    },
  };
}

export type ResourceRepository<D extends ResourceDefinition = ResourceDefinition> = ReturnType<typeof resourceRepository<D>>;
