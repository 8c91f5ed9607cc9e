import type { Kysely } from 'kysely';
import { dropTables, enableTenantSecurity, runStatements } from './tenant-tables.js';

/**
 * Staff assignments (issue 13): subject teachers, class teachers, deputies, and what a class's
 * report card carries at its foot (grade footers, report footers) and how many papers a subject
 * is written in. Tenant tables with RLS forced; a teacher is a user (global), a subject one of
 * the school's (composite key, RESTRICT: a subject with assignments cannot vanish).
 *
 * A blank stream is stored as NULL and means the whole class; the unique indexes compare it as
 * '' so that two whole-class rows are duplicates too. One primary class teacher per class,
 * stream, term and year: a partial unique index, so two saves at once cannot both succeed.
 */
const TABLES_SQL = `
    CREATE TABLE subject_teachers (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
      subject_id uuid NOT NULL,
      form text NOT NULL,
      stream text,
      term text NOT NULL CHECK (term IN ('I', 'II', 'III')),
      year integer NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, subject_id) REFERENCES subjects (tenant_id, id) ON DELETE RESTRICT
    );
    CREATE UNIQUE INDEX subject_teachers_key ON subject_teachers (tenant_id, user_id, subject_id, form, (coalesce(lower(stream), '')), term, year);
    CREATE INDEX subject_teachers_user_idx ON subject_teachers (tenant_id, user_id, year, term);

    CREATE TABLE class_teachers (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
      form text NOT NULL,
      stream text,
      term text NOT NULL CHECK (term IN ('I', 'II', 'III')),
      year integer NOT NULL,
      category text NOT NULL DEFAULT 'primary' CHECK (category IN ('primary', 'co-teacher')),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id)
    );
    CREATE UNIQUE INDEX class_teachers_key ON class_teachers (tenant_id, user_id, form, (coalesce(lower(stream), '')), term, year);
    CREATE UNIQUE INDEX class_teachers_primary_key ON class_teachers (tenant_id, form, (coalesce(lower(stream), '')), term, year)
      WHERE category = 'primary';

    CREATE TABLE deputies (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
      form text NOT NULL,
      stream text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id)
    );
    CREATE UNIQUE INDEX deputies_key ON deputies (tenant_id, user_id, form, (coalesce(lower(stream), '')));

    CREATE TABLE grade_footers (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      form text NOT NULL,
      stream text,
      details text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id)
    );
    CREATE UNIQUE INDEX grade_footers_key ON grade_footers (tenant_id, form, (coalesce(lower(stream), '')));

    CREATE TABLE report_footers (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      title text NOT NULL,
      form text NOT NULL,
      term text NOT NULL CHECK (term IN ('I', 'II', 'III')),
      year integer NOT NULL,
      category text NOT NULL CHECK (category IN ('assesment', 'exam')),
      position integer,
      remarks text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id)
    );
    CREATE UNIQUE INDEX report_footers_key ON report_footers (tenant_id, form, term, year, category, lower(title));

    CREATE TABLE subject_papers (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      form text NOT NULL,
      term text NOT NULL CHECK (term IN ('I', 'II', 'III')),
      year integer NOT NULL,
      subject_id uuid NOT NULL,
      papers integer NOT NULL CHECK (papers BETWEEN 1 AND 6),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, subject_id) REFERENCES subjects (tenant_id, id) ON DELETE RESTRICT
    );
    CREATE UNIQUE INDEX subject_papers_key ON subject_papers (tenant_id, form, term, year, subject_id);
`;

export const STAFF_TABLES = ['subject_teachers', 'class_teachers', 'deputies', 'grade_footers', 'report_footers', 'subject_papers'];

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, TABLES_SQL);
  await enableTenantSecurity(db, STAFF_TABLES);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, STAFF_TABLES);
}
