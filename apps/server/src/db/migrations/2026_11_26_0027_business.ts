import { type Kysely, sql } from 'kysely';
import { dropTables, enableTenantSecurity, runStatements } from './tenant-tables.js';

/*
 * The business side, part 1 (issue 31; guide business.md): what a shop sells and keeps, who it
 * buys from and sells to, and the stock ledger.
 *
 * - Reference data is data, per business, seeded with the Ugandan defaults: `currencies` (UGX
 *   without a minor unit), `taxes` (VAT standard 18%, zero-rated, exempt, deemed), `whduties`
 *   (withholding tax kinds), `banks` (banks and mobile-money providers).
 * - `product_groups` carry a default tax; `products` (migration 0022) gain barcode, group, price
 *   (tax-inclusive), cost, tax, whether stock is tracked, whether the unit takes fractions, and
 *   a reorder level. Money is numeric, never float.
 * - `companies`: customers and suppliers.
 * - The ledger: `stock_movements` is one user action (a receipt from a supplier, an adjustment, a
 *   transfer, an opening balance), with the client's request id so a retry over a dropping
 *   connection is the same action, not a second one; `stock_records` its rows, one per product
 *   and location, signed, with the unit cost, in the order written (`created_at` is the
 *   clock's time at the row, not the transaction's, and a product's movements are written one
 *   at a time under its lock; `line` orders a movement's own rows; no sequence shared by all
 *   tenants, which would tell one business how busy the others are). The app may only insert into it (migrate.ts
 *   revokes UPDATE and DELETE): a correction is a new row. `stock_levels` (on hand per product
 *   and location) and `stock_valuations` (quantity and value per product, moving average) are
 *   kept in the movement's transaction under the product's lock; a test proves they always
 *   equal the sums of the ledger.
 * - `business_settings`: one row per business (negative stock allowed or not).
 */
const TABLES_SQL = `
    CREATE TABLE business_settings (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      allow_negative_stock boolean NOT NULL DEFAULT false,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id)
    );
    CREATE TABLE currencies (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      code text NOT NULL CHECK (code ~ '^[A-Z]{3}$'),
      name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 80),
      symbol text CHECK (char_length(symbol) <= 8),
      decimals smallint NOT NULL DEFAULT 2 CHECK (decimals BETWEEN 0 AND 4),
      rate numeric(20, 8) NOT NULL DEFAULT 1 CHECK (rate > 0),
      is_default boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      UNIQUE (tenant_id, code)
    );
    CREATE UNIQUE INDEX currencies_one_default ON currencies (tenant_id) WHERE is_default;
    CREATE TABLE taxes (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      code text NOT NULL CHECK (char_length(code) BETWEEN 1 AND 20),
      name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 80),
      kind text NOT NULL CHECK (kind IN ('standard', 'zero', 'exempt', 'deemed')),
      rate numeric(7, 4) NOT NULL DEFAULT 0 CHECK (rate >= 0 AND rate <= 100),
      inclusive boolean NOT NULL DEFAULT true,
      active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      UNIQUE (tenant_id, code)
    );
    CREATE TABLE whduties (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      code text NOT NULL CHECK (char_length(code) BETWEEN 1 AND 20),
      name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 80),
      kind text NOT NULL CHECK (kind IN ('income_tax', 'vat', 'non_resident', 'other')),
      rate numeric(7, 4) NOT NULL CHECK (rate >= 0 AND rate <= 100),
      threshold numeric(20, 4) NOT NULL DEFAULT 0 CHECK (threshold >= 0),
      account text CHECK (char_length(account) <= 80),
      active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      UNIQUE (tenant_id, code)
    );
    CREATE TABLE banks (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 120),
      code text CHECK (char_length(code) <= 20),
      swift text CHECK (swift ~ '^[A-Z0-9]{8}([A-Z0-9]{3})?$'),
      kind text NOT NULL CHECK (kind IN ('bank', 'mobile_money')),
      active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      UNIQUE (tenant_id, name)
    );
    CREATE TABLE product_groups (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 80),
      tax_id uuid,
      description text CHECK (char_length(description) <= 500),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      UNIQUE (tenant_id, name),
      FOREIGN KEY (tenant_id, tax_id) REFERENCES taxes (tenant_id, id)
    );
    ALTER TABLE products
      ADD COLUMN barcode text CHECK (char_length(barcode) BETWEEN 1 AND 64),
      ADD COLUMN group_id uuid,
      ADD COLUMN price numeric(20, 4) NOT NULL DEFAULT 0 CHECK (price >= 0),
      ADD COLUMN cost numeric(20, 4) NOT NULL DEFAULT 0 CHECK (cost >= 0),
      ADD COLUMN tax_id uuid,
      ADD COLUMN track_stock boolean NOT NULL DEFAULT true,
      ADD COLUMN fractional boolean NOT NULL DEFAULT false,
      ADD COLUMN reorder_level numeric(20, 3) NOT NULL DEFAULT 0 CHECK (reorder_level >= 0),
      ADD COLUMN description text CHECK (char_length(description) <= 1000),
      ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now(),
      ADD CONSTRAINT products_group_fkey FOREIGN KEY (tenant_id, group_id) REFERENCES product_groups (tenant_id, id),
      ADD CONSTRAINT products_tax_fkey FOREIGN KEY (tenant_id, tax_id) REFERENCES taxes (tenant_id, id);
    CREATE UNIQUE INDEX products_barcode_key ON products (tenant_id, barcode) WHERE barcode IS NOT NULL;
    CREATE INDEX products_name_idx ON products (tenant_id, name);
    CREATE TABLE companies (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 120),
      role text NOT NULL CHECK (role IN ('customer', 'supplier', 'both')),
      tin text CHECK (tin ~ '^[0-9]{10}$'),
      buyer_type text NOT NULL DEFAULT 'b2c' CHECK (buyer_type IN ('b2c', 'b2b', 'government', 'foreigner')),
      contact_person text CHECK (char_length(contact_person) <= 120),
      phone text CHECK (char_length(phone) <= 30),
      email text CHECK (char_length(email) <= 254),
      address text CHECK (char_length(address) <= 300),
      terms_days integer NOT NULL DEFAULT 0 CHECK (terms_days BETWEEN 0 AND 365),
      credit_limit numeric(20, 4) NOT NULL DEFAULT 0 CHECK (credit_limit >= 0),
      active boolean NOT NULL DEFAULT true,
      notes text CHECK (char_length(notes) <= 1000),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      UNIQUE (tenant_id, name)
    );
    CREATE TABLE stock_movements (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      request_id uuid NOT NULL,
      kind text NOT NULL CHECK (kind IN ('opening', 'purchase', 'adjustment', 'transfer', 'sale', 'sale_return')),
      location_id uuid NOT NULL,
      to_location_id uuid,
      partner_id uuid,
      reason text CHECK (reason IN ('expired', 'damaged', 'personal_use', 'lost', 'count', 'found', 'other')),
      reference text CHECK (char_length(reference) <= 80),
      note text CHECK (char_length(note) <= 500),
      occurred_on date NOT NULL,
      created_by uuid REFERENCES users (id),
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      UNIQUE (tenant_id, request_id),
      CHECK (to_location_id IS NULL OR to_location_id <> location_id),
      FOREIGN KEY (tenant_id, location_id) REFERENCES locations (tenant_id, id),
      FOREIGN KEY (tenant_id, to_location_id) REFERENCES locations (tenant_id, id),
      FOREIGN KEY (tenant_id, partner_id) REFERENCES companies (tenant_id, id)
    );
    CREATE TABLE stock_records (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      movement_id uuid NOT NULL,
      line integer NOT NULL CHECK (line BETWEEN 0 AND 9999),
      product_id uuid NOT NULL,
      location_id uuid NOT NULL,
      kind text NOT NULL CHECK (kind IN ('opening', 'purchase', 'sale', 'sale_return', 'adjustment_in', 'adjustment_out', 'transfer_out', 'transfer_in')),
      quantity numeric(20, 3) NOT NULL CHECK (quantity <> 0),
      unit_cost numeric(20, 4) NOT NULL CHECK (unit_cost >= 0),
      occurred_on date NOT NULL,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      PRIMARY KEY (tenant_id, id),
      UNIQUE (tenant_id, movement_id, line),
      CHECK ((kind IN ('opening', 'purchase', 'sale_return', 'adjustment_in', 'transfer_in')) = (quantity > 0)),
      FOREIGN KEY (tenant_id, movement_id) REFERENCES stock_movements (tenant_id, id),
      FOREIGN KEY (tenant_id, product_id) REFERENCES products (tenant_id, id),
      FOREIGN KEY (tenant_id, location_id) REFERENCES locations (tenant_id, id)
    );
    CREATE INDEX stock_records_product_idx ON stock_records (tenant_id, product_id, created_at, line);
    CREATE INDEX stock_records_day_idx ON stock_records (tenant_id, occurred_on);
    CREATE TABLE stock_levels (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      product_id uuid NOT NULL,
      location_id uuid NOT NULL,
      on_hand numeric(20, 3) NOT NULL DEFAULT 0,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, product_id, location_id),
      FOREIGN KEY (tenant_id, product_id) REFERENCES products (tenant_id, id),
      FOREIGN KEY (tenant_id, location_id) REFERENCES locations (tenant_id, id)
    );
    CREATE INDEX stock_levels_location_idx ON stock_levels (tenant_id, location_id);
    CREATE TABLE stock_valuations (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      product_id uuid NOT NULL,
      quantity numeric(20, 3) NOT NULL DEFAULT 0,
      value numeric(24, 4) NOT NULL DEFAULT 0,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, product_id),
      FOREIGN KEY (tenant_id, product_id) REFERENCES products (tenant_id, id)
    )
`;

export const BUSINESS_TABLES = [
  'business_settings',
  'currencies',
  'taxes',
  'whduties',
  'banks',
  'product_groups',
  'companies',
  'stock_movements',
  'stock_records',
  'stock_levels',
  'stock_valuations',
];

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, TABLES_SQL);
  await enableTenantSecurity(db, BUSINESS_TABLES);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS products_barcode_key`.execute(db);
  await sql`DROP INDEX IF EXISTS products_name_idx`.execute(db);
  await runStatements(
    db,
    `ALTER TABLE products DROP COLUMN barcode, DROP COLUMN group_id, DROP COLUMN price, DROP COLUMN cost, DROP COLUMN tax_id,
      DROP COLUMN track_stock, DROP COLUMN fractional, DROP COLUMN reorder_level, DROP COLUMN description, DROP COLUMN updated_at`,
  );
  await dropTables(db, BUSINESS_TABLES);
}
