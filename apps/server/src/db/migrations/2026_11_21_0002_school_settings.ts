import { type Kysely, sql } from 'kysely';
import { dropTables, enableTenantSecurity, runStatements } from './tenant-tables.js';

/**
 * School settings (issue 4): student categories, subjects, stock locations, mark types, grades,
 * proportions, published marks, A-level scores, remark types and automatic comments. A school
 * needs them before a single mark can be entered.
 *
 * Every table is a tenant table (tenant_id leads keys, RLS forced). References between them
 * are composite (tenant_id, id) and RESTRICT deletes, so a subject with grades cannot vanish
 * and no row can point into another tenant.
 */
const TABLES_SQL = `
    CREATE TABLE student_categories (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      name text NOT NULL,
      remarks text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id)
    );
    CREATE UNIQUE INDEX student_categories_name_key ON student_categories (tenant_id, lower(name));

    ALTER TABLE students ADD CONSTRAINT students_studentcategory_fk
      FOREIGN KEY (tenant_id, studentcategory_id) REFERENCES student_categories (tenant_id, id) ON DELETE RESTRICT;

    CREATE TABLE subjects (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      name text NOT NULL,
      category text NOT NULL CHECK (category IN ('english', 'general', 'humanity', 'subsidiary', 'mathematics', 'science')),
      abbreviation text,
      olevelcategory text CHECK (olevelcategory IN ('language', 'optional', 'humanity', 'science')),
      position integer,
      weeklylabel text,
      multiple_paper_forms text,
      multiple_papers boolean NOT NULL DEFAULT false,
      active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id)
    );
    CREATE UNIQUE INDEX subjects_name_key ON subjects (tenant_id, lower(name));

    CREATE TABLE locations (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      name text NOT NULL,
      code text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id)
    );
    CREATE UNIQUE INDEX locations_name_key ON locations (tenant_id, lower(name));

    CREATE TABLE mark_types (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      label text NOT NULL,
      category text NOT NULL CHECK (category IN ('assesment', 'ca', 'exam', 'lower work', 'monthly', 'test', 'weekly')),
      position integer,
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
      outof integer NOT NULL DEFAULT 100 CHECK (outof > 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id)
    );
    CREATE UNIQUE INDEX mark_types_label_key ON mark_types (tenant_id, lower(label));

    CREATE TABLE grades (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      subject_id uuid NOT NULL,
      form text NOT NULL,
      term text NOT NULL CHECK (term IN ('I', 'II', 'III')),
      year integer NOT NULL,
      grade text NOT NULL,
      lower numeric(6, 2) NOT NULL,
      upper numeric(6, 2) NOT NULL CHECK (lower <= upper),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, subject_id) REFERENCES subjects (tenant_id, id) ON DELETE RESTRICT
    );
    CREATE UNIQUE INDEX grades_grade_key ON grades (tenant_id, subject_id, form, year, term, grade);

    CREATE TABLE proportions (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      form text NOT NULL,
      term text NOT NULL CHECK (term IN ('I', 'II', 'III')),
      year integer NOT NULL,
      subject_id uuid NOT NULL,
      marktype_id uuid NOT NULL,
      percentage numeric(5, 2) NOT NULL CHECK (percentage BETWEEN 0 AND 100),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, subject_id) REFERENCES subjects (tenant_id, id) ON DELETE RESTRICT,
      FOREIGN KEY (tenant_id, marktype_id) REFERENCES mark_types (tenant_id, id) ON DELETE RESTRICT
    );
    CREATE UNIQUE INDEX proportions_key ON proportions (tenant_id, form, year, term, subject_id, marktype_id);

    CREATE TABLE publish_marks (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      term text NOT NULL CHECK (term IN ('I', 'II', 'III')),
      year integer NOT NULL,
      marktype_id uuid NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, marktype_id) REFERENCES mark_types (tenant_id, id) ON DELETE RESTRICT
    );
    CREATE UNIQUE INDEX publish_marks_key ON publish_marks (tenant_id, year, term, marktype_id);

    CREATE TABLE alevel_scores (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      total integer NOT NULL,
      score integer NOT NULL,
      papercount integer NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id)
    );
    CREATE UNIQUE INDEX alevel_scores_key ON alevel_scores (tenant_id, papercount, total);

    CREATE TABLE remark_types (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      label text NOT NULL,
      category text NOT NULL CHECK (category IN ('assesment', 'ca', 'exam', 'lower work', 'mid term', 'monthly', 'test', 'weekly')),
      parent_id uuid,
      displaytype text NOT NULL DEFAULT 'list' CHECK (displaytype IN ('list', 'table')),
      inputtype text NOT NULL DEFAULT 'text' CHECK (inputtype IN ('text', 'number')),
      position integer,
      forms text,
      active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, parent_id) REFERENCES remark_types (tenant_id, id) ON DELETE RESTRICT
    );

    CREATE TABLE auto_mark_comments (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      score text NOT NULL,
      comment text NOT NULL,
      category text NOT NULL DEFAULT 'general' CHECK (category IN ('general', 'nc skill', 'nc general')),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id)
    );

    CREATE TABLE auto_report_comments (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      form text NOT NULL,
      remarktype_id uuid NOT NULL,
      score numeric(8, 2) NOT NULL,
      upper numeric(8, 2) NOT NULL CHECK (score <= upper),
      comment text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, remarktype_id) REFERENCES remark_types (tenant_id, id) ON DELETE RESTRICT
    )
`;

export const SETTINGS_TABLES = [
  'student_categories',
  'subjects',
  'locations',
  'mark_types',
  'grades',
  'proportions',
  'publish_marks',
  'alevel_scores',
  'remark_types',
  'auto_mark_comments',
  'auto_report_comments',
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, TABLES_SQL);
  await enableTenantSecurity(db, SETTINGS_TABLES);
  // Head teachers of existing schools keep settings in hand, as new schools' head teachers do.
  // Tenant by tenant, because roles are under forced row-level security even for their owner.
  const tenants = await sql<{ id: string }>`SELECT id FROM tenants`.execute(db);
  for (const tenant of tenants.rows) {
    await sql`SELECT set_config('app.tenant_id', ${tenant.id}, true)`.execute(db);
    await sql`
      INSERT INTO role_permissions (tenant_id, id, role_id, subject_class, action)
      SELECT r.tenant_id, gen_random_uuid(), r.id, s.subject, 'manage'
        FROM roles r CROSS JOIN (VALUES ('setting'), ('location')) AS s(subject)
       WHERE r.name = 'headteacher'
      ON CONFLICT DO NOTHING
    `.execute(db);
  }
  await sql`SELECT set_config('app.tenant_id', '', true)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DELETE FROM role_permissions WHERE subject_class IN ('setting', 'location')`.execute(db);
  await sql`ALTER TABLE students DROP CONSTRAINT IF EXISTS students_studentcategory_fk`.execute(db);
  await dropTables(db, SETTINGS_TABLES);
}
