import { newId } from '../db/ids.js';
import type { TenantTx } from '../db/tenant.js';

export interface AuditEntry {
  /** Who acted: the transaction's user unless said (the sender of an invitation a person accepts). */
  userId?: string | null;
  action: 'create' | 'update' | 'delete' | 'forbidden' | string;
  entity: string;
  entityId?: string | null;
  before?: unknown;
  after?: unknown;
}

/**
 * Writes one audit entry in the caller's transaction, so the entry exists exactly when the
 * change does (security.md item 25): who, when, tenant, before and after.
 */
export async function recordAudit(tx: TenantTx, entry: AuditEntry): Promise<void> {
  await tx.trx
    .insertInto('audit_log')
    .values({
      tenant_id: tx.tenantId,
      id: newId(),
      user_id: entry.userId === undefined ? tx.userId : entry.userId,
      action: entry.action,
      entity: entry.entity,
      entity_id: entry.entityId ?? null,
      before: entry.before === undefined ? null : JSON.stringify(entry.before),
      after: entry.after === undefined ? null : JSON.stringify(entry.after),
    })
    .execute();
}
