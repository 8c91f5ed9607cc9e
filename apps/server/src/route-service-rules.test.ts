import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * docs/ARCHITECTURE.md "Routes, services and repositories", kept: routes write no SQL and read
 * the request only through the route helpers; services never see the request; repositories hold
 * the queries. The services that still write SQL of their own are listed below: the list only
 * shrinks (a service moved to repositories must leave it, and no new one may join).
 */

const MODULES = fileURLToPath(new URL('./modules/', import.meta.url));

function filesEndingWith(suffix: string): string[] {
  return (readdirSync(MODULES, { recursive: true }) as string[])
    .filter((file) => file.endsWith(suffix))
    .map((file) => file.split(path.sep).join('/'))
    .sort();
}

const read = (file: string) => readFileSync(path.join(MODULES, file), 'utf8');

/** A query written here: a Kysely builder call, raw `sql` (imported, a template or a helper), or the transaction's builder. */
const SQL =
  /\b(selectFrom|selectNoFrom|insertInto|updateTable|deleteFrom|mergeInto)\(|\bsql\s*(<[^>]*>)?\s*`|\bsql\.\w+\(|\.trx\b|import \{[^}]*\bsql\b[^}]*\} from 'kysely'/;

describe('routes, services and repositories (docs/ARCHITECTURE.md)', () => {
  const routes = filesEndingWith('.routes.ts');
  const services = filesEndingWith('.service.ts');

  it('finds the routes and the services', () => {
    expect(routes).toContain('home/home.routes.ts');
    expect(services).toContain('home/home.service.ts');
  });

  it('no route writes SQL: the service (or its repository) does', () => {
    expect(routes.filter((file) => SQL.test(read(file)))).toEqual([]);
  });

  it('no service writes SQL: its repository does', () => {
    expect(services.filter((file) => SQL.test(read(file)))).toEqual([]);
  });

  it('no service or repository reads the request: the route helper hands it the action context', () => {
    const reaching = /from 'fastify'|\b(currentTenant|currentUser|tenantScope|schoolOf|withRequestTx)\(/;
    const files = [...services, ...filesEndingWith('.repository.ts')];
    expect(files.filter((file) => reaching.test(read(file)))).toEqual([]);
  });

  it('the pattern recognises a query', () => {
    for (const text of [
      "tx.trx.selectFrom('x')",
      'sql<number>`count(*)`',
      "import { type Kysely, sql } from 'kysely';",
      'sql.ref(column)',
      'db.deleteFrom(table)',
    ])
      expect(SQL.test(text), text).toBe(true);
    for (const text of [
      "import { recordAudit } from '../../audit/audit.repository.js';",
      "import type { Kysely } from 'kysely';",
      'const selected = fromSql;',
    ])
      expect(SQL.test(text), text).toBe(false);
  });
});
