import { type Kysely, sql } from 'kysely';

/*
 * What every migration after the foundation does the same way. Migrations import only this and
 * Kysely, so a landed migration keeps meaning what it meant.
 */

/** Runs a script one statement at a time: PGlite's extended protocol takes one per query. */
export async function runStatements(db: Kysely<any>, script: string): Promise<void> {
  for (const statement of script
    .split(/;\s*\n/)
    .map((text) => text.trim())
    .filter(Boolean)) {
    await sql.raw(statement).execute(db);
  }
}

/** Row-level security enabled and forced, one policy: rows of the transaction's tenant only. */
export async function enableTenantSecurity(db: Kysely<any>, tables: ReadonlyArray<string>): Promise<void> {
  for (const table of tables) {
    await sql`ALTER TABLE ${sql.table(table)} ENABLE ROW LEVEL SECURITY`.execute(db);
    await sql`ALTER TABLE ${sql.table(table)} FORCE ROW LEVEL SECURITY`.execute(db);
    await sql`
      CREATE POLICY tenant_isolation ON ${sql.table(table)}
        USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid)
        WITH CHECK (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid)
    `.execute(db);
  }
}

export async function dropTables(db: Kysely<any>, tables: ReadonlyArray<string>): Promise<void> {
  for (const table of [...tables].reverse()) await sql`DROP TABLE IF EXISTS ${sql.table(table)}`.execute(db);
}
