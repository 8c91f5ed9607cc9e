import { type Kysely, sql } from 'kysely';

/*
 * The organisation's logo given at sign-up (issue 29 point 2). There is no tenant yet, so no
 * folder to keep it in: the picture waits with the pending registration, already checked and
 * re-encoded (a JPEG of at most 600 px, students/photos.ts), and becomes the tenant's logo when
 * the link is followed. Capped so a pending row never carries more than a logo.
 */
export const REGISTRATION_LOGO_MAX_BYTES = 1024 * 1024;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE registrations ADD COLUMN logo bytea CHECK (octet_length(logo) <= ${sql.lit(REGISTRATION_LOGO_MAX_BYTES)})`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE registrations DROP COLUMN logo`.execute(db);
}
