import type { Kysely } from 'kysely';
import { dropTables, enableTenantSecurity, runStatements } from './tenant-tables.js';

/**
 * Projects of the new curriculum (issue 26 point 4; spec §3 "Project", guide
 * new-curriculum.md): a class, subject, term and year, a title, and the most a learner may
 * score (10 unless the project states otherwise). Listed by class, term and year; a subject's
 * projects found through its own index, so a subject in use is quick to refuse deleting.
 */
const TABLES_SQL = `
    CREATE TABLE projects (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      subject_id uuid NOT NULL,
      form text NOT NULL,
      term text NOT NULL CHECK (term IN ('I', 'II', 'III')),
      year integer NOT NULL CHECK (year BETWEEN 2000 AND 2100),
      title text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 200),
      max_score integer NOT NULL DEFAULT 10 CHECK (max_score BETWEEN 1 AND 1000),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, subject_id) REFERENCES subjects (tenant_id, id) ON DELETE RESTRICT
    );
    CREATE INDEX projects_class_idx ON projects (tenant_id, form, year, term);
    CREATE INDEX projects_subject_idx ON projects (tenant_id, subject_id);
    CREATE INDEX topics_class_idx ON topics (tenant_id, form, term, subject_id)
`;

export const PROJECT_TABLES = ['projects'];

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, TABLES_SQL);
  await enableTenantSecurity(db, PROJECT_TABLES);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runStatements(db, 'DROP INDEX IF EXISTS topics_class_idx');
  await dropTables(db, PROJECT_TABLES);
}
