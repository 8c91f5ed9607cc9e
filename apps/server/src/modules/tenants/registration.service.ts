import { randomBytes } from 'node:crypto';
import {
  type Business,
  INPUT_MESSAGES,
  type Language,
  type LoginResponse,
  REGISTER_MESSAGES,
  SUPERADMIN_ROLE,
  starterProductsOf,
  TENANT_CATEGORY_OF,
  TENANT_MESSAGES,
  type TenantCreate,
} from '@mustard/shared';
import type { Kysely } from 'kysely';
import { recordAudit } from '../../audit/audit.repository.js';
import { REGISTRATION_LOGO_MAX_BYTES } from '../../db/migrations/2026_11_26_0026_registration_logo.js';
import type { Trx } from '../../db/tenant.js';
import type { DB } from '../../db/types.js';
import { AppError, invalid } from '../../errors.js';
import { enqueueMail } from '../../mail/outbox.js';
import { findUserByEmail, hashCode, recordAuthEvent } from '../auth/auth.repository.js';
import { type AuthDeps, openSession, type SignedIn } from '../auth/auth.service.js';
import type { FailureLimiter } from '../auth/failure-limiter.js';
import { hashPassword } from '../auth/password.js';
// The logo goes through the school badge's picture pipeline (checked by its bytes, re-encoded,
// stored beside the photos), so a logo given at sign-up is the badge the settings and cards show.
import { encodeLogo, LOGO, removeLogo, setLogo, writeLogo } from '../reports/school-logo.js';
import { isDemoEmail, isDemoTenantCode, refuseDemoCreatingTenant } from './demo-confinement.js';
import {
  claimRegistration,
  deleteStaleRegistrations,
  insertAccount,
  insertProducts,
  insertRegistration,
  renewRegistrationToken,
} from './registration.repository.js';
import { lockTenantCode, tenantCodeTaken, toTenant } from './tenants.repository.js';
import { addMember, insertTenantWithRoles, startWithDefaults } from './tenants.service.js';

/*
 * A school or business signs itself up (issue 29 point 2). The three steps of /register arrive
 * once and are kept pending with a verification token (256 bits from the CSPRNG, only its sha256
 * stored, 24 hours, used once); the mail with the link is written to the outbox in the same
 * transaction, so a mail server that is down delays it and never loses it. Following the link
 * makes, in one transaction, the account, the tenant with its default roles, its administrator
 * and what it starts with (a school the Ugandan defaults of its type, a business its starter
 * products), then signs the person in.
 *
 * The answer never says whether the address has an account (security.md item 12): both cases
 * hash the password and write one mail in one transaction; a known address is told by mail that
 * it has an account already, and nothing else happens.
 */

export const VERIFICATION_TTL_MS = 24 * 60 * 60 * 1000;
/** Sign-ups and resends an address receives an hour: enough for typos, too few to flood anyone's inbox. */
export const REGISTRATIONS_PER_ADDRESS = 3;
/** Sign-ups a client address sends an hour (a school's lab behind one address still fits). */
export const REGISTRATIONS_PER_IP = 20;

export interface RegistrationLimits {
  perAddress: FailureLimiter;
  perIp: FailureLimiter;
}

export interface RegistrationDeps {
  db: Kysely<DB>;
  /** The base of the mailed links (`config.publicUrl`). */
  publicUrl: string;
  limits: RegistrationLimits;
}

/** Where a verified sign-up's logo is written (the tenants' photo folders). */
export interface VerificationDeps extends Pick<AuthDeps, 'db' | 'session'> {
  dataDir: string;
}

/** A logo file written for a tenant being made. */
interface WrittenLogo {
  tenantId: string;
  file: string;
}

export interface RegistrationInput {
  person: { name: string; email: string; telephone: string; password: string };
  organisation: Business;
  products: string[];
  locale: Language;
  /** The organisation's logo as uploaded, or null. */
  logo: Buffer | null;
  ip: string;
}

/** The uploaded logo checked and re-encoded as the tenant will keep it (422 naming `logo` otherwise). */
async function encodedLogo(upload: Buffer | null): Promise<Buffer | null> {
  if (!upload) return null;
  const encoded = await encodeLogo(upload);
  if (encoded.byteLength > REGISTRATION_LOGO_MAX_BYTES) throw invalid({ [LOGO.field]: [LOGO.tooLarge] });
  return encoded;
}

const checkEmail = { message: REGISTER_MESSAGES.checkEmail };

/** Counted before any work, like password guesses: parallel requests cannot outrun the limit. */
async function countAttempt(limits: RegistrationLimits, email: string, ip: string): Promise<void> {
  // Both are counted whatever the other answers: a refused address still spends one of the client address's turns.
  const [ipOk, addressOk] = await Promise.all([limits.perIp.attempt(ip), limits.perAddress.attempt(email)]);
  if (!ipOk || !addressOk) throw new AppError(429);
}

const newToken = () => {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashCode(token), expiresAt: new Date(Date.now() + VERIFICATION_TTL_MS) };
};

const verifyLink = (publicUrl: string, token: string) => `${publicUrl}/register/verify?token=${token}`;
/** Where a person who already has an account goes: signing in, with a way to a new password. */
const resetLink = (publicUrl: string) => `${publicUrl}/auth/password/reset`;

/** The starter products asked for, each one of the category's list; a school takes none. */
function chosenProducts(organisation: Business, codes: readonly string[]) {
  const offered = organisation.category === 'school' ? [] : starterProductsOf(organisation.category);
  const unknown = codes.filter((code) => !offered.some((product) => product.code === code));
  if (unknown.length > 0) throw invalid({ products: [INPUT_MESSAGES.valueInvalid] });
  return offered.filter((product) => codes.includes(product.code));
}

/** Registers the person and organisation pending their address's verification; always "check your e-mail". */
export async function register(deps: RegistrationDeps, input: RegistrationInput): Promise<{ message: string }> {
  const email = input.person.email.trim().toLowerCase();
  await countAttempt(deps.limits, email, input.ip);
  // The demo's domain receives no mail and its accounts are confined (demo-confinement.ts).
  if (isDemoEmail(email)) throw new AppError(403, TENANT_MESSAGES.demoCannotCreate);
  const products = chosenProducts(input.organisation, input.products);
  const logo = await encodedLogo(input.logo);
  // Hashed whether or not the address is known, so both answers take the same time.
  const passwordHash = await hashPassword(input.person.password);
  const known = await findUserByEmail(deps.db, email);
  await deps.db.transaction().execute(async (trx) => {
    await deleteStaleRegistrations(trx);
    if (known) {
      await enqueueMail(trx, {
        to: email,
        template: 'accountExists',
        locale: input.locale,
        values: { name: known.name, link: resetLink(deps.publicUrl) },
      });
      return;
    }
    const { token, tokenHash, expiresAt } = newToken();
    await insertRegistration(trx, {
      email,
      name: input.person.name,
      telephone: input.person.telephone,
      password_hash: passwordHash,
      organisation: input.organisation,
      products: products.map((product) => product.code),
      locale: input.locale,
      token_hash: tokenHash,
      expires_at: expiresAt,
      logo,
    });
    await enqueueMail(trx, {
      to: email,
      template: 'verifyEmail',
      locale: input.locale,
      values: { name: input.person.name, link: verifyLink(deps.publicUrl, token) },
    });
  });
  return checkEmail;
}

/**
 * The link again (the first one lost, expired or used up by a mail scanner): a new token for the
 * address's sign-up not yet verified, the old link void; to a known address, the note that it
 * has an account. The same answer whatever the case.
 */
export async function resendVerification(
  deps: RegistrationDeps,
  input: { email: string; locale: Language; ip: string },
): Promise<{ message: string }> {
  const email = input.email.trim().toLowerCase();
  await countAttempt(deps.limits, email, input.ip);
  if (isDemoEmail(email)) return checkEmail;
  const known = await findUserByEmail(deps.db, email);
  await deps.db.transaction().execute(async (trx) => {
    if (known) {
      await enqueueMail(trx, {
        to: email,
        template: 'accountExists',
        locale: input.locale,
        values: { name: known.name, link: resetLink(deps.publicUrl) },
      });
      return;
    }
    const { token, tokenHash, expiresAt } = newToken();
    const pending = await renewRegistrationToken(trx, email, tokenHash, expiresAt);
    if (!pending) return;
    await enqueueMail(trx, {
      to: pending.email,
      template: 'verifyEmail',
      locale: (pending.locale as Language) ?? input.locale,
      values: { name: pending.name, link: verifyLink(deps.publicUrl, token) },
    });
  });
  return checkEmail;
}

/** A tenant code from the name (`St Mary's Kisubi` -> `st-marys-kisubi`), numbered when taken. */
async function freeTenantCode(trx: Trx, name: string): Promise<string> {
  const base =
    name
      .normalize('NFKD')
      .toLowerCase()
      .replace(/['’]/g, '')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 30)
      .replace(/-+$/, '') || 'tenant';
  // Namesakes verified at once number themselves in turn (their codes all start from this base).
  await lockTenantCode(trx, base);
  for (let number = 1; number <= 50; number += 1) {
    const code = number === 1 ? base : `${base}-${number}`;
    if (!isDemoTenantCode(code) && !(await tenantCodeTaken(trx, code))) return code;
  }
  // Fifty namesakes: a random tail, which no one has.
  return `${base}-${randomBytes(4).toString('hex')}`;
}

const linkInvalid = () => new AppError(400, REGISTER_MESSAGES.linkInvalid);

/**
 * Follows the mailed link: in one transaction the account, the tenant with its default roles,
 * the person as its administrator, a school's defaults by its type or a business's starter
 * products; then a sign-in, as login answers. A link used, expired or forged is a 400 saying so.
 */
export async function verifyRegistration(deps: VerificationDeps, input: { token: string; ip: string }): Promise<SignedIn<LoginResponse>> {
  // The logo's file is written in the transaction (the tenant's folder exists only then), removed if it does not commit.
  let written: WrittenLogo | null = null;
  const committed = deps.db.transaction().execute(async (trx) => {
    const registration = await claimRegistration(trx, hashCode(input.token));
    if (!registration) throw linkInvalid();
    const organisation = registration.organisation as Business;
    const account = await insertAccount(trx, {
      email: registration.email,
      name: registration.name,
      phone: registration.telephone,
      password_hash: registration.password_hash,
    });
    // The address got an account some other way since (an invitation, a second sign-up): it signs in.
    if (!account) throw linkInvalid();
    await refuseDemoCreatingTenant(trx, account.id);
    const tenant: TenantCreate = {
      name: organisation.name,
      tenantcode: await freeTenantCode(trx, organisation.name),
      category: TENANT_CATEGORY_OF[organisation.category],
      schooltype: organisation.schooltype,
      forms: null,
      email: organisation.email,
      address: organisation.address || null,
      web: null,
      phone: organisation.telephone,
      tin: organisation.tin || null,
      efrist: false,
      country: organisation.country,
      logo_path: null,
    };
    const { row, roles, tx } = await insertTenantWithRoles(trx, tenant, account.id);
    if (registration.logo) {
      written = { tenantId: row.id, file: await writeLogo(deps.dataDir, row.id, Buffer.from(registration.logo)) };
      await setLogo(tx, written.file);
    }
    await addMember(tx, account.id, [roles.get(SUPERADMIN_ROLE) as string]);
    await startWithDefaults(tx, tenant, tenant.schooltype);
    await insertProducts(tx, chosenProducts(organisation, registration.products as string[]));
    await recordAudit(tx, { action: 'create', entity: 'tenant', entityId: row.id, after: { ...toTenant(row), via: 'registration' } });
    return account;
  });
  const user = await committed.catch(async (error: unknown) => {
    const logo = written as WrittenLogo | null;
    if (logo) await removeLogo(deps.dataDir, logo.tenantId, logo.file);
    throw error;
  });
  await recordAuthEvent(deps.db, 'login', { userId: user.id, email: user.email, ip: input.ip });
  return openSession(deps, user);
}
