import { createPublicKey, randomUUID } from 'node:crypto';
import { Decimal, EFRIS_MESSAGES as E } from '@mustard/shared';
import type { Kysely } from 'kysely';
import { withTenantTx } from '../../db/tenant.js';
import type { DB } from '../../db/types.js';
import { FAKE_CODES, type FakeUra, SIMULATED } from '../../efris-fake/ura.js';
import { openSecret } from '../auth/secret-box.js';
import { callUra, type DeviceAccess, type EfrisTransport, type UraCaller, type UraResult } from './client.js';
import {
  addStocked,
  answerKept,
  claimDue,
  deviceOf,
  type EfrisProductState,
  efrisTenants,
  finish,
  invoiceForFiscal,
  keepRegistrationError,
  markInvoiceFiscalised,
  markRegistered,
  memoForFiscal,
  type OutboxItem,
  productStates,
  reschedule,
  sellerOf,
  setInvoiceFiscalStatus,
  updateMemoFiscal,
} from './efris.repository.js';
import {
  creditNoteContent,
  DEFAULT_COMMODITY_CODE,
  goodsContent,
  invoiceContent,
  measureUnit,
  type Seller,
  stockInContent,
} from './fiscal-content.js';

/*
 * The EFRIS worker (issue 32 point 7): sends the fiscal outbox to URA after the issuing
 * transaction committed, as the mail sender sends mail (mail/sender.ts): woken after a response
 * that queued something, and polling besides; a round claims a bounded batch per business
 * (`FOR UPDATE SKIP LOCKED`, a lease), commits the claim, then talks to URA.
 *
 * Never a second fiscal document. Every send remembers its exchange id before it goes; when the
 * previous attempt of a document got no answer (a timeout, a cut connection, URA committed and
 * the reply was lost), the next attempt first asks URA for it by its reference (T108 for an
 * invoice, T111 for a credit note) and takes URA's number when URA has it. URA also refuses a
 * seller's reference used twice, and that refusal too is answered by looking the document up.
 *
 * Before an invoice goes, its products are registered with URA (T130) and enough of each stocked
 * in (T131). URA unreachable: retried with a backoff (doubling, capped), the document staying
 * "fiscal: pending". URA refusing the document: it is 'failed' with URA's message, to be sent
 * again by hand (POST /api/efris/outbox/:id/retry) once the cause is mended. A credit note,
 * once applied for (T110), is looked at (T111) until URA approves or rejects it.
 */

export interface EfrisTiming {
  pollMs: number;
  retryBaseMs: number;
  retryCapMs: number;
  /** How long one request to URA may take before it counts as unanswered. */
  timeoutMs: number;
  /** How often a credit note's approval is looked at. */
  approvalPollMs: number;
  leaseMs: number;
  maxAttempts: number;
  batchSize: number;
  tenantsPerRound: number;
  /** Woken after a response that queued a document (off only in tests that count each round). */
  hints: boolean;
}

export const DEFAULT_EFRIS_TIMING: EfrisTiming = {
  pollMs: 15_000,
  retryBaseMs: 30_000,
  retryCapMs: 60 * 60_000,
  timeoutMs: 30_000,
  approvalPollMs: 5 * 60_000,
  leaseMs: 10 * 60_000,
  maxAttempts: 50,
  batchSize: 10,
  tenantsPerRound: 50,
  hints: true,
};

interface Log {
  warn(obj: object, message: string): void;
  error(obj: object, message: string): void;
}

export function devicePurpose(tenantId: string): string {
  return `efris-device:${tenantId}`;
}

/** Something to tell the caller (a route) that URA did not do. */
export class EfrisProblem extends Error {
  constructor(
    message: string,
    readonly kind: 'not_configured' | 'unreachable' | 'refused',
  ) {
    super(message);
  }
}

const isOk = (result: UraResult): boolean => result.kind === 'answer' && result.returnCode === FAKE_CODES.ok;
const contentOf = (result: UraResult): unknown => (result.kind === 'answer' ? result.content : null);
const codeOf = (result: UraResult): string => (result.kind === 'answer' ? result.returnCode : '');
const messageOf = (result: UraResult): string => (result.kind === 'answer' ? result.returnMessage : result.error);

type GoodsOutcome =
  | { kind: 'ok'; registered: number; stocked: number; failed: Array<{ product_id: string; message: string }> }
  | { kind: 'unreachable' | 'refused'; error: string };

export class EfrisWorker {
  private readonly goodsTurns = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private cursor: string | null = null;
  private readonly waiters: Array<{ after: number; resolve: () => void }> = [];
  private started = 0;
  readonly caller: UraCaller;

  constructor(
    private readonly db: Kysely<DB>,
    transport: EfrisTransport,
    private readonly secretsKey: Uint8Array,
    readonly timing: EfrisTiming,
    private readonly log: Log,
    autostart: boolean,
    /** The fake URA of this process, if any: a fake device it forgot (a restart, an in-memory store) is enrolled again. */
    private readonly fake: FakeUra | null = null,
  ) {
    this.caller = { db, transport, timeoutMs: timing.timeoutMs };
    if (autostart) this.schedule(timing.pollMs);
  }

  wake(): void {
    if (this.stopped) return;
    if (this.round) this.again = true;
    else this.schedule(0);
  }

  /** Resolves when a round has run that began after this call (tests, and a retry asked for by hand). */
  drain(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const after = this.started;
    return new Promise((resolve) => {
      this.waiters.push({ after, resolve });
      this.wake();
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.round;
    for (const waiter of this.waiters.splice(0)) waiter.resolve();
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run(), delay);
    this.timer.unref();
  }

  private async run(): Promise<void> {
    if (this.stopped || this.round) return;
    const number = ++this.started;
    let more = false;
    this.round = this.sendDue()
      .then((full) => {
        more = full;
      })
      .catch((error: unknown) => this.log.error({ err: error }, 'efris: a round failed; the outbox keeps the documents'));
    await this.round;
    this.round = undefined;
    for (const waiter of [...this.waiters])
      if (number > waiter.after) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    if (this.stopped) return;
    const soon = more || this.again;
    this.again = false;
    this.schedule(soon ? 0 : this.timing.pollMs);
  }

  /** One round over a bounded batch of businesses with Efris on; answers whether there may be more. */
  private async sendDue(): Promise<boolean> {
    const tenants = await efrisTenants(this.db, this.cursor, this.timing.tenantsPerRound);
    this.cursor = tenants.length < this.timing.tenantsPerRound ? null : (tenants.at(-1) ?? null);
    let full = this.cursor !== null;
    for (const tenantId of tenants) {
      const claimed = await withTenantTx(this.db, { tenantId }, (tx) => claimDue(tx, this.timing.batchSize, this.timing.leaseMs));
      if (claimed.length >= this.timing.batchSize) full = true;
      for (const item of claimed) {
        try {
          await this.process(tenantId, item);
        } catch (error) {
          this.log.error({ err: error, outbox: item.id }, 'efris: a document could not be processed');
          await withTenantTx(this.db, { tenantId }, (tx) =>
            reschedule(tx, item.id, {
              delayMs: this.backoff(item.attempts),
              error: error instanceof Error ? error.message : String(error),
            }),
          );
        }
      }
    }
    return full;
  }

  backoff(attempts: number): number {
    return Math.min(this.timing.retryCapMs, this.timing.retryBaseMs * 2 ** Math.max(0, attempts - 1));
  }

  /** The business's device with its key opened, or a problem to say. */
  async device(tenantId: string): Promise<DeviceAccess> {
    const row = await withTenantTx(this.db, { tenantId }, (tx) => deviceOf(tx));
    if (!row?.enabled || !row.credentials_sealed) throw new EfrisProblem(E.notConfigured, 'not_configured');
    const credentials = openSecret(this.secretsKey, devicePurpose(tenantId), row.credentials_sealed);
    if (!credentials) throw new EfrisProblem(E.notConfigured, 'not_configured');
    const { private_key } = JSON.parse(credentials) as { private_key: string };
    if (row.mode === 'fake' && !row.url && this.fake && !this.fake.knowsDevice(row.tin, row.device_no)) {
      // The portal step again: the fake keeps its store in memory unless EFRIS_FAKE_FILE says where.
      this.fake.enrolDevice(row.tin, row.device_no, createPublicKey(private_key).export({ type: 'spki', format: 'pem' }).toString());
    }
    return { tin: row.tin, deviceNo: row.device_no, mode: row.mode, url: row.url, privateKeyPem: private_key };
  }

  private async unreachable(tenantId: string, item: OutboxItem, error: string): Promise<void> {
    await withTenantTx(this.db, { tenantId }, async (tx) => {
      if (item.attempts >= this.timing.maxAttempts) await finish(tx, item.id, 'failed', error);
      else await reschedule(tx, item.id, { delayMs: this.backoff(item.attempts), error });
    });
  }

  private async process(tenantId: string, item: OutboxItem): Promise<void> {
    let device: DeviceAccess;
    try {
      device = await this.device(tenantId);
    } catch (error) {
      if (error instanceof EfrisProblem) return this.unreachable(tenantId, item, error.message);
      throw error;
    }
    if (item.document_kind === 'invoice') return this.fiscaliseInvoice(tenantId, device, item);
    return item.interface_code === 'T111' ? this.followCreditNote(tenantId, device, item) : this.applyCreditNote(tenantId, device, item);
  }

  /** Whether the previous attempt's request went without an answer: URA may hold the document. */
  private async previousUnanswered(tenantId: string, item: OutboxItem): Promise<boolean> {
    if (!item.last_exchange_id) return false;
    const exchangeId = item.last_exchange_id;
    return !(await withTenantTx(this.db, { tenantId }, (tx) => answerKept(tx, exchangeId)));
  }

  private async takeFiscalised(tenantId: string, device: DeviceAccess, item: OutboxItem, content: unknown): Promise<void> {
    const document = (content ?? {}) as {
      basicInformation?: Record<string, string>;
      summary?: Record<string, string>;
      goodsDetails?: Array<Record<string, string>>;
    };
    const basic = document.basicInformation ?? {};
    const summary = document.summary ?? {};
    const simulated = device.mode === 'fake' || String(summary.remarks ?? '').includes(SIMULATED);
    await withTenantTx(this.db, { tenantId }, async (tx) => {
      await markInvoiceFiscalised(tx, item.document_id, {
        fdn: String(basic.invoiceNo ?? ''),
        verification_code: String(basic.antifakeCode ?? ''),
        qr_code: String(summary.qrCode ?? ''),
        invoice_id: String(basic.invoiceId ?? ''),
        simulated,
      });
      // URA's stock went down by what was sold: kept so the next sale stocks in only what is missing.
      const loaded = await invoiceForFiscal(tx, item.document_id);
      for (const line of loaded?.lines ?? []) await addStocked(tx, line.product_id, new Decimal(line.quantity).negated().toFixed());
      await finish(tx, item.id, 'done', null);
    });
  }

  private async fiscaliseInvoice(tenantId: string, device: DeviceAccess, item: OutboxItem): Promise<void> {
    const loaded = await withTenantTx(this.db, { tenantId }, async (tx) => ({
      document: await invoiceForFiscal(tx, item.document_id),
      seller: await sellerOf(tx),
    }));
    const document = loaded.document;
    if (document?.invoice.status !== 'issued' || document.invoice.fiscal_status === 'fiscalised') {
      await withTenantTx(this.db, { tenantId }, (tx) => finish(tx, item.id, 'done', null));
      return;
    }
    // The previous request went unanswered: ask URA before sending it again.
    if (await this.previousUnanswered(tenantId, item)) {
      const found = await this.lookUpInvoice(tenantId, device, item);
      if (found === 'unreachable') return;
      if (found !== 'absent') return this.takeFiscalised(tenantId, device, item, found);
    }
    const seller: Seller = { ...loaded.seller, tin: device.tin };
    const productIds = [...new Set(document.lines.map((line) => line.product_id))];
    const needed = new Map<string, Decimal>();
    for (const line of document.lines) needed.set(line.product_id, (needed.get(line.product_id) ?? new Decimal(0)).plus(line.quantity));
    const goods = await this.ensureGoods(tenantId, device, seller, productIds, needed, item.id);
    if (goods.kind === 'unreachable') return this.unreachable(tenantId, item, goods.error);
    if (goods.kind === 'refused') return this.refuse(tenantId, item, goods.error);
    const content = invoiceContent(document, seller, device.deviceNo, 'Mustard');
    const result = await callUra(this.caller, tenantId, device, 'T109', content, { outboxId: item.id, remember: true });
    if (result.kind === 'unreachable') return this.unreachable(tenantId, item, result.error);
    if (isOk(result)) return this.takeFiscalised(tenantId, device, item, contentOf(result));
    if (codeOf(result) === FAKE_CODES.duplicateReference) {
      // URA already has this reference: the earlier send went through. Take its number.
      const found = await this.lookUpInvoice(tenantId, device, item);
      if (found === 'unreachable') return;
      if (found !== 'absent') return this.takeFiscalised(tenantId, device, item, found);
    }
    return this.refuse(tenantId, item, `${codeOf(result)}: ${messageOf(result)}`);
  }

  /** T108 by the invoice's reference: URA's invoice, 'absent', or 'unreachable' (the row is rescheduled). */
  private async lookUpInvoice(tenantId: string, device: DeviceAccess, item: OutboxItem): Promise<unknown> {
    const result = await callUra(this.caller, tenantId, device, 'T108', { referenceNo: item.reference }, { outboxId: item.id });
    if (result.kind === 'unreachable') {
      await this.unreachable(tenantId, item, result.error);
      return 'unreachable';
    }
    if (isOk(result)) return contentOf(result);
    if (codeOf(result) === FAKE_CODES.notFound) return 'absent';
    await this.unreachable(tenantId, item, `${codeOf(result)}: ${messageOf(result)}`);
    return 'unreachable';
  }

  private async refuse(tenantId: string, item: OutboxItem, error: string): Promise<void> {
    await withTenantTx(this.db, { tenantId }, async (tx) => {
      await finish(tx, item.id, 'failed', error);
      if (item.document_kind === 'invoice') await setInvoiceFiscalStatus(tx, item.document_id, 'failed');
      else await updateMemoFiscal(tx, item.document_id, { status: 'failed' });
    });
  }

  /**
   * Registers with URA (T130) the products not yet registered, and stocks in (T131) what URA
   * lacks of each for `needed` (a sale's quantities) or, without it, what the ledger has on hand
   * beyond what URA was told. Services are registered, never stocked.
   */
  ensureGoods(
    tenantId: string,
    device: DeviceAccess,
    seller: Seller,
    productIds: ReadonlyArray<string>,
    needed: ReadonlyMap<string, Decimal> | null,
    outboxId: string | null,
  ): Promise<GoodsOutcome> {
    // One business's registrations take turns in this process (the same products twice at once
    // would stock in twice): each waits for the one before, whatever its outcome.
    const before = this.goodsTurns.get(tenantId) ?? Promise.resolve();
    const turn = before.then(() => this.registerAndStock(tenantId, device, seller, productIds, needed, outboxId));
    const settled = turn.then(
      () => undefined,
      () => undefined,
    );
    this.goodsTurns.set(tenantId, settled);
    void settled.then(() => {
      if (this.goodsTurns.get(tenantId) === settled) this.goodsTurns.delete(tenantId);
    });
    return turn;
  }

  private async registerAndStock(
    tenantId: string,
    device: DeviceAccess,
    seller: Seller,
    productIds: ReadonlyArray<string>,
    needed: ReadonlyMap<string, Decimal> | null,
    outboxId: string | null,
  ): Promise<GoodsOutcome> {
    const states = await withTenantTx(this.db, { tenantId }, (tx) => productStates(tx, productIds));
    const failed: Array<{ product_id: string; message: string }> = [];
    const unregistered = states.filter((state) => !state.registered_at);
    let registered = 0;
    if (unregistered.length > 0) {
      const result = await callUra(this.caller, tenantId, device, 'T130', goodsContent(unregistered), { outboxId });
      if (result.kind === 'unreachable') return { kind: 'unreachable', error: result.error };
      if (!isOk(result)) return { kind: 'refused', error: `${codeOf(result)}: ${messageOf(result)}` };
      const failures = new Map(
        (Array.isArray(contentOf(result)) ? (contentOf(result) as Array<Record<string, string>>) : []).map((row) => [
          String(row.goodsCode),
          String(row.returnMessage),
        ]),
      );
      await withTenantTx(this.db, { tenantId }, async (tx) => {
        for (const state of unregistered) {
          const goods = { goods_code: state.code, commodity_code: DEFAULT_COMMODITY_CODE, measure_unit: measureUnit(state.unit) };
          const problem = failures.get(state.code);
          if (problem) {
            failed.push({ product_id: state.product_id, message: problem });
            await keepRegistrationError(tx, state.product_id, goods, problem);
          } else {
            registered += 1;
            await markRegistered(tx, state.product_id, goods, null);
            state.registered_at = new Date();
          }
        }
      });
      if (needed && failed.length > 0) return { kind: 'refused', error: failed.map((row) => row.message).join('; ') };
    }
    const stockLines: Array<{ state: EfrisProductState; quantity: Decimal }> = [];
    for (const state of states) {
      if (!state.registered_at || state.kind !== 'goods') continue;
      const known = new Decimal(state.stocked_quantity);
      const want = needed ? (needed.get(state.product_id) ?? new Decimal(0)) : new Decimal(state.on_hand);
      const missing = want.minus(known);
      if (missing.gt(0)) stockLines.push({ state, quantity: missing });
    }
    let stocked = 0;
    if (stockLines.length > 0) {
      const content = stockInContent(
        stockLines.map((line) => ({ goodsCode: line.state.code, quantity: line.quantity.toFixed(), unitPrice: line.state.price })),
        seller,
      );
      const result = await callUra(this.caller, tenantId, device, 'T131', content, { outboxId });
      if (result.kind === 'unreachable') return { kind: 'unreachable', error: result.error };
      if (!isOk(result)) return { kind: 'refused', error: `${codeOf(result)}: ${messageOf(result)}` };
      const failures = new Map(
        (Array.isArray(contentOf(result)) ? (contentOf(result) as Array<Record<string, string>>) : []).map((row) => [
          String(row.goodsCode),
          String(row.returnMessage),
        ]),
      );
      await withTenantTx(this.db, { tenantId }, async (tx) => {
        for (const line of stockLines) {
          const problem = failures.get(line.state.code);
          if (problem) failed.push({ product_id: line.state.product_id, message: problem });
          else {
            stocked += 1;
            await addStocked(tx, line.state.product_id, line.quantity.toFixed());
          }
        }
      });
      if (needed && failed.length > 0) return { kind: 'refused', error: failed.map((row) => row.message).join('; ') };
    }
    return { kind: 'ok', registered, stocked, failed };
  }

  private async applyCreditNote(tenantId: string, device: DeviceAccess, item: OutboxItem): Promise<void> {
    const document = await withTenantTx(this.db, { tenantId }, (tx) => memoForFiscal(tx, item.document_id));
    if (document?.memo.kind !== 'credit') {
      await withTenantTx(this.db, { tenantId }, (tx) => finish(tx, item.id, 'done', null));
      return;
    }
    // A credit note refers to the invoice's fiscal number: it waits until the invoice has one.
    if (document.memo.invoice_fiscal_status !== 'fiscalised' || !document.memo.invoice_fdn) {
      await withTenantTx(this.db, { tenantId }, (tx) =>
        reschedule(tx, item.id, {
          delayMs: this.timing.retryBaseMs,
          error: 'Waiting for the invoice to be fiscalised',
          resetAttempts: true,
        }),
      );
      return;
    }
    if (await this.previousUnanswered(tenantId, item)) {
      const found = await this.lookUpCreditNote(tenantId, device, item, { sellersReferenceNo: item.reference });
      if (found === 'unreachable') return;
      if (found !== 'absent') return this.submitted(tenantId, device, item, String(found.referenceNo ?? ''));
    }
    const content = creditNoteContent(document, 'Mustard');
    const result = await callUra(this.caller, tenantId, device, 'T110', content, { outboxId: item.id, remember: true });
    if (result.kind === 'unreachable') return this.unreachable(tenantId, item, result.error);
    if (isOk(result))
      return this.submitted(tenantId, device, item, String((contentOf(result) as { referenceNo?: string } | null)?.referenceNo ?? ''));
    if (codeOf(result) === FAKE_CODES.duplicateReference) {
      const found = await this.lookUpCreditNote(tenantId, device, item, { sellersReferenceNo: item.reference });
      if (found === 'unreachable') return;
      if (found !== 'absent') return this.submitted(tenantId, device, item, String(found.referenceNo ?? ''));
    }
    return this.refuse(tenantId, item, `${codeOf(result)}: ${messageOf(result)}`);
  }

  private async submitted(tenantId: string, device: DeviceAccess, item: OutboxItem, referenceNo: string): Promise<void> {
    await withTenantTx(this.db, { tenantId }, async (tx) => {
      await updateMemoFiscal(tx, item.document_id, { status: 'submitted', reference: referenceNo, simulated: device.mode === 'fake' });
      await reschedule(tx, item.id, { delayMs: this.timing.approvalPollMs, error: null, interfaceCode: 'T111', resetAttempts: true });
    });
  }

  private async lookUpCreditNote(
    tenantId: string,
    device: DeviceAccess,
    item: OutboxItem,
    query: { referenceNo?: string; sellersReferenceNo?: string },
  ): Promise<'absent' | 'unreachable' | Record<string, string>> {
    const result = await callUra(
      this.caller,
      tenantId,
      device,
      'T111',
      { ...query, queryType: '1', pageNo: '1', pageSize: '10' },
      { outboxId: item.id },
    );
    if (result.kind === 'unreachable' || !isOk(result)) {
      await this.unreachable(tenantId, item, result.kind === 'unreachable' ? result.error : `${codeOf(result)}: ${messageOf(result)}`);
      return 'unreachable';
    }
    const records = ((contentOf(result) as { records?: Array<Record<string, string>> } | null)?.records ?? []).filter(
      (record) => !query.sellersReferenceNo || record.sellersReferenceNo === query.sellersReferenceNo,
    );
    return records[0] ?? 'absent';
  }

  /** T111: approved (with its own fiscal number), rejected, or still waiting. */
  private async followCreditNote(tenantId: string, device: DeviceAccess, item: OutboxItem): Promise<void> {
    const document = await withTenantTx(this.db, { tenantId }, (tx) => memoForFiscal(tx, item.document_id));
    const referenceNo = document?.memo.fiscal_reference;
    if (!document || !referenceNo) {
      await withTenantTx(this.db, { tenantId }, (tx) => reschedule(tx, item.id, { delayMs: 0, error: null, interfaceCode: 'T110' }));
      return;
    }
    const found = await this.lookUpCreditNote(tenantId, device, item, { referenceNo });
    if (found === 'unreachable') return;
    if (found === 'absent') return this.refuse(tenantId, item, 'URA no longer knows the credit note application');
    const simulated = device.mode === 'fake' || String(found.remarks ?? '').includes(SIMULATED);
    if (found.approveStatus === '101') {
      await withTenantTx(this.db, { tenantId }, async (tx) => {
        await updateMemoFiscal(tx, item.document_id, {
          status: 'approved',
          fdn: String(found.invoiceNo ?? ''),
          verification_code: String(found.antifakeCode ?? ''),
          qr_code: String(found.qrCode ?? ''),
          simulated,
        });
        await finish(tx, item.id, 'done', null);
      });
      return;
    }
    if (found.approveStatus === '103') {
      await withTenantTx(this.db, { tenantId }, async (tx) => {
        await updateMemoFiscal(tx, item.document_id, { status: 'rejected' });
        await finish(tx, item.id, 'done', 'URA rejected the credit note');
      });
      return;
    }
    await withTenantTx(this.db, { tenantId }, (tx) =>
      reschedule(tx, item.id, { delayMs: this.timing.approvalPollMs, error: null, resetAttempts: true }),
    );
  }

  /** T119 for a route: URA's record of a TIN. */
  async checkTin(tenantId: string, tin: string): Promise<Record<string, string>> {
    const device = await this.device(tenantId);
    const result = await callUra(this.caller, tenantId, device, 'T119', { tin, ninBrn: '' });
    if (result.kind === 'unreachable') throw new EfrisProblem(E.uraUnavailable, 'unreachable');
    if (codeOf(result) === FAKE_CODES.unknownTin) throw new EfrisProblem(E.tinUnknown, 'refused');
    if (!isOk(result)) throw new EfrisProblem(`${E.uraRefused}: ${messageOf(result)}`, 'refused');
    return ((contentOf(result) as { taxpayer?: Record<string, string> } | null)?.taxpayer ?? {}) as Record<string, string>;
  }

  /**
   * T101 and T115: URA's time and its dictionary (each kept as a message, as every exchange).
   * URA's time is asked first: a device whose clock drifts is refused by URA, so the screen shows both.
   */
  async dictionary(tenantId: string): Promise<{ time: string | null; content: Record<string, unknown> }> {
    const device = await this.device(tenantId);
    const clock = await callUra(this.caller, tenantId, device, 'T101', null);
    const result = await callUra(this.caller, tenantId, device, 'T115', {});
    if (result.kind === 'unreachable') throw new EfrisProblem(E.uraUnavailable, 'unreachable');
    if (!isOk(result)) throw new EfrisProblem(`${E.uraRefused}: ${messageOf(result)}`, 'refused');
    const time = isOk(clock) ? (contentOf(clock) as { currentTime?: string } | null)?.currentTime : undefined;
    return { time: time ? String(time) : null, content: (contentOf(result) ?? {}) as Record<string, unknown> };
  }

  newId(): string {
    return randomUUID();
  }
}
