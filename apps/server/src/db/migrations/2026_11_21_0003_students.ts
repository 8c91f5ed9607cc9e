import type { Kysely } from 'kysely';
import { dropTables, enableTenantSecurity, runStatements } from './tenant-tables.js';

/**
 * Learners' records beyond the class list (issue 5): where each learner was before a promotion,
 * fee journals and the statement lines they produce, and marks (written by the marks pages;
 * the learner's detail page shows them from the start), including the new curriculum's
 * competency (topic) scores.
 */
const TABLES_SQL = `
    CREATE TABLE student_class_history (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      student_id uuid NOT NULL,
      form text NOT NULL,
      stream text,
      year integer NOT NULL,
      outcome text NOT NULL CHECK (outcome IN ('promoted', 'completed')),
      recorded_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, student_id) REFERENCES students (tenant_id, id) ON DELETE CASCADE
    );
    CREATE INDEX student_class_history_student_idx ON student_class_history (tenant_id, student_id);

    CREATE TABLE fee_journals (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      sha256 text NOT NULL,
      file_name text,
      term text NOT NULL CHECK (term IN ('I', 'II', 'III')),
      year integer NOT NULL,
      invoice_position integer NOT NULL,
      receipt_position integer NOT NULL,
      uploaded_by uuid,
      uploaded_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id)
    );
    CREATE UNIQUE INDEX fee_journals_file_key ON fee_journals (tenant_id, sha256, term, year);

    CREATE TABLE statement_lines (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      student_id uuid NOT NULL,
      journal_id uuid,
      date date NOT NULL,
      particulars text NOT NULL,
      category text NOT NULL CHECK (category IN ('invoice', 'receipt')),
      amount numeric(14, 2) NOT NULL CHECK (amount >= 0),
      term text CHECK (term IN ('I', 'II', 'III')),
      year integer,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, student_id) REFERENCES students (tenant_id, id) ON DELETE RESTRICT,
      FOREIGN KEY (tenant_id, journal_id) REFERENCES fee_journals (tenant_id, id) ON DELETE CASCADE
    );
    CREATE INDEX statement_lines_student_idx ON statement_lines (tenant_id, student_id, date);

    CREATE TABLE topics (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      subject_id uuid NOT NULL,
      form text NOT NULL,
      term text NOT NULL CHECK (term IN ('I', 'II', 'III')),
      title text NOT NULL,
      remarks text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, subject_id) REFERENCES subjects (tenant_id, id) ON DELETE RESTRICT
    );

    CREATE TABLE marks (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      student_id uuid NOT NULL,
      subject_id uuid NOT NULL,
      marktype_id uuid NOT NULL,
      form text NOT NULL,
      stream text,
      term text NOT NULL CHECK (term IN ('I', 'II', 'III')),
      year integer NOT NULL,
      paper text CHECK (paper IN ('I', 'II', 'III', 'IV', 'V', 'VI')),
      mark numeric(6, 2) NOT NULL,
      topic_id uuid,
      user_id uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, student_id) REFERENCES students (tenant_id, id) ON DELETE RESTRICT,
      FOREIGN KEY (tenant_id, subject_id) REFERENCES subjects (tenant_id, id) ON DELETE RESTRICT,
      FOREIGN KEY (tenant_id, marktype_id) REFERENCES mark_types (tenant_id, id) ON DELETE RESTRICT,
      FOREIGN KEY (tenant_id, topic_id) REFERENCES topics (tenant_id, id) ON DELETE RESTRICT
    );
    CREATE UNIQUE INDEX marks_key ON marks (tenant_id, student_id, subject_id, marktype_id, year, term, COALESCE(paper, ''), COALESCE(topic_id, '00000000-0000-0000-0000-000000000000'::uuid));
    CREATE INDEX marks_class_idx ON marks (tenant_id, form, year, term)
`;

export const STUDENT_TABLES = ['student_class_history', 'fee_journals', 'statement_lines', 'topics', 'marks'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, TABLES_SQL);
  await enableTenantSecurity(db, STUDENT_TABLES);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, STUDENT_TABLES);
}
