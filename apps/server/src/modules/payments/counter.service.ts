import { type CounterSaleInput, Decimal, ReceiptInputSchema, SALES_MESSAGES } from '@mustard/shared';
import { conflict, type FieldErrors, invalid } from '../../errors.js';
import { counterReceipt, invoiceOfRequest } from '../sales/sales.repository.js';
import { createDraft, invoiceOf, issueInvoice, kampalaToday, type SaleContext } from '../sales/sales.service.js';
import { recordReceipt } from './receipts.service.js';

/*
 * The counter sale (issue 32 points 1 and 9): a cash sale to the walk-in customer (or one
 * named), created, issued and paid in ONE transaction: the invoice is numbered, stock goes out,
 * the sale is posted, and the receipt of its whole total is recorded and allocated to it. A
 * refusal anywhere (not enough stock, a mobile-money payment without its reference, too little
 * cash) leaves nothing behind: no number used, no ledger row.
 */

/**
 * Sells at the counter. The same request id again (the screen's retry on a dropping connection)
 * sells nothing and answers the first sale (`created: false`).
 */
export async function counterSale(context: SaleContext, input: CounterSaleInput) {
  const { tx } = context;
  const today = kampalaToday();
  const earlier = await invoiceOfRequest(tx, input.request_id);
  if (earlier) {
    if (earlier.kind !== 'cash_sale') throw conflict(SALES_MESSAGES.requestReused);
    return answer(context, earlier.id, input, false);
  }
  const { invoice: draft } = await createDraft(
    context,
    {
      request_id: input.request_id,
      customer_id: input.customer_id,
      buyer_name: input.buyer_name,
      buyer_phone: input.buyer_phone,
      location_id: input.location_id,
      currency_code: undefined,
      issued_on: today,
      due_on: today,
      reference: input.reference,
      notes: input.notes,
      lines: input.lines,
    },
    'cash_sale',
  );
  const { invoice } = await issueInvoice(context, draft.id);
  const total = new Decimal(invoice.gross_total);
  const tendered = input.payment.tendered === undefined ? total : new Decimal(input.payment.tendered);
  if (tendered.lt(total)) throw invalid({ 'payment.tendered': [SALES_MESSAGES.tenderedBelowTotal] });
  if (total.gt(0)) {
    const receipt = ReceiptInputSchema.safeParse({
      // The invoice's id is as new as a request id, and the same on a retry of this sale.
      request_id: invoice.id,
      customer_id: invoice.customer_id,
      received_on: invoice.issued_on,
      method: input.payment.method,
      reference: input.payment.reference,
      amount: invoice.gross_total,
      invoice_id: invoice.id,
      allocations: [{ invoice_id: invoice.id, amount: invoice.gross_total }],
    });
    if (!receipt.success) {
      const errors: FieldErrors = {};
      for (const issue of receipt.error.issues) {
        const field = issue.path[0] === 'reference' || issue.path[0] === 'method' ? `payment.${String(issue.path[0])}` : 'payment';
        errors[field] = [...(errors[field] ?? []), issue.message];
      }
      throw invalid(errors);
    }
    await recordReceipt(context, receipt.data);
  }
  return answer(context, invoice.id, input, true);
}

async function answer(context: SaleContext, invoiceId: string, input: CounterSaleInput, created: boolean) {
  const invoice = await invoiceOf(context.tx, invoiceId);
  const receipt = await counterReceipt(context.tx, invoiceId);
  const tendered = input.payment.tendered === undefined ? new Decimal(invoice.gross_total) : new Decimal(input.payment.tendered);
  const change = Decimal.max(tendered.minus(invoice.gross_total), 0);
  return {
    message: created ? SALES_MESSAGES.saleRecorded : SALES_MESSAGES.saleAlreadyRecorded,
    created,
    invoice,
    receipt: receipt ? { id: receipt.id, number: receipt.number } : null,
    change: change.toFixed(),
  };
}
