import { Decimal, type PostingKey, type PostingLine } from '@mustard/shared';
import { newId } from '../../db/ids.js';
import type { JournalEntriesTable } from '../../db/sales-types.js';
import type { TenantTx } from '../../db/tenant.js';
import { accountIdsByKeys } from './accounts.repository.js';

/*
 * Posting to the books (issue 32 point 5; guide business.md "Postings"): every document event
 * (an invoice issued, a receipt, a memo, a voucher paid) writes one journal entry of balanced
 * lines in its own transaction, from the lines packages/shared business/sales.ts computes.
 * The journal is append-only (the app role may not update or delete it) and the database checks
 * at commit that each entry balances; this refuses an unbalanced entry earlier, with a message a
 * developer can act on. Every entry is built by code, never typed by a user: a refusal here is a
 * bug (500), not a 4xx.
 */

/** An entry the code built wrong (unbalanced, a line both debit and credit, ...): a bug, answered 500 and logged. */
export class PostingError extends Error {
  readonly statusCode = 500;
  constructor(message: string) {
    super(message);
    this.name = 'PostingError';
  }
}

export interface JournalEntryInput {
  source_kind: JournalEntriesTable['source_kind'];
  source_id: string | null;
  occurred_on: string;
  description: string;
  lines: ReadonlyArray<PostingLine>;
  created_by?: string | null;
}

/** numeric(20, 4): at most 16 digits before the point and 4 after. */
const MAX_AMOUNT = new Decimal('1e16');
const MAX_LINES = 1000;

function amountOf(value: string, what: string): Decimal {
  let amount: Decimal;
  try {
    amount = new Decimal(value);
  } catch {
    throw new PostingError(`posting ${what} "${value}" is not a number`);
  }
  if (!amount.isFinite() || amount.isNeg() || amount.decimalPlaces() > 4 || amount.gte(MAX_AMOUNT))
    throw new PostingError(`posting ${what} "${value}" is not an amount of 0 or more with at most 4 decimals`);
  return amount;
}

/**
 * Writes one journal entry with its lines in the caller's transaction and answers its id.
 * Accounts are named by posting key (the business's account with that `system_key`; the chart
 * is seeded first for a business that has none) or by id (the caller checked it is the
 * business's). Lines of zero are dropped; an entry left with no lines is still recorded (a free
 * sale is an event with nothing to post). Throws a PostingError when debits and credits differ
 * or a line is both, or an amount is no amount.
 */
export async function postEntry(tx: TenantTx, entry: JournalEntryInput): Promise<string> {
  if (entry.lines.length > MAX_LINES) throw new PostingError(`a journal entry of ${entry.lines.length} lines is more than ${MAX_LINES}`);
  let debits = new Decimal(0);
  let credits = new Decimal(0);
  const lines = entry.lines.flatMap((line) => {
    const debit = amountOf(line.debit, 'debit');
    const credit = amountOf(line.credit, 'credit');
    if (!debit.isZero() && !credit.isZero()) throw new PostingError('a posting line is both a debit and a credit');
    debits = debits.plus(debit);
    credits = credits.plus(credit);
    return debit.isZero() && credit.isZero() ? [] : [{ line, debit, credit }];
  });
  if (!debits.eq(credits))
    throw new PostingError(
      `journal entry for ${entry.source_kind} ${entry.source_id ?? ''} does not balance: debits ${debits} credits ${credits}`,
    );

  const keys = lines.flatMap(({ line }) => ('key' in line.account ? [line.account.key] : []));
  const byKey = await accountIdsByKeys(tx, keys);
  const accountOf = (account: PostingLine['account']) => ('key' in account ? (byKey.get(account.key as PostingKey) as string) : account.id);

  const id = newId();
  await tx.trx
    .insertInto('journal_entries')
    .values({
      tenant_id: tx.tenantId,
      id,
      source_kind: entry.source_kind,
      source_id: entry.source_id,
      occurred_on: entry.occurred_on,
      description: entry.description.slice(0, 300) || entry.source_kind,
      created_by: entry.created_by === undefined ? tx.userId : entry.created_by,
    })
    .execute();
  if (lines.length > 0) {
    await tx.trx
      .insertInto('journal_lines')
      .values(
        lines.map(({ line, debit, credit }, index) => ({
          tenant_id: tx.tenantId,
          entry_id: id,
          line: index,
          account_id: accountOf(line.account),
          partner_id: line.partner_id ?? null,
          debit: debit.toFixed(),
          credit: credit.toFixed(),
        })),
      )
      .execute();
  }
  return id;
}
