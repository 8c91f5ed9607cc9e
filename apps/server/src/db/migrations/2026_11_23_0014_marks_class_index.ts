import type { Kysely } from 'kysely';
import { runStatements } from './tenant-tables.js';

/**
 * Every read of a class's marks (report cards, mark sheets, comments, the marks list) matches the
 * class as a person types it, in any case: `lower(form) = lower($1)`. The index on `form` itself
 * cannot serve that, so each report of a class read the whole term's marks of the school (three
 * times for a card). The class index is on the expression instead; no query matches `form` as
 * stored.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(
    db,
    `
    DROP INDEX marks_class_idx;
    CREATE INDEX marks_class_idx ON marks (tenant_id, lower(form), year, term)
  `,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await runStatements(
    db,
    `
    DROP INDEX marks_class_idx;
    CREATE INDEX marks_class_idx ON marks (tenant_id, form, year, term)
  `,
  );
}
