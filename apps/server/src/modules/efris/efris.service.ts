import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import {
  EFRIS_MESSAGES as E,
  type EfrisDevice,
  type EfrisDeviceInput,
  type EfrisDictionaryAnswer,
  type EfrisOutboxQuery,
  type EfrisOutboxResponse,
  type EfrisOutboxRow,
  type EfrisProductsQuery,
  type EfrisProductsResponse,
  type EfrisTinAnswer,
} from '@mustard/shared';
import type { TenantTx } from '../../db/tenant.js';
import type { FakeUra } from '../../efris-fake/ura.js';
import { AppError, conflict, invalid, notFound } from '../../errors.js';
import type { ActionContext } from '../../plugins/endpoints.js';
import { openSecret, sealSecret } from '../auth/secret-box.js';
import { deviceOf, outboxPage, outboxRow, productPage, productStates, retryNow, saveDevice, sellerOf } from './efris.repository.js';
import { devicePurpose, EfrisProblem } from './worker.js';

/*
 * EFRIS's screens (issue 32 point 7): the device (its key sealed at rest, never answered), the
 * outbox with a retry, the products with URA, and the TIN check. What talks to URA runs outside
 * the request's transaction (efris.routes.ts): a slow URA holds no database connection.
 */

export interface EfrisDeps {
  secretsKey: Uint8Array;
  /** The fake URA of this server, when EFRIS_FAKE is on. */
  fake: FakeUra | null;
}

export async function deviceView(context: ActionContext, deps: EfrisDeps): Promise<EfrisDevice> {
  const [row, seller] = await Promise.all([deviceOf(context.tx), sellerOf(context.tx)]);
  return {
    configured: row !== undefined,
    device_no: row?.device_no ?? '',
    tin: row?.tin ?? seller.tin ?? '',
    mode: row?.mode ?? 'fake',
    url: row?.url ?? null,
    enabled: row?.enabled ?? false,
    has_credentials: Boolean(row?.credentials_sealed),
    efris_on: seller.efrist,
    fake_available: deps.fake !== null,
    updated_at: row ? new Date(row.updated_at).toISOString() : null,
  };
}

/**
 * Saves the device. A key sent is checked and sealed; none sent keeps the one kept. A fake device
 * without any gets a new key pair, its public half set with the local fake (URA's portal step).
 */
export async function saveDeviceSettings(context: ActionContext, input: EfrisDeviceInput, deps: EfrisDeps): Promise<EfrisDevice> {
  const tenantId = context.tx.tenantId;
  const existing = await deviceOf(context.tx);
  let privateKey = input.private_key ?? null;
  if (privateKey) {
    try {
      createPublicKey(privateKey);
    } catch {
      throw invalid({ private_key: [E.keyInvalid] });
    }
  }
  const kept = existing?.credentials_sealed ? openSecret(deps.secretsKey, devicePurpose(tenantId), existing.credentials_sealed) : null;
  if (!privateKey && kept) privateKey = (JSON.parse(kept) as { private_key: string }).private_key;
  if (!privateKey) {
    if (input.mode === 'live') throw invalid({ private_key: [E.keyRequired] });
    privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  }
  if (input.mode === 'fake' && !input.url) {
    if (!deps.fake) throw invalid({ mode: [E.fakeUnavailable] });
    const publicKey = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
    deps.fake.enrolDevice(input.tin, input.device_no, publicKey, context.school.name.toUpperCase());
  }
  await saveDevice(context.tx, {
    device_no: input.device_no,
    tin: input.tin,
    mode: input.mode,
    url: input.url,
    enabled: input.enabled,
    credentials_sealed: sealSecret(deps.secretsKey, devicePurpose(tenantId), JSON.stringify({ private_key: privateKey })),
  });
  return deviceView(context, deps);
}

export function outboxList(context: ActionContext, query: EfrisOutboxQuery): Promise<EfrisOutboxResponse> {
  return outboxPage(context.tx, query);
}

export async function retryOutbox(context: ActionContext, id: string): Promise<EfrisOutboxRow> {
  const outcome = await retryNow(context.tx, id);
  if (outcome === 'not_found') throw notFound();
  if (outcome === 'not_retryable') throw conflict(E.notRetryable);
  const row = await outboxRow(context.tx, id);
  if (!row) throw notFound();
  return row;
}

export function productsList(context: ActionContext, query: EfrisProductsQuery): Promise<EfrisProductsResponse> {
  return productPage(context.tx, query);
}

/** Before registering: the products are the business's, EFRIS is on and a device set up. Answers the seller. */
export async function registrationCheck(context: ActionContext, productIds: ReadonlyArray<string>) {
  const unique = [...new Set(productIds)];
  const states = await productStates(context.tx, unique);
  if (states.length !== unique.length) throw invalid({ product_ids: [E.productUnknown] });
  const seller = await sellerOf(context.tx);
  if (!seller.efrist) throw conflict(E.efrisOff);
  const device = await deviceOf(context.tx);
  if (!device?.enabled || !device.credentials_sealed) throw conflict(E.notConfigured);
  return { ids: unique, seller: { name: seller.name, tin: device.tin, email: seller.email, phone: seller.phone, address: seller.address } };
}

/** A problem URA's side had, as the answer the screen shows. */
export function efrisProblemAnswer(error: unknown): never {
  if (error instanceof EfrisProblem) {
    if (error.kind === 'not_configured') throw conflict(E.notConfigured);
    if (error.kind === 'unreachable') throw new AppError(503, E.uraUnavailable);
    if (error.message === E.tinUnknown) throw invalid({ tin: [E.tinUnknown] });
    throw new AppError(422, E.uraRefused);
  }
  throw error;
}

export function tinAnswer(tin: string, taxpayer: Record<string, string>, simulated: boolean): EfrisTinAnswer {
  return {
    tin,
    legal_name: String(taxpayer.legalName ?? ''),
    business_name: String(taxpayer.businessName ?? ''),
    address: String(taxpayer.address ?? ''),
    simulated,
  };
}

/**
 * A device on the local fake for a business set up by code (the demo's seed): a new key pair,
 * sealed; the worker enrols it with the fake at its first use (worker.ts `device`).
 */
export async function seedFakeDevice(tx: TenantTx, secretsKey: Uint8Array, device: { device_no: string; tin: string }): Promise<void> {
  const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  await saveDevice(tx, {
    device_no: device.device_no,
    tin: device.tin,
    mode: 'fake',
    url: null,
    enabled: true,
    credentials_sealed: sealSecret(secretsKey, devicePurpose(tx.tenantId), JSON.stringify({ private_key: privateKey })),
  });
}

/** URA's dictionary entries as `{ value, name }`, whatever else URA sends with them; a part URA left out is empty. */
function dictionaryEntries(part: unknown): Array<{ value: string; name: string }> {
  if (!Array.isArray(part)) return [];
  return part
    .slice(0, 500)
    .map((entry: { value?: unknown; name?: unknown }) => ({ value: String(entry?.value ?? ''), name: String(entry?.name ?? '') }));
}

/** The dictionary's parts the shop's documents use, with URA's time. */
export function dictionaryAnswer(
  answer: { time: string | null; content: Record<string, unknown> },
  simulated: boolean,
): EfrisDictionaryAnswer {
  return {
    ura_time: answer.time,
    payment_modes: dictionaryEntries(answer.content.payWay),
    currencies: dictionaryEntries(answer.content.currencyType),
    tax_categories: dictionaryEntries(answer.content.taxCategory),
    units: dictionaryEntries(answer.content.rateUnit),
    simulated,
  };
}
