import { type Kysely, sql } from 'kysely';

/**
 * A guardian's e-mail on the learner's record (issue 29 point 5): where the Email option of the
 * report cards sends each learner's own card. One address or none; the check refuses what could
 * split a message's header (a line break, a comma naming a second recipient) whatever wrote it,
 * a form, an upload or psql. The learner's own `email` stays the learner's.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE students ADD COLUMN guardian_email text
      CHECK (guardian_email IS NULL OR (char_length(guardian_email) BETWEEN 3 AND 254 AND guardian_email !~ '[\\r\\n,;<>]'))
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE students DROP COLUMN guardian_email`.execute(db);
}
