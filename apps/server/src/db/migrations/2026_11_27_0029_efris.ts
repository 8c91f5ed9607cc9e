import type { Kysely } from 'kysely';
import { dropTables, enableTenantSecurity, runStatements } from './tenant-tables.js';

/*
 * EFRIS, URA's e-invoicing (issue 32 point 7; guide business.md "EFRIS"). A business whose
 * Efris flag is on fiscalises every issued invoice and credit note with URA, through an outbox:
 * the document is issued first (never held up by URA being down), queued in the same
 * transaction, and sent after commit by the EFRIS worker (modules/efris/worker.ts).
 *
 * - `efris_devices`: the business's EFRIS device (one per business): device number, TIN, the
 *   URL (or the project's local fake), and its credentials sealed with AES-256-GCM under the
 *   server's secrets key (auth/secret-box.ts), bound to the business: a copy of the database
 *   alone gives no key away.
 * - `efris_outbox`: one row per fiscal document (an invoice for T109, a credit note for T110 and
 *   its approval by T111), due at `next_attempt_at`. `last_exchange_id` is the dataExchangeId
 *   of the last request sent; when no answer to it was stored (a timeout, a reply lost after
 *   URA committed), the next attempt first asks URA (T108) whether it already has the document,
 *   so a lost reply never makes a second fiscal document number.
 * - `efris_messages`: every request and every answer (or the transport's failure), append-only
 *   (migrate.ts revokes UPDATE and DELETE): what was said to URA is evidence.
 * - `efris_products`: a product as registered with URA (T130) and the quantity stocked in with
 *   URA (T131); URA refuses an invoice for goods it does not know or has not enough of.
 */
const TABLES_SQL = `
    CREATE TABLE efris_devices (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      device_no text NOT NULL CHECK (char_length(device_no) BETWEEN 1 AND 40),
      tin text NOT NULL CHECK (tin ~ '^[0-9]{10}$'),
      mode text NOT NULL DEFAULT 'fake' CHECK (mode IN ('fake', 'live')),
      url text CHECK (char_length(url) <= 300),
      credentials_sealed text CHECK (char_length(credentials_sealed) <= 20000),
      enabled boolean NOT NULL DEFAULT true,
      updated_by uuid REFERENCES users (id),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id),
      CHECK (mode = 'fake' OR url IS NOT NULL)
    );
    CREATE TABLE efris_outbox (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      document_kind text NOT NULL CHECK (document_kind IN ('invoice', 'credit_memo')),
      document_id uuid NOT NULL,
      interface_code text NOT NULL CHECK (interface_code IN ('T109', 'T110', 'T111')),
      reference text NOT NULL CHECK (char_length(reference) BETWEEN 1 AND 60),
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'done', 'failed')),
      attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      last_exchange_id text CHECK (char_length(last_exchange_id) <= 40),
      last_error text CHECK (char_length(last_error) <= 1000),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      done_at timestamptz,
      PRIMARY KEY (tenant_id, id),
      UNIQUE (tenant_id, document_kind, document_id)
    );
    CREATE INDEX efris_outbox_due_idx ON efris_outbox (tenant_id, next_attempt_at) WHERE status IN ('pending', 'sending');
    CREATE INDEX efris_outbox_created_idx ON efris_outbox (tenant_id, created_at DESC);
    CREATE TABLE efris_messages (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      outbox_id uuid,
      interface_code text NOT NULL CHECK (interface_code ~ '^T[0-9]{3}$'),
      exchange_id text NOT NULL CHECK (char_length(exchange_id) BETWEEN 1 AND 40),
      direction text NOT NULL CHECK (direction IN ('request', 'answer', 'failure')),
      return_code text CHECK (char_length(return_code) <= 20),
      return_message text CHECK (char_length(return_message) <= 1000),
      envelope jsonb,
      content jsonb,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, outbox_id) REFERENCES efris_outbox (tenant_id, id)
    );
    CREATE INDEX efris_messages_exchange_idx ON efris_messages (tenant_id, exchange_id);
    CREATE INDEX efris_messages_outbox_idx ON efris_messages (tenant_id, outbox_id, created_at);
    CREATE TABLE efris_products (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      product_id uuid NOT NULL,
      goods_code text NOT NULL CHECK (char_length(goods_code) BETWEEN 1 AND 50),
      commodity_code text NOT NULL CHECK (char_length(commodity_code) BETWEEN 1 AND 20),
      measure_unit text NOT NULL CHECK (char_length(measure_unit) BETWEEN 1 AND 10),
      registered_at timestamptz,
      stocked_quantity numeric(20, 3) NOT NULL DEFAULT 0 CHECK (stocked_quantity >= 0),
      stocked_at timestamptz,
      last_error text CHECK (char_length(last_error) <= 1000),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, product_id),
      UNIQUE (tenant_id, goods_code),
      FOREIGN KEY (tenant_id, product_id) REFERENCES products (tenant_id, id) ON DELETE CASCADE
    )
`;

export const EFRIS_TABLES = ['efris_devices', 'efris_outbox', 'efris_messages', 'efris_products'];

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, TABLES_SQL);
  await enableTenantSecurity(db, EFRIS_TABLES);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, EFRIS_TABLES);
}
