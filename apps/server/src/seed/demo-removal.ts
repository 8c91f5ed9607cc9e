import { sql } from 'kysely';
import type { Database } from '../db/connect.js';
import { DEMO_EMAIL_DOMAIN, DEMO_TENANT_CODES } from '../modules/tenants/demo-confinement.js';

export interface DemoRemoved {
  tenants: string[];
  accounts: number;
}

/**
 * Deletes the demo (`mustard remove-demo`, and the first half of `reset-demo`): its tenants, with
 * everything they hold (every tenant-owned row goes with its tenant), then its accounts, in one
 * transaction, so an interrupted removal leaves the demo whole. Other tenants and accounts are
 * untouched; a person from elsewhere who had joined a demo school loses that membership only.
 */
export async function removeDemo(database: Database): Promise<DemoRemoved> {
  return database.db.transaction().execute(async (trx) => {
    const tenants = await trx
      .deleteFrom('tenants')
      .where(sql`lower(tenantcode)`, 'in', [...DEMO_TENANT_CODES])
      .returning('tenantcode')
      .execute();
    const accounts = await trx
      .deleteFrom('users')
      .where((eb) =>
        eb.or([eb(sql`lower(email)`, 'like', `%@${DEMO_EMAIL_DOMAIN}`), eb(sql`lower(email)`, 'like', `%@%.${DEMO_EMAIL_DOMAIN}`)]),
      )
      .returning('id')
      .execute();
    return { tenants: tenants.map((row) => row.tenantcode).sort(), accounts: accounts.length };
  });
}

/** The command's answer: what went, or that there was nothing to remove. */
export function removedText(removed: DemoRemoved): string {
  if (removed.tenants.length === 0 && removed.accounts === 0) return 'There was no demo to remove.';
  return `Removed the demo: tenants ${removed.tenants.join(', ') || 'none'} and ${removed.accounts} demo accounts.`;
}
