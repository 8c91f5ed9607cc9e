import { type Kysely, sql } from 'kysely';

/**
 * Coming Soon's "notify me" (spec §2, issue 10 point 15): the addresses of visitors who asked
 * to be told when the product opens. Not tenant data: a visitor belongs to no school.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE launch_notifications (
      email text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )
  `.execute(db);
  await sql`CREATE UNIQUE INDEX launch_notifications_email_key ON launch_notifications (lower(email))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS launch_notifications`.execute(db);
}
