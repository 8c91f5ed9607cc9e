import { type CatalogueMessage, TENANT_MESSAGES } from '@mustard/shared';
import { sql } from 'kysely';
import type { TenantTx, Trx } from '../../db/tenant.js';
import { AppError } from '../../errors.js';

/*
 * The demo is confined (issue 24 point 5). Its accounts share a password printed at every start
 * and in the README, so whoever reads it may sign in as them: they may work in the demo tenants
 * alone. They cannot create a school or business, invite anyone into another tenant, or become a
 * member of one (by an invitation, the command, or any other way a membership is added), so a
 * school created next to the demo is never reachable with the demo's password.
 *
 * How a demo account is known: by its e-mail, on the demo's own domain `mustard.demo` (the seed
 * makes admin@, teacher@ and <first>.<last>@mustard.demo, and nothing else makes accounts there).
 * `.demo` is not a top-level domain anyone can register, so no real person's address is caught;
 * the rule needs no column, holds on a data directory seeded by any earlier version, and holds
 * whatever MUSTARD_DEMO_PASSWORD says (a flag set by the seed would miss accounts seeded before
 * it, and the password itself cannot be checked without the person typing it). An e-mail on that
 * domain invited by a school is treated as the demo's too: nobody can receive mail there.
 * The demo tenants are known by their codes, the seed's (a test holds the two lists together).
 */

export const DEMO_EMAIL_DOMAIN = 'mustard.demo';
export const DEMO_TENANT_CODES: readonly string[] = ['demo-primary', 'demo-secondary', 'demo-shop'];

/** True for an address on the demo's domain (or a subdomain of it), whatever its case. */
export function isDemoEmail(email: string): boolean {
  const domain = email.trim().toLowerCase().split('@').pop() ?? '';
  return email.includes('@') && (domain === DEMO_EMAIL_DOMAIN || domain.endsWith(`.${DEMO_EMAIL_DOMAIN}`));
}

export function isDemoTenantCode(code: string): boolean {
  return DEMO_TENANT_CODES.includes(code.toLowerCase());
}

async function isDemoAccount(trx: Trx, userId: string): Promise<boolean> {
  const user = await trx.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
  return user !== undefined && isDemoEmail(user.email);
}

const refusal = (message: CatalogueMessage) => new AppError(403, message);

/** A demo account may not create a school or business (403 naming why). */
export async function refuseDemoCreatingTenant(trx: Trx, userId: string): Promise<void> {
  if (await isDemoAccount(trx, userId)) throw refusal(TENANT_MESSAGES.demoCannotCreate);
}

/**
 * In a tenant other than the demo's, a demo account may be neither a member nor the sender of an
 * invitation: `who` says which of the two is asked, for the words of the 403. The one check every
 * membership goes through (`addMember`), and inviting (`inviteMember`).
 */
export async function refuseDemoOutsideDemo(tx: TenantTx, userId: string, who: 'member' | 'sender' = 'member'): Promise<void> {
  if (!(await isDemoAccount(tx.trx, userId))) return;
  const tenant = await tx.trx
    .selectFrom('tenants')
    .select(sql<string>`lower(tenantcode)`.as('code'))
    .where('id', '=', tx.tenantId)
    .executeTakeFirst();
  if (tenant && isDemoTenantCode(tenant.code)) return;
  throw refusal(who === 'sender' ? TENANT_MESSAGES.demoCannotInvite : TENANT_MESSAGES.demoCannotJoin);
}
