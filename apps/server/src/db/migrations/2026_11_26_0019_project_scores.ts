import type { Kysely } from 'kysely';
import { dropTables, enableTenantSecurity, runStatements } from './tenant-tables.js';

/**
 * Project scores of the new curriculum (issue 26 point 5; spec §2 "Record project scores", §3
 * "Project score"): per project and learner a score (0 to the project's maximum, at most one
 * decimal) and a comment, either of which may be left out. A row holds at least one of them;
 * clearing both deletes it. `version` counts its writes, so a save can tell a score someone else
 * changed since the teacher's grid was loaded (as marks do). A save's `save_id` is kept in
 * `mark_saves` with the marks' saves, so a retried save answers the same and writes nothing twice.
 * A project with scores cannot be deleted (the foreign key, answered 409 by the resource).
 */
const TABLES_SQL = `
    CREATE TABLE project_scores (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      project_id uuid NOT NULL,
      student_id uuid NOT NULL,
      score numeric(6, 1) CHECK (score >= 0),
      comment text CHECK (char_length(comment) BETWEEN 1 AND 1000),
      version integer NOT NULL DEFAULT 1,
      user_id uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      CHECK (score IS NOT NULL OR comment IS NOT NULL),
      FOREIGN KEY (tenant_id, project_id) REFERENCES projects (tenant_id, id) ON DELETE RESTRICT,
      FOREIGN KEY (tenant_id, student_id) REFERENCES students (tenant_id, id) ON DELETE CASCADE
    );
    CREATE UNIQUE INDEX project_scores_key ON project_scores (tenant_id, project_id, student_id);
    CREATE INDEX project_scores_student_idx ON project_scores (tenant_id, student_id)
`;

export const PROJECT_SCORE_TABLES = ['project_scores'];

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, TABLES_SQL);
  await enableTenantSecurity(db, PROJECT_SCORE_TABLES);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, PROJECT_SCORE_TABLES);
}
