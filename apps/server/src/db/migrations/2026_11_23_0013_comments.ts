import type { Kysely } from 'kysely';
import { dropTables, enableTenantSecurity, runStatements } from './tenant-tables.js';

/**
 * Comments (issue 16): what teachers write on a learner's report card.
 *
 * - `mark_comments`: a subject teacher's comment on a learner's subject for a class, term, year
 *   and report category (assessment or exam); `kind` 'general' is the subject comment, 'skill'
 *   the generic skills text of the same subject.
 * - `remarks`: a learner's remark of a remark type (class teacher's, head teacher's, ...) for a
 *   class, term and year.
 * - `comment_history`: every change and deletion of either, so a deleted remark's text is kept.
 *
 * Each row carries a `version`: a screen sends the version it loaded, and a comment someone else
 * changed since is answered as a conflict instead of being overwritten in silence. Texts are at
 * most 1,000 characters (the check backs the API's own).
 */
const TABLES_SQL = `
    CREATE TABLE mark_comments (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      student_id uuid NOT NULL,
      subject_id uuid NOT NULL,
      form text NOT NULL,
      stream text,
      term text NOT NULL CHECK (term IN ('I', 'II', 'III')),
      year integer NOT NULL,
      category text NOT NULL CHECK (category IN ('assesment', 'exam')),
      kind text NOT NULL DEFAULT 'general' CHECK (kind IN ('general', 'skill')),
      comment text NOT NULL CHECK (char_length(comment) BETWEEN 1 AND 1000),
      version integer NOT NULL DEFAULT 1,
      user_id uuid REFERENCES users (id) ON DELETE SET NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, student_id) REFERENCES students (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, subject_id) REFERENCES subjects (tenant_id, id) ON DELETE RESTRICT
    );
    CREATE UNIQUE INDEX mark_comments_key ON mark_comments (tenant_id, student_id, subject_id, lower(form), term, year, category, kind);
    CREATE INDEX mark_comments_class_idx ON mark_comments (tenant_id, year, term, lower(form));

    CREATE TABLE remarks (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      student_id uuid NOT NULL,
      remarktype_id uuid NOT NULL,
      form text NOT NULL,
      stream text,
      term text NOT NULL CHECK (term IN ('I', 'II', 'III')),
      year integer NOT NULL,
      comment text NOT NULL CHECK (char_length(comment) BETWEEN 1 AND 1000),
      version integer NOT NULL DEFAULT 1,
      user_id uuid REFERENCES users (id) ON DELETE SET NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, student_id) REFERENCES students (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, remarktype_id) REFERENCES remark_types (tenant_id, id) ON DELETE RESTRICT
    );
    CREATE UNIQUE INDEX remarks_key ON remarks (tenant_id, student_id, remarktype_id, lower(form), term, year);
    CREATE INDEX remarks_class_idx ON remarks (tenant_id, year, term, lower(form));

    CREATE TABLE comment_history (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      source text NOT NULL CHECK (source IN ('mark_comment', 'remark')),
      comment_id uuid NOT NULL,
      student_id uuid NOT NULL,
      old_value text,
      new_value text,
      action text NOT NULL CHECK (action IN ('save', 'delete')),
      user_id uuid REFERENCES users (id) ON DELETE SET NULL,
      changed_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id)
    );
    CREATE INDEX comment_history_comment_idx ON comment_history (tenant_id, comment_id, changed_at)
`;

export const COMMENT_TABLES = ['mark_comments', 'remarks', 'comment_history'];

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, TABLES_SQL);
  await enableTenantSecurity(db, COMMENT_TABLES);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, COMMENT_TABLES);
}
