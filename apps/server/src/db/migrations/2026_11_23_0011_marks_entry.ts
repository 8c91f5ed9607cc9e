import type { Kysely } from 'kysely';
import { dropTables, enableTenantSecurity, runStatements } from './tenant-tables.js';

/**
 * Entering marks (issue 14). A mark is a number or an absence (`absent`, no number: never
 * counted as 0) and carries a version, so a save can tell a mark someone else changed since the
 * teacher's grid was loaded. Every paper is named: a subject written in one paper uses I.
 *
 * - `mark_history`: every change of a mark (who, when, old and new, from the grid, a sheet or a
 *   deletion), kept when the mark itself is deleted.
 * - `mark_saves`: each save's `save_id` with what it answered (its counts), so a save retried
 *   after a timeout answers the same and writes nothing twice (the primary key holds a retry
 *   sent at once); kept 30 days, dropped by later saves (the expiry index).
 * - `attendances`: days a learner attended out of the term's total.
 * - `mark_targets`: the mark a learner aims at in a subject.
 */
const TABLES_SQL = `
    UPDATE marks SET paper = 'I' WHERE paper IS NULL;
    ALTER TABLE marks ALTER COLUMN paper SET DEFAULT 'I';
    ALTER TABLE marks ALTER COLUMN paper SET NOT NULL;
    ALTER TABLE marks ALTER COLUMN mark DROP NOT NULL;
    ALTER TABLE marks ADD COLUMN absent boolean NOT NULL DEFAULT false;
    ALTER TABLE marks ADD COLUMN version integer NOT NULL DEFAULT 1;
    ALTER TABLE marks ADD CONSTRAINT marks_value CHECK ((absent AND mark IS NULL) OR (NOT absent AND mark IS NOT NULL AND mark >= 0));
    CREATE INDEX marks_grid_idx ON marks (tenant_id, subject_id, year, term, form);

    CREATE TABLE mark_history (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      student_id uuid NOT NULL,
      subject_id uuid NOT NULL,
      marktype_id uuid NOT NULL,
      form text NOT NULL,
      stream text,
      term text NOT NULL CHECK (term IN ('I', 'II', 'III')),
      year integer NOT NULL,
      paper text NOT NULL,
      topic_id uuid,
      old_value text,
      new_value text,
      source text NOT NULL CHECK (source IN ('grid', 'sheet', 'delete')),
      user_id uuid REFERENCES users (id) ON DELETE SET NULL,
      changed_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, student_id) REFERENCES students (tenant_id, id) ON DELETE CASCADE
    );
    CREATE INDEX mark_history_cell_idx ON mark_history (tenant_id, student_id, subject_id, marktype_id, year, term);

    CREATE TABLE mark_saves (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      save_id uuid NOT NULL,
      user_id uuid REFERENCES users (id) ON DELETE SET NULL,
      answer jsonb NOT NULL,
      saved_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, save_id)
    );
    CREATE INDEX mark_saves_expiry_idx ON mark_saves (tenant_id, saved_at);

    CREATE TABLE attendances (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      student_id uuid NOT NULL,
      form text NOT NULL,
      stream text,
      term text NOT NULL CHECK (term IN ('I', 'II', 'III')),
      year integer NOT NULL,
      days integer NOT NULL CHECK (days >= 0),
      total_days integer NOT NULL CHECK (total_days > 0 AND total_days <= 366),
      user_id uuid REFERENCES users (id) ON DELETE SET NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      CHECK (days <= total_days),
      FOREIGN KEY (tenant_id, student_id) REFERENCES students (tenant_id, id) ON DELETE CASCADE
    );
    CREATE UNIQUE INDEX attendances_key ON attendances (tenant_id, student_id, term, year);

    CREATE TABLE mark_targets (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      student_id uuid NOT NULL,
      subject_id uuid NOT NULL,
      form text NOT NULL,
      stream text,
      term text NOT NULL CHECK (term IN ('I', 'II', 'III')),
      year integer NOT NULL,
      target numeric(5, 1) NOT NULL CHECK (target >= 0 AND target <= 100),
      user_id uuid REFERENCES users (id) ON DELETE SET NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, student_id) REFERENCES students (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, subject_id) REFERENCES subjects (tenant_id, id) ON DELETE RESTRICT
    );
    CREATE UNIQUE INDEX mark_targets_key ON mark_targets (tenant_id, student_id, subject_id, term, year);
`;

export const MARKS_ENTRY_TABLES = ['mark_history', 'mark_saves', 'attendances', 'mark_targets'];

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, TABLES_SQL);
  await enableTenantSecurity(db, MARKS_ENTRY_TABLES);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, MARKS_ENTRY_TABLES);
  await runStatements(
    db,
    `
    DROP INDEX marks_grid_idx;
    ALTER TABLE marks DROP CONSTRAINT marks_value;
    DELETE FROM marks WHERE absent;
    ALTER TABLE marks DROP COLUMN version;
    ALTER TABLE marks DROP COLUMN absent;
    ALTER TABLE marks ALTER COLUMN mark SET NOT NULL;
    ALTER TABLE marks ALTER COLUMN paper DROP NOT NULL;
    ALTER TABLE marks ALTER COLUMN paper DROP DEFAULT
`,
  );
}
