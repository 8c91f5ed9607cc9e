import { Decimal } from '@mustard/shared';

/*
 * The receipt form's allocation grid (issue 32 point 2) as pure functions: money received (and
 * the tax the customer withheld) settles the customer's open invoices oldest first, each at most
 * its balance; what is left is the customer's advance. Exact decimals end to end, never floats.
 */

export interface OpenInvoice {
  id: string;
  /** Balance left to pay: exact decimal text. */
  balance: string;
}

/** A typed amount as an exact decimal, or null while it is none ("", "12,5.0.1"). */
export function typed(value: string): Decimal | null {
  const text = value.trim().replaceAll(',', '');
  if (text === '') return null;
  try {
    const number = new Decimal(text);
    return number.isFinite() ? number : null;
  } catch {
    return null;
  }
}

/** Amount received plus tax withheld: what a receipt settles. */
export function settles(amount: string, wht: string): Decimal {
  return (typed(amount) ?? new Decimal(0)).plus(typed(wht) ?? 0);
}

/**
 * Spreads `total` over the invoices in the order given (the oldest first), each at most its
 * balance: invoice id -> amount as text; invoices left with nothing are absent.
 */
export function autoAllocate(invoices: ReadonlyArray<OpenInvoice>, total: Decimal): Record<string, string> {
  let left = Decimal.max(total, 0);
  const allocation: Record<string, string> = {};
  for (const invoice of invoices) {
    if (left.lte(0)) break;
    const take = Decimal.min(left, new Decimal(invoice.balance));
    if (take.gt(0)) allocation[invoice.id] = take.toFixed();
    left = left.minus(take);
  }
  return allocation;
}

/** The sum of the typed allocations (blank and unreadable count as nothing). */
export function allocatedTotal(allocation: Record<string, string>): Decimal {
  return Object.values(allocation).reduce((sum, value) => sum.plus(typed(value) ?? 0), new Decimal(0));
}

/** What the receipt leaves as the customer's advance: settled - allocated (negative: over-allocated). */
export function advanceLeft(amount: string, wht: string, allocation: Record<string, string>): Decimal {
  return settles(amount, wht).minus(allocatedTotal(allocation));
}

/** The allocations to send: the typed amounts above 0, in the grid's order, as plain decimal text. */
export function allocationsToSend(
  invoices: ReadonlyArray<OpenInvoice>,
  allocation: Record<string, string>,
): Array<{ invoice_id: string; amount: string }> {
  return invoices.flatMap((invoice) => {
    const amount = typed(allocation[invoice.id] ?? '');
    return amount?.gt(0) ? [{ invoice_id: invoice.id, amount: amount.toFixed() }] : [];
  });
}
