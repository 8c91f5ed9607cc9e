import { type Kysely, sql } from 'kysely';
import { dropTables, enableTenantSecurity, runStatements } from './tenant-tables.js';

/*
 * The business side, part 2 (issue 32; guide business.md): selling, getting paid, paying out,
 * and the books behind them.
 *
 * - `accounts`: the chart of accounts, seeded for a Ugandan shop. Cash, bank and mobile-money
 *   accounts are accounts (subtype); the accounts the postings need are found by `system_key`
 *   (debtors, sales, VAT payable, ...), so a business may rename or renumber them.
 * - `journal_entries` and `journal_lines`: double entry, written by the documents themselves, one
 *   entry per document event. Both are append-only (migrate.ts revokes UPDATE and DELETE), and a
 *   constraint trigger checked at commit refuses an entry whose debits and credits differ: a
 *   trial balance sums to zero by construction, not by care.
 * - `document_numbers`: the last number given per business and series (invoice, receipt, credit
 *   and debit memo, voucher). The number is taken by UPDATE ... RETURNING inside the issuing
 *   transaction: the row lock makes parallel issues take turns, and a rolled-back issue gives
 *   its number back, so numbers have no gaps.
 * - `invoices` (a counter cash sale is an invoice to a walk-in customer, paid at once) with
 *   `invoice_lines`: a draft is editable and has no effect; issuing numbers it and freezes it.
 *   The database refuses any change to an issued invoice or its lines except its fiscal fields
 *   (`fiscal_*`, filled in later by EFRIS), whatever the code does.
 * - `receipts` with `receipt_allocations`: money received, allocated to invoices or kept as an
 *   advance (allocations may be added later, as new rows). Both append-only.
 * - `memos` with `memo_lines`: credit and debit notes against an issued invoice; frozen like an
 *   issued invoice except their fiscal fields (URA approves credit notes later).
 * - `vouchers` with `voucher_lines`: money out, draft -> approved -> paid. A draft is editable;
 *   from approval on only the status fields move forward.
 * - `business_settings.vat_registered`: a business not registered for VAT issues invoices
 *   without VAT.
 */
const TABLES_SQL = `
    ALTER TABLE business_settings ADD COLUMN vat_registered boolean NOT NULL DEFAULT true;
    CREATE TABLE accounts (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      code text NOT NULL CHECK (code ~ '^[0-9A-Za-z.-]{1,20}$'),
      name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 120),
      type text NOT NULL CHECK (type IN ('asset', 'liability', 'equity', 'income', 'expense')),
      subtype text NOT NULL CHECK (subtype IN ('cash', 'bank', 'mobile_money', 'receivable', 'inventory', 'tax_receivable',
        'other_asset', 'payable', 'tax_payable', 'other_liability', 'equity', 'sales', 'other_income', 'cost_of_sales', 'expense')),
      parent_id uuid,
      system_key text CHECK (char_length(system_key) BETWEEN 1 AND 40),
      bank_id uuid,
      description text CHECK (char_length(description) <= 500),
      active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      UNIQUE (tenant_id, code),
      UNIQUE (tenant_id, system_key),
      FOREIGN KEY (tenant_id, parent_id) REFERENCES accounts (tenant_id, id),
      FOREIGN KEY (tenant_id, bank_id) REFERENCES banks (tenant_id, id)
    );
    CREATE TABLE document_numbers (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      series text NOT NULL CHECK (series IN ('invoice', 'receipt', 'credit_memo', 'debit_memo', 'voucher')),
      last_number integer NOT NULL DEFAULT 0 CHECK (last_number >= 0),
      PRIMARY KEY (tenant_id, series)
    );
    CREATE TABLE invoices (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      request_id uuid NOT NULL,
      kind text NOT NULL DEFAULT 'invoice' CHECK (kind IN ('invoice', 'cash_sale')),
      status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'issued')),
      number text CHECK (char_length(number) BETWEEN 1 AND 40),
      customer_id uuid NOT NULL,
      buyer_name text CHECK (char_length(buyer_name) <= 120),
      buyer_phone text CHECK (char_length(buyer_phone) <= 30),
      location_id uuid NOT NULL,
      currency_code text NOT NULL CHECK (currency_code ~ '^[A-Z]{3}$'),
      currency_decimals smallint NOT NULL CHECK (currency_decimals BETWEEN 0 AND 4),
      rate numeric(20, 8) NOT NULL DEFAULT 1 CHECK (rate > 0),
      issued_on date NOT NULL,
      due_on date NOT NULL,
      reference text CHECK (char_length(reference) <= 80),
      notes text CHECK (char_length(notes) <= 1000),
      vat_registered boolean NOT NULL DEFAULT true,
      discount_total numeric(20, 4) NOT NULL DEFAULT 0 CHECK (discount_total >= 0),
      net_total numeric(20, 4) NOT NULL DEFAULT 0 CHECK (net_total >= 0),
      tax_total numeric(20, 4) NOT NULL DEFAULT 0 CHECK (tax_total >= 0),
      gross_total numeric(20, 4) NOT NULL DEFAULT 0 CHECK (gross_total >= 0),
      stock_movement_id uuid,
      fiscal_status text NOT NULL DEFAULT 'none' CHECK (fiscal_status IN ('none', 'pending', 'fiscalised', 'failed')),
      fiscal_fdn text CHECK (char_length(fiscal_fdn) <= 40),
      fiscal_verification_code text CHECK (char_length(fiscal_verification_code) <= 80),
      fiscal_qr_code text CHECK (char_length(fiscal_qr_code) <= 2000),
      fiscal_invoice_id text CHECK (char_length(fiscal_invoice_id) <= 40),
      fiscal_at timestamptz,
      fiscal_simulated boolean NOT NULL DEFAULT false,
      created_by uuid REFERENCES users (id),
      issued_by uuid REFERENCES users (id),
      issued_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      UNIQUE (tenant_id, request_id),
      UNIQUE (tenant_id, number),
      CHECK ((status = 'issued') = (number IS NOT NULL)),
      CHECK (due_on >= issued_on),
      FOREIGN KEY (tenant_id, customer_id) REFERENCES companies (tenant_id, id),
      FOREIGN KEY (tenant_id, location_id) REFERENCES locations (tenant_id, id),
      FOREIGN KEY (tenant_id, stock_movement_id) REFERENCES stock_movements (tenant_id, id)
    );
    CREATE INDEX invoices_issued_on_idx ON invoices (tenant_id, issued_on);
    CREATE INDEX invoices_customer_idx ON invoices (tenant_id, customer_id, issued_on);
    CREATE INDEX invoices_fiscal_idx ON invoices (tenant_id, fiscal_status) WHERE fiscal_status IN ('pending', 'failed');
    CREATE TABLE invoice_lines (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      invoice_id uuid NOT NULL,
      line integer NOT NULL CHECK (line BETWEEN 0 AND 499),
      product_id uuid NOT NULL,
      description text CHECK (char_length(description) <= 300),
      quantity numeric(20, 3) NOT NULL CHECK (quantity > 0),
      unit_price numeric(20, 4) NOT NULL CHECK (unit_price >= 0),
      discount numeric(20, 4) NOT NULL DEFAULT 0 CHECK (discount >= 0),
      tax_id uuid,
      tax_code text CHECK (char_length(tax_code) <= 20),
      tax_kind text CHECK (tax_kind IN ('standard', 'zero', 'exempt', 'deemed')),
      tax_rate numeric(7, 4) NOT NULL DEFAULT 0 CHECK (tax_rate >= 0 AND tax_rate <= 100),
      gross numeric(20, 4) NOT NULL DEFAULT 0 CHECK (gross >= 0),
      tax numeric(20, 4) NOT NULL DEFAULT 0 CHECK (tax >= 0),
      net numeric(20, 4) NOT NULL DEFAULT 0 CHECK (net >= 0),
      unit_cost numeric(20, 4) NOT NULL DEFAULT 0 CHECK (unit_cost >= 0),
      PRIMARY KEY (tenant_id, invoice_id, line),
      FOREIGN KEY (tenant_id, invoice_id) REFERENCES invoices (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, product_id) REFERENCES products (tenant_id, id),
      FOREIGN KEY (tenant_id, tax_id) REFERENCES taxes (tenant_id, id)
    );
    CREATE INDEX invoice_lines_product_idx ON invoice_lines (tenant_id, product_id);
    CREATE TABLE receipts (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      request_id uuid NOT NULL,
      number text NOT NULL CHECK (char_length(number) BETWEEN 1 AND 40),
      customer_id uuid NOT NULL,
      received_on date NOT NULL,
      method text NOT NULL CHECK (method IN ('cash', 'mtn_momo', 'airtel_money', 'bank', 'cheque', 'card')),
      reference text CHECK (char_length(reference) <= 80),
      account_id uuid NOT NULL,
      currency_code text NOT NULL CHECK (currency_code ~ '^[A-Z]{3}$'),
      amount numeric(20, 4) NOT NULL CHECK (amount >= 0),
      wht_amount numeric(20, 4) NOT NULL DEFAULT 0 CHECK (wht_amount >= 0),
      whduty_id uuid,
      wht_certificate text CHECK (char_length(wht_certificate) <= 40),
      invoice_id uuid,
      notes text CHECK (char_length(notes) <= 1000),
      created_by uuid REFERENCES users (id),
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      UNIQUE (tenant_id, request_id),
      UNIQUE (tenant_id, number),
      CHECK (amount + wht_amount > 0),
      CHECK (wht_amount = 0 OR wht_certificate IS NOT NULL),
      FOREIGN KEY (tenant_id, customer_id) REFERENCES companies (tenant_id, id),
      FOREIGN KEY (tenant_id, account_id) REFERENCES accounts (tenant_id, id),
      FOREIGN KEY (tenant_id, whduty_id) REFERENCES whduties (tenant_id, id),
      FOREIGN KEY (tenant_id, invoice_id) REFERENCES invoices (tenant_id, id)
    );
    CREATE INDEX receipts_received_on_idx ON receipts (tenant_id, received_on);
    CREATE INDEX receipts_customer_idx ON receipts (tenant_id, customer_id);
    CREATE TABLE receipt_allocations (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      receipt_id uuid NOT NULL,
      invoice_id uuid NOT NULL,
      amount numeric(20, 4) NOT NULL CHECK (amount > 0),
      allocated_on date NOT NULL,
      created_by uuid REFERENCES users (id),
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, receipt_id) REFERENCES receipts (tenant_id, id),
      FOREIGN KEY (tenant_id, invoice_id) REFERENCES invoices (tenant_id, id)
    );
    CREATE INDEX receipt_allocations_invoice_idx ON receipt_allocations (tenant_id, invoice_id);
    CREATE INDEX receipt_allocations_receipt_idx ON receipt_allocations (tenant_id, receipt_id);
    CREATE TABLE memos (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      request_id uuid NOT NULL,
      number text NOT NULL CHECK (char_length(number) BETWEEN 1 AND 40),
      kind text NOT NULL CHECK (kind IN ('credit', 'debit')),
      invoice_id uuid NOT NULL,
      reason_code text NOT NULL CHECK (reason_code IN ('return', 'price', 'discount', 'cancel', 'other')),
      reason text NOT NULL CHECK (char_length(reason) BETWEEN 1 AND 300),
      restock boolean NOT NULL DEFAULT false,
      location_id uuid,
      issued_on date NOT NULL,
      currency_code text NOT NULL CHECK (currency_code ~ '^[A-Z]{3}$'),
      net_total numeric(20, 4) NOT NULL DEFAULT 0 CHECK (net_total >= 0),
      tax_total numeric(20, 4) NOT NULL DEFAULT 0 CHECK (tax_total >= 0),
      gross_total numeric(20, 4) NOT NULL CHECK (gross_total > 0),
      stock_movement_id uuid,
      fiscal_status text NOT NULL DEFAULT 'none'
        CHECK (fiscal_status IN ('none', 'pending', 'submitted', 'approved', 'rejected', 'failed')),
      fiscal_reference text CHECK (char_length(fiscal_reference) <= 40),
      fiscal_fdn text CHECK (char_length(fiscal_fdn) <= 40),
      fiscal_verification_code text CHECK (char_length(fiscal_verification_code) <= 80),
      fiscal_qr_code text CHECK (char_length(fiscal_qr_code) <= 2000),
      fiscal_at timestamptz,
      fiscal_simulated boolean NOT NULL DEFAULT false,
      created_by uuid REFERENCES users (id),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      UNIQUE (tenant_id, request_id),
      UNIQUE (tenant_id, number),
      CHECK (NOT restock OR (kind = 'credit' AND location_id IS NOT NULL)),
      FOREIGN KEY (tenant_id, invoice_id) REFERENCES invoices (tenant_id, id),
      FOREIGN KEY (tenant_id, location_id) REFERENCES locations (tenant_id, id),
      FOREIGN KEY (tenant_id, stock_movement_id) REFERENCES stock_movements (tenant_id, id)
    );
    CREATE INDEX memos_invoice_idx ON memos (tenant_id, invoice_id);
    CREATE INDEX memos_fiscal_idx ON memos (tenant_id, fiscal_status) WHERE fiscal_status IN ('pending', 'submitted', 'failed');
    CREATE TABLE memo_lines (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      memo_id uuid NOT NULL,
      line integer NOT NULL CHECK (line BETWEEN 0 AND 499),
      invoice_line integer NOT NULL,
      invoice_id uuid NOT NULL,
      product_id uuid NOT NULL,
      description text CHECK (char_length(description) <= 300),
      quantity numeric(20, 3) NOT NULL CHECK (quantity >= 0),
      unit_price numeric(20, 4) NOT NULL CHECK (unit_price >= 0),
      tax_id uuid,
      tax_code text CHECK (char_length(tax_code) <= 20),
      tax_kind text CHECK (tax_kind IN ('standard', 'zero', 'exempt', 'deemed')),
      tax_rate numeric(7, 4) NOT NULL DEFAULT 0,
      gross numeric(20, 4) NOT NULL CHECK (gross >= 0),
      tax numeric(20, 4) NOT NULL DEFAULT 0 CHECK (tax >= 0),
      net numeric(20, 4) NOT NULL DEFAULT 0 CHECK (net >= 0),
      unit_cost numeric(20, 4) NOT NULL DEFAULT 0 CHECK (unit_cost >= 0),
      PRIMARY KEY (tenant_id, memo_id, line),
      FOREIGN KEY (tenant_id, memo_id) REFERENCES memos (tenant_id, id),
      FOREIGN KEY (tenant_id, invoice_id, invoice_line) REFERENCES invoice_lines (tenant_id, invoice_id, line),
      FOREIGN KEY (tenant_id, product_id) REFERENCES products (tenant_id, id),
      FOREIGN KEY (tenant_id, tax_id) REFERENCES taxes (tenant_id, id)
    );
    CREATE TABLE vouchers (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      request_id uuid NOT NULL,
      number text CHECK (char_length(number) BETWEEN 1 AND 40),
      status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'approved', 'paid', 'cancelled')),
      payee_id uuid,
      payee_name text NOT NULL CHECK (char_length(payee_name) BETWEEN 1 AND 120),
      method text NOT NULL CHECK (method IN ('cash', 'mtn_momo', 'airtel_money', 'bank', 'cheque', 'card')),
      account_id uuid NOT NULL,
      reference text CHECK (char_length(reference) <= 80),
      voucher_on date NOT NULL,
      currency_code text NOT NULL CHECK (currency_code ~ '^[A-Z]{3}$'),
      gross_total numeric(20, 4) NOT NULL DEFAULT 0 CHECK (gross_total >= 0),
      tax_total numeric(20, 4) NOT NULL DEFAULT 0 CHECK (tax_total >= 0),
      whduty_id uuid,
      wht_amount numeric(20, 4) NOT NULL DEFAULT 0 CHECK (wht_amount >= 0),
      wht_certificate text CHECK (char_length(wht_certificate) <= 40),
      net_paid numeric(20, 4) NOT NULL DEFAULT 0 CHECK (net_paid >= 0),
      notes text CHECK (char_length(notes) <= 1000),
      prepared_by uuid REFERENCES users (id),
      approved_by uuid REFERENCES users (id),
      approved_at timestamptz,
      paid_by uuid REFERENCES users (id),
      paid_at timestamptz,
      paid_on date,
      payment_reference text CHECK (char_length(payment_reference) <= 80),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      UNIQUE (tenant_id, request_id),
      UNIQUE (tenant_id, number),
      CHECK (status IN ('draft', 'cancelled') OR (number IS NOT NULL AND approved_by IS NOT NULL)),
      CHECK (status <> 'paid' OR (paid_by IS NOT NULL AND paid_on IS NOT NULL)),
      FOREIGN KEY (tenant_id, payee_id) REFERENCES companies (tenant_id, id),
      FOREIGN KEY (tenant_id, account_id) REFERENCES accounts (tenant_id, id),
      FOREIGN KEY (tenant_id, whduty_id) REFERENCES whduties (tenant_id, id)
    );
    CREATE INDEX vouchers_on_idx ON vouchers (tenant_id, voucher_on);
    CREATE TABLE voucher_lines (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      voucher_id uuid NOT NULL,
      line integer NOT NULL CHECK (line BETWEEN 0 AND 99),
      account_id uuid NOT NULL,
      description text NOT NULL CHECK (char_length(description) BETWEEN 1 AND 300),
      amount numeric(20, 4) NOT NULL CHECK (amount > 0),
      tax numeric(20, 4) NOT NULL DEFAULT 0 CHECK (tax >= 0 AND tax <= amount),
      PRIMARY KEY (tenant_id, voucher_id, line),
      FOREIGN KEY (tenant_id, voucher_id) REFERENCES vouchers (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, account_id) REFERENCES accounts (tenant_id, id)
    );
    CREATE TABLE journal_entries (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      source_kind text NOT NULL CHECK (source_kind IN ('invoice', 'receipt', 'memo', 'voucher', 'opening', 'manual')),
      source_id uuid,
      occurred_on date NOT NULL,
      description text NOT NULL CHECK (char_length(description) BETWEEN 1 AND 300),
      created_by uuid REFERENCES users (id),
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      PRIMARY KEY (tenant_id, id)
    );
    CREATE INDEX journal_entries_source_idx ON journal_entries (tenant_id, source_kind, source_id);
    CREATE INDEX journal_entries_day_idx ON journal_entries (tenant_id, occurred_on);
    CREATE TABLE journal_lines (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      entry_id uuid NOT NULL,
      line integer NOT NULL CHECK (line BETWEEN 0 AND 999),
      account_id uuid NOT NULL,
      partner_id uuid,
      debit numeric(20, 4) NOT NULL DEFAULT 0 CHECK (debit >= 0),
      credit numeric(20, 4) NOT NULL DEFAULT 0 CHECK (credit >= 0),
      PRIMARY KEY (tenant_id, entry_id, line),
      CHECK ((debit = 0) <> (credit = 0)),
      FOREIGN KEY (tenant_id, entry_id) REFERENCES journal_entries (tenant_id, id),
      FOREIGN KEY (tenant_id, account_id) REFERENCES accounts (tenant_id, id),
      FOREIGN KEY (tenant_id, partner_id) REFERENCES companies (tenant_id, id)
    );
    CREATE INDEX journal_lines_account_idx ON journal_lines (tenant_id, account_id)
`;

/*
 * What the database itself holds to, whatever a bug in the code may try: a journal entry
 * balances (checked when the transaction commits, once all its lines are in), and an issued
 * document changes only in its fiscal fields.
 */
const GUARDS: ReadonlyArray<string> = [
  `CREATE FUNCTION mustard_journal_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE v_difference numeric;
    BEGIN
      SELECT COALESCE(sum(debit), 0) - COALESCE(sum(credit), 0) INTO v_difference
        FROM journal_lines WHERE tenant_id = NEW.tenant_id AND entry_id = NEW.entry_id;
      IF v_difference <> 0 THEN
        RAISE EXCEPTION 'journal entry % does not balance by %', NEW.entry_id, v_difference USING ERRCODE = '23514';
      END IF;
      RETURN NULL;
    END $$`,
  `CREATE CONSTRAINT TRIGGER journal_lines_balanced AFTER INSERT ON journal_lines
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION mustard_journal_balanced()`,
  `CREATE FUNCTION mustard_issued_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE v_issued boolean;
    BEGIN
      -- A delete cascading from its business's removal (or a draft's, for its lines) is not an edit.
      IF TG_OP = 'DELETE' AND pg_trigger_depth() > 1 THEN RETURN OLD; END IF;
      IF TG_TABLE_NAME = 'invoices' THEN
        v_issued := OLD.status <> 'draft';
        IF TG_OP = 'UPDATE' AND OLD.status = 'draft' THEN RETURN NEW; END IF;
      ELSIF TG_TABLE_NAME = 'invoice_lines' THEN
        SELECT status <> 'draft' INTO v_issued FROM invoices WHERE tenant_id = OLD.tenant_id AND id = OLD.invoice_id;
        v_issued := COALESCE(v_issued, false);
      ELSE
        v_issued := true;
      END IF;
      IF NOT v_issued THEN
        RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
      END IF;
      IF TG_OP = 'UPDATE' AND TG_TABLE_NAME IN ('invoices', 'memos')
        AND (to_jsonb(NEW) - ARRAY['fiscal_status', 'fiscal_fdn', 'fiscal_verification_code', 'fiscal_qr_code',
               'fiscal_invoice_id', 'fiscal_reference', 'fiscal_at', 'fiscal_simulated', 'updated_at'])
          = (to_jsonb(OLD) - ARRAY['fiscal_status', 'fiscal_fdn', 'fiscal_verification_code', 'fiscal_qr_code',
               'fiscal_invoice_id', 'fiscal_reference', 'fiscal_at', 'fiscal_simulated', 'updated_at']) THEN
        RETURN NEW;
      END IF;
      RAISE EXCEPTION 'an issued % cannot be changed', TG_TABLE_NAME USING ERRCODE = '55000';
    END $$`,
  `CREATE TRIGGER invoices_frozen BEFORE UPDATE OR DELETE ON invoices FOR EACH ROW EXECUTE FUNCTION mustard_issued_frozen()`,
  `CREATE TRIGGER invoice_lines_frozen BEFORE UPDATE OR DELETE ON invoice_lines FOR EACH ROW EXECUTE FUNCTION mustard_issued_frozen()`,
  `CREATE TRIGGER memos_frozen BEFORE UPDATE OR DELETE ON memos FOR EACH ROW EXECUTE FUNCTION mustard_issued_frozen()`,
  `CREATE TRIGGER memo_lines_frozen BEFORE UPDATE OR DELETE ON memo_lines FOR EACH ROW EXECUTE FUNCTION mustard_issued_frozen()`,
  `CREATE FUNCTION mustard_voucher_forward() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' AND pg_trigger_depth() > 1 THEN RETURN OLD; END IF;
      IF TG_TABLE_NAME = 'voucher_lines' THEN
        IF EXISTS (SELECT 1 FROM vouchers WHERE tenant_id = OLD.tenant_id AND id = OLD.voucher_id AND status <> 'draft') THEN
          RAISE EXCEPTION 'the lines of an approved voucher cannot be changed' USING ERRCODE = '55000';
        END IF;
        RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
      END IF;
      IF OLD.status = 'draft' THEN RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END; END IF;
      IF TG_OP = 'UPDATE' AND OLD.status = 'approved' AND NEW.status IN ('paid', 'cancelled')
        AND (to_jsonb(NEW) - ARRAY['status', 'paid_by', 'paid_at', 'paid_on', 'payment_reference', 'updated_at'])
          = (to_jsonb(OLD) - ARRAY['status', 'paid_by', 'paid_at', 'paid_on', 'payment_reference', 'updated_at']) THEN
        RETURN NEW;
      END IF;
      RAISE EXCEPTION 'an approved voucher only moves forward' USING ERRCODE = '55000';
    END $$`,
  `CREATE TRIGGER vouchers_forward BEFORE UPDATE OR DELETE ON vouchers FOR EACH ROW EXECUTE FUNCTION mustard_voucher_forward()`,
  `CREATE TRIGGER voucher_lines_forward BEFORE UPDATE OR DELETE ON voucher_lines FOR EACH ROW EXECUTE FUNCTION mustard_voucher_forward()`,
];

/*
 * Managers of businesses that existed before this migration may sell, pay and keep the books;
 * new businesses get these from default-roles.ts.
 */
const ROLES_SQL = `
    INSERT INTO role_permissions (tenant_id, id, role_id, subject_class, action)
    SELECT r.tenant_id, gen_random_uuid(), r.id, s.subject, 'manage'
      FROM roles r JOIN tenants t ON t.id = r.tenant_id
      CROSS JOIN (VALUES ('sale'), ('voucher'), ('account'), ('efris'), ('business-report')) AS s (subject)
     WHERE t.category <> 'School' AND lower(r.name) = 'manager'
    ON CONFLICT DO NOTHING
`;

export const SALES_TABLES = [
  'accounts',
  'document_numbers',
  'invoices',
  'invoice_lines',
  'receipts',
  'receipt_allocations',
  'memos',
  'memo_lines',
  'vouchers',
  'voucher_lines',
  'journal_entries',
  'journal_lines',
];

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, TABLES_SQL);
  // Function bodies hold semicolons: one statement each, not split.
  for (const statement of GUARDS) await sql.raw(statement).execute(db);
  await enableTenantSecurity(db, SALES_TABLES);
  await runStatements(db, ROLES_SQL);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, SALES_TABLES);
  await runStatements(
    db,
    `DROP FUNCTION IF EXISTS mustard_journal_balanced();
    DROP FUNCTION IF EXISTS mustard_issued_frozen();
    DROP FUNCTION IF EXISTS mustard_voucher_forward();
    ALTER TABLE business_settings DROP COLUMN vat_registered`,
  );
}
