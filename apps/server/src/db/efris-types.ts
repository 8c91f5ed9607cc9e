import type { ColumnType, Generated } from 'kysely';

/*
 * The rows of migration 0029 (issue 32 point 7: EFRIS) as Kysely sees them; `DB` in types.ts
 * names them.
 */

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** Kysely's Generated does not unwrap a ColumnType: a defaulted numeric says so itself. */
type DefaultedNumeric = ColumnType<string, string | number | undefined, string | number>;
type Json = ColumnType<unknown, string, string>;

export type EfrisMode = 'fake' | 'live';
export type EfrisDocumentKind = 'invoice' | 'credit_memo';
export type EfrisOutboxStatus = 'pending' | 'sending' | 'done' | 'failed';

export interface EfrisDevicesTable {
  tenant_id: string;
  device_no: string;
  tin: string;
  mode: Generated<EfrisMode>;
  url: string | null;
  /** AES-256-GCM under the secrets key (auth/secret-box.ts), never the key itself. */
  credentials_sealed: string | null;
  enabled: Generated<boolean>;
  updated_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface EfrisOutboxTable {
  tenant_id: string;
  id: string;
  document_kind: EfrisDocumentKind;
  document_id: string;
  interface_code: 'T109' | 'T110' | 'T111';
  reference: string;
  status: Generated<EfrisOutboxStatus>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  last_exchange_id: string | null;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  done_at: Timestamp | null;
}

export interface EfrisMessagesTable {
  tenant_id: string;
  id: string;
  outbox_id: string | null;
  interface_code: string;
  exchange_id: string;
  direction: 'request' | 'answer' | 'failure';
  return_code: string | null;
  return_message: string | null;
  envelope: Json | null;
  content: Json | null;
  created_at: Timestamp;
}

export interface EfrisProductsTable {
  tenant_id: string;
  product_id: string;
  goods_code: string;
  commodity_code: string;
  measure_unit: string;
  registered_at: Timestamp | null;
  stocked_quantity: DefaultedNumeric;
  stocked_at: Timestamp | null;
  last_error: string | null;
  updated_at: Timestamp;
}
