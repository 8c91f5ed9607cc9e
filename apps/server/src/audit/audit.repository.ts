import { newId } from '../db/ids.js';
import type { Trx } from '../db/tenant.js';

export interface AuditEntry {
  userId: string | null;
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
export async function recordAudit(trx: Trx, tenantId: string, entry: AuditEntry): Promise<void> {
  await trx
    .insertInto('audit_log')
    .values({
      tenant_id: tenantId,
      id: newId(),
      user_id: entry.userId,
      action: entry.action,
      entity: entry.entity,
      entity_id: entry.entityId ?? null,
      before: entry.before === undefined ? null : JSON.stringify(entry.before),
      after: entry.after === undefined ? null : JSON.stringify(entry.after),
    })
    .execute();
}
