import {
  ACCOUNT_MESSAGES as A,
  BUSINESS_MESSAGES,
  Decimal,
  MONEY_SUBTYPES,
  PAYMENT_METHOD_ACCOUNT,
  SETTINGS_MESSAGES,
  type Voucher,
  type VoucherAnswer,
  type VoucherInput,
  type VoucherPay,
  type VouchersQuerySchema,
  type VoucherUpdate,
  voucherPostings,
} from '@mustard/shared';
import type { z } from 'zod';
import { recordAudit } from '../../audit/audit.repository.js';
import { newId } from '../../db/ids.js';
import type { TenantTx } from '../../db/tenant.js';
import { AppError, conflict, type FieldErrors, invalid, notFound } from '../../errors.js';
import { rowsToWorkbook, timestampedFileName } from '../../resources/excel.js';
import { accountIdByKey, accountsByIds } from '../accounts/accounts.repository.js';
import { nextDocumentNumber } from '../accounts/numbering.js';
import { postEntry } from '../accounts/postings.js';
import {
  approverCount,
  defaultCurrency,
  deleteDraft,
  findVoucher,
  insertVoucher,
  listVouchers,
  lockVoucher,
  markApproved,
  markPaid,
  type NewVoucher,
  partnerName,
  replaceLines,
  updateDraft,
  voucherLines,
  voucherOfRequest,
  whduty,
} from './vouchers.repository.js';

/*
 * Payment vouchers (issue 32 point 4): prepared as a draft, approved (numbered, frozen), paid
 * (posted). One user action, one transaction; each step takes the voucher's row lock first, so
 * two approvals (or payments) at once take turns and the second finds the step done: 409.
 * Where the business has more than one member who may approve, the approver is not the
 * preparer and the payer is not the approver (separation of duties).
 */

export interface VoucherContext {
  readonly tx: TenantTx;
  readonly member: { readonly userId: string };
}

/** Exact decimal text for a numeric column. */
const numeric = (value: Decimal | string) => (typeof value === 'string' ? value : value.toFixed());

async function answerOf(tx: TenantTx, id: string, message: string, created: boolean): Promise<VoucherAnswer> {
  const voucher = await findVoucher(tx, id);
  if (!voucher) throw notFound();
  return { message, created, voucher };
}

/**
 * A draft's content checked against the business's records and turned into its row and lines:
 * the payee (a partner of the business, or a name), the paying account (cash, bank or mobile
 * money, by default the method's), the lines' accounts (expenses, cost of sales or creditors),
 * amounts in the currency's decimals, and the withholding tax: the duty's rate on the amount
 * before VAT once it reaches the duty's threshold, unless given; a certificate number with any.
 */
async function draftOf(tx: TenantTx, input: VoucherUpdate) {
  const errors: FieldErrors = {};
  const currency = await defaultCurrency(tx);
  const precise = (field: string, value: string) => {
    if (new Decimal(value).decimalPlaces() > currency.decimals) errors[field] = [BUSINESS_MESSAGES.amountTooPrecise];
  };

  let payeeName = input.payee_name;
  if (input.payee_id) {
    const name = await partnerName(tx, input.payee_id);
    if (name === undefined) errors.payee_id = [SETTINGS_MESSAGES.referenceMissing];
    else payeeName = payeeName ?? name;
  }
  if (!payeeName) errors.payee_name = [A.payeeRequired];

  const payingId = input.account_id ?? (await accountIdByKey(tx, PAYMENT_METHOD_ACCOUNT[input.method]));
  const accounts = await accountsByIds(tx, [payingId, ...input.lines.map((line) => line.account_id)]);
  const paying = accounts.get(payingId);
  if (!paying) errors.account_id = [SETTINGS_MESSAGES.referenceMissing];
  else if (!(MONEY_SUBTYPES as ReadonlyArray<string>).includes(paying.subtype)) errors.account_id = [A.payingAccountInvalid];
  else if (!paying.active) errors.account_id = [A.accountInactive];

  let gross = new Decimal(0);
  let tax = new Decimal(0);
  input.lines.forEach((line, index) => {
    const account = accounts.get(line.account_id);
    if (!account) errors[`lines.${index}.account_id`] = [SETTINGS_MESSAGES.referenceMissing];
    else if (account.type !== 'expense' && account.subtype !== 'payable') errors[`lines.${index}.account_id`] = [A.lineAccountInvalid];
    else if (!account.active) errors[`lines.${index}.account_id`] = [A.accountInactive];
    precise(`lines.${index}.amount`, line.amount);
    precise(`lines.${index}.tax`, line.tax);
    gross = gross.plus(line.amount);
    tax = tax.plus(line.tax);
  });

  let wht = new Decimal(input.wht_amount ?? 0);
  if (input.whduty_id) {
    const duty = await whduty(tx, input.whduty_id);
    if (!duty) errors.whduty_id = [SETTINGS_MESSAGES.referenceMissing];
    else if (input.wht_amount === null) {
      const base = gross.minus(tax);
      wht = base.gte(String(duty.threshold))
        ? base.times(String(duty.rate)).dividedBy(100).toDecimalPlaces(currency.decimals, Decimal.ROUND_HALF_UP)
        : new Decimal(0);
    }
  } else if (wht.gt(0)) errors.whduty_id = [A.whtWithoutDuty];
  if (input.wht_amount !== null) precise('wht_amount', input.wht_amount);
  if (wht.gt(gross)) errors.wht_amount = [A.whtAboveTotal];
  if (wht.gt(0) && !input.wht_certificate) errors.wht_certificate = [A.whtCertificateRequired];
  if (Object.keys(errors).length > 0) throw invalid(errors);

  const row = {
    payee_id: input.payee_id,
    payee_name: payeeName as string,
    method: input.method,
    account_id: payingId,
    reference: input.reference,
    voucher_on: input.voucher_on,
    currency_code: currency.code,
    gross_total: numeric(gross),
    tax_total: numeric(tax),
    whduty_id: wht.gt(0) || input.whduty_id ? input.whduty_id : null,
    wht_amount: numeric(wht),
    wht_certificate: wht.gt(0) ? input.wht_certificate : null,
    net_paid: numeric(gross.minus(wht)),
    notes: input.notes,
  };
  const lines = input.lines.map((line, index) => ({
    line: index,
    account_id: line.account_id,
    description: line.description,
    amount: line.amount,
    tax: numeric(line.tax),
  }));
  return { row, lines };
}

/** The list (`excel=1`: as a workbook). */
export async function vouchersList(tx: TenantTx, query: z.output<typeof VouchersQuerySchema>) {
  if (query.from && query.to && query.from > query.to) throw invalid({ from: [A.periodInvalid] });
  const { rows, total } = await listVouchers(tx, { ...query, ...(query.excel ? { page: 1, per_page: 20_000 } : {}) });
  if (!query.excel) return { answer: { vouchers: rows, totalRecords: total } };
  const workbook = await rowsToWorkbook(
    'Vouchers',
    [
      { header: 'Number', value: (r) => r.number ?? '' },
      { header: 'Date', value: (r) => r.voucher_on },
      { header: 'Status', value: (r) => r.status },
      { header: 'Payee', value: (r) => r.payee_name },
      { header: 'Method', value: (r) => r.method },
      { header: 'Paid from', value: (r) => (r.account as { name: string }).name },
      { header: 'Total', value: (r) => Number(r.gross_total) },
      { header: 'Input VAT', value: (r) => Number(r.tax_total) },
      { header: 'Withheld', value: (r) => Number(r.wht_amount) },
      { header: 'Net paid', value: (r) => Number(r.net_paid) },
      { header: 'Paid on', value: (r) => r.paid_on ?? '' },
    ],
    rows,
  );
  return { file: { fileName: timestampedFileName('mustard'), workbook } };
}

export async function voucherById(tx: TenantTx, id: string): Promise<Voucher> {
  const voucher = await findVoucher(tx, id);
  if (!voucher) throw notFound();
  return voucher;
}

/** A new draft. The same request id again (even at the same moment) writes nothing and answers the first draft. */
export async function createVoucher(context: VoucherContext, input: VoucherInput): Promise<VoucherAnswer> {
  const { tx } = context;
  const earlier = await voucherOfRequest(tx, input.request_id);
  if (earlier) return answerOf(tx, earlier, A.voucherSaved, false);
  const { row, lines } = await draftOf(tx, input);
  const id = newId();
  const voucher: NewVoucher = { ...row, id, request_id: input.request_id, prepared_by: context.member.userId };
  if (!(await insertVoucher(tx, voucher))) {
    const first = await voucherOfRequest(tx, input.request_id);
    if (!first) throw new AppError(409);
    return answerOf(tx, first, A.voucherSaved, false);
  }
  await replaceLines(tx, id, lines);
  await recordAudit(tx, {
    action: 'create',
    entity: 'voucher',
    entityId: id,
    after: { payee: row.payee_name, total: String(row.gross_total) },
  });
  return answerOf(tx, id, A.voucherSaved, true);
}

/** Locks a voucher that must still be a draft (404 when not the business's, 409 when no longer a draft). */
async function lockedDraft(tx: TenantTx, id: string) {
  const voucher = await lockVoucher(tx, id);
  if (!voucher) throw notFound();
  if (voucher.status !== 'draft') throw conflict(A.voucherNotDraft);
  return voucher;
}

export async function updateVoucher(context: VoucherContext, id: string, input: VoucherUpdate): Promise<VoucherAnswer> {
  const { tx } = context;
  await lockedDraft(tx, id);
  const { row, lines } = await draftOf(tx, input);
  await updateDraft(tx, id, row);
  await replaceLines(tx, id, lines);
  await recordAudit(tx, {
    action: 'update',
    entity: 'voucher',
    entityId: id,
    after: { payee: row.payee_name, total: String(row.gross_total) },
  });
  return answerOf(tx, id, A.voucherSaved, false);
}

export async function deleteVoucher(context: VoucherContext, id: string): Promise<{ message: string }> {
  const { tx } = context;
  await lockedDraft(tx, id);
  await deleteDraft(tx, id);
  await recordAudit(tx, { action: 'delete', entity: 'voucher', entityId: id });
  return { message: A.voucherDeleted };
}

/** Approves a draft: numbers it (PV-000001 ...) and freezes it. Another approver than the preparer where there is one. */
export async function approveVoucher(context: VoucherContext, id: string): Promise<VoucherAnswer> {
  const { tx, member } = context;
  const voucher = await lockVoucher(tx, id);
  if (!voucher) throw notFound();
  if (voucher.status !== 'draft') throw conflict(A.voucherAlreadyApproved);
  if (voucher.prepared_by === member.userId && (await approverCount(tx)) > 1) throw conflict(A.approverIsPreparer);
  // The number last: the series' row lock is held from here to the commit.
  const number = await nextDocumentNumber(tx, 'voucher');
  await markApproved(tx, id, number, member.userId);
  await recordAudit(tx, { action: 'update', entity: 'voucher', entityId: id, after: { status: 'approved', number } });
  return answerOf(tx, id, A.voucherApproved, false);
}

/** Pays an approved voucher and posts it to the books. Another payer than the approver where there is one. */
export async function payVoucher(context: VoucherContext, id: string, input: VoucherPay): Promise<VoucherAnswer> {
  const { tx, member } = context;
  const voucher = await lockVoucher(tx, id);
  if (!voucher) throw notFound();
  if (voucher.status === 'paid') throw conflict(A.voucherAlreadyPaid);
  if (voucher.status !== 'approved') throw conflict(A.voucherNotApproved);
  if (input.paid_on < String(voucher.voucher_on)) throw invalid({ paid_on: [A.paidBeforeVoucher] });
  if (voucher.approved_by === member.userId && (await approverCount(tx)) > 1) throw conflict(A.payerIsApprover);
  const lines = await voucherLines(tx, id);
  await postEntry(tx, {
    source_kind: 'voucher',
    source_id: id,
    occurred_on: input.paid_on,
    description: `${voucher.number} ${voucher.payee_name}`,
    lines: voucherPostings({
      lines: lines.map((line) => ({ account_id: line.account_id, amount: String(line.amount), tax: String(line.tax) })),
      wht_amount: String(voucher.wht_amount),
      account_id: voucher.account_id,
      payee_id: voucher.payee_id,
    }),
    created_by: member.userId,
  });
  await markPaid(tx, id, { paid_on: input.paid_on, payment_reference: input.payment_reference, userId: member.userId });
  await recordAudit(tx, { action: 'update', entity: 'voucher', entityId: id, after: { status: 'paid', paid_on: input.paid_on } });
  return answerOf(tx, id, A.voucherPaid, false);
}
