import {
  ACCOUNT_MESSAGES as A,
  ACCOUNT_SUBTYPE_TYPE,
  type AccountSubtype,
  Decimal,
  type JournalEntry,
  type JournalQuerySchema,
  type TrialBalance,
  type TrialBalanceQuerySchema,
} from '@mustard/shared';
import type { z } from 'zod';
import type { TenantTx } from '../../db/tenant.js';
import { conflict, type FieldErrors, invalid } from '../../errors.js';
import { rowsToWorkbook, type SheetColumn, timestampedFileName } from '../../resources/excel.js';
import { accountsByIds, hasChart, journalEntries, journalLines, parentOf, trialBalanceRows } from './accounts.repository.js';
import { seedChartOfAccounts } from './chart.js';

/*
 * The chart's rules beyond its form, and the books' two reports (issue 32 point 5): the trial
 * balance, which sums to zero because every entry balances (the database checks each at
 * commit), and the journal.
 */

/** How deep a chain of parent accounts may go: a chart is a few levels, and the walk is bounded. */
const MAX_DEPTH = 10;
/** Journal entries a spreadsheet holds at most. */
const JOURNAL_EXPORT_LIMIT = 5000;

const exact = (value: unknown) => new Decimal(String(value ?? 0)).toFixed();

/**
 * An account as it may be stored (the resource's `beforeWrite`): its kind goes with its type; an
 * account the postings use keeps its type and kind (renaming and renumbering are fine); a parent
 * is another account of the same type, without making a loop; only bank and mobile-money
 * accounts name a bank.
 */
export async function checkAccount(tx: TenantTx, input: Record<string, unknown>, id: string | null): Promise<void> {
  const errors: FieldErrors = {};
  const subtype = input.subtype as AccountSubtype;
  if (ACCOUNT_SUBTYPE_TYPE[subtype] !== input.type) errors.subtype = [A.subtypeMismatch];
  const parentId = input.parent_id as string | null;
  const known = await accountsByIds(tx, [...(id ? [id] : []), ...(parentId ? [parentId] : [])]);
  const self = id ? known.get(id) : undefined;
  if (self?.system_key && (self.type !== input.type || self.subtype !== input.subtype)) errors.type = [A.systemAccountType];
  if (parentId) {
    const parent = known.get(parentId);
    // A parent of another business is not found here; the foreign key would say the same.
    if (!parent || parent.type !== input.type || parentId === id) errors.parent_id = [A.parentInvalid];
    else if (id && (await descendsFrom(tx, parentId, id))) errors.parent_id = [A.parentInvalid];
  }
  if (input.bank_id && !['bank', 'mobile_money'].includes(subtype)) errors.bank_id = [A.bankOnlyForBankAccounts];
  if (Object.keys(errors).length > 0) throw invalid(errors);
}

/** Whether `accountId` is `ancestorId` or lies under it (walking up at most MAX_DEPTH parents). */
async function descendsFrom(tx: TenantTx, accountId: string, ancestorId: string): Promise<boolean> {
  let current: string | null = accountId;
  for (let depth = 0; current && depth < MAX_DEPTH; depth += 1) {
    if (current === ancestorId) return true;
    const row = await parentOf(tx, current);
    current = row?.parent_id ?? null;
  }
  // Deeper than any chart should be: refused as if it were a loop.
  return current !== null;
}

/** An account the postings use is never deleted (the resource's `beforeRemove`); one with postings is refused by its foreign keys. */
export async function checkAccountRemoval(tx: TenantTx, id: string): Promise<void> {
  const account = (await accountsByIds(tx, [id])).get(id);
  if (account?.system_key) throw conflict(A.systemAccountKept);
}

export interface Workbook {
  fileName: string;
  workbook: Buffer;
}

/**
 * Every account's debit and credit totals up to `to` (all entries when none) and its balance
 * (debit less credit). The totals are equal: each entry balances.
 */
export async function trialBalance(
  tx: TenantTx,
  query: z.output<typeof TrialBalanceQuerySchema>,
): Promise<{ answer: TrialBalance } | { file: Workbook }> {
  if (!(await hasChart(tx))) await seedChartOfAccounts(tx);
  const to = query.to ?? null;
  const rows = await trialBalanceRows(tx, to);
  let debits = new Decimal(0);
  let credits = new Decimal(0);
  const answerRows = rows.map((row) => {
    const debit = new Decimal(row.debit ?? 0);
    const credit = new Decimal(row.credit ?? 0);
    debits = debits.plus(debit);
    credits = credits.plus(credit);
    return {
      account_id: row.id,
      code: row.code,
      name: row.name,
      type: row.type,
      subtype: row.subtype,
      debit: debit.toFixed(),
      credit: credit.toFixed(),
      balance: debit.minus(credit).toFixed(),
    };
  });
  const answer: TrialBalance = { to, rows: answerRows, totals: { debit: debits.toFixed(), credit: credits.toFixed() } };
  if (!query.excel) return { answer };
  const columns: SheetColumn[] = [
    { header: 'Code', value: (r) => r.code },
    { header: 'Account', value: (r) => r.name },
    { header: 'Type', value: (r) => r.type },
    { header: 'Debit', value: (r) => Number(r.debit) },
    { header: 'Credit', value: (r) => Number(r.credit) },
    { header: 'Balance', value: (r) => Number(r.balance) },
  ];
  const totalRow = { code: '', name: 'Total', type: '', debit: answer.totals.debit, credit: answer.totals.credit, balance: '0' };
  return {
    file: {
      fileName: timestampedFileName('mustard'),
      workbook: await rowsToWorkbook('Trial balance', columns, [...answerRows, totalRow]),
    },
  };
}

/** The journal: entries newest first with their lines, filtered and paged (`excel=1`: one row a line). */
export async function journal(
  tx: TenantTx,
  query: z.output<typeof JournalQuerySchema>,
): Promise<{ answer: { entries: JournalEntry[]; totalRecords: number } } | { file: Workbook }> {
  if (query.from && query.to && query.from > query.to) throw invalid({ from: [A.periodInvalid] });
  const limit = query.excel ? JOURNAL_EXPORT_LIMIT : query.per_page;
  const offset = query.excel ? 0 : (query.page - 1) * query.per_page;
  const { total, entries } = await journalEntries(tx, query, limit, offset);
  const lines = await journalLines(
    tx,
    entries.map((entry) => entry.id),
  );
  const byEntry = new Map<string, JournalEntry['lines']>();
  for (const line of lines) {
    const list = byEntry.get(line.entry_id) ?? [];
    list.push({
      line: line.line,
      account_id: line.account_id,
      account: { code: line.code, name: line.name },
      partner_id: line.partner_id,
      partner: line.partner_name === null ? null : { name: line.partner_name },
      debit: exact(line.debit),
      credit: exact(line.credit),
    });
    byEntry.set(line.entry_id, list);
  }
  const answered: JournalEntry[] = entries.map((entry) => ({
    id: entry.id,
    occurred_on: String(entry.occurred_on),
    source_kind: entry.source_kind,
    source_id: entry.source_id,
    description: entry.description,
    created_at: entry.created_at instanceof Date ? entry.created_at.toISOString() : String(entry.created_at),
    created_by: entry.created_by_name === null ? null : { name: entry.created_by_name },
    lines: byEntry.get(entry.id) ?? [],
  }));
  if (!query.excel) return { answer: { entries: answered, totalRecords: total } };
  const flat = answered.flatMap((entry) =>
    entry.lines.map((line) => ({
      occurred_on: entry.occurred_on,
      source_kind: entry.source_kind,
      description: entry.description,
      code: line.account.code,
      account: line.account.name,
      partner: line.partner?.name ?? '',
      debit: line.debit,
      credit: line.credit,
    })),
  );
  const columns: SheetColumn[] = [
    { header: 'Date', value: (r) => r.occurred_on },
    { header: 'Source', value: (r) => r.source_kind },
    { header: 'Description', value: (r) => r.description },
    { header: 'Code', value: (r) => r.code },
    { header: 'Account', value: (r) => r.account },
    { header: 'Partner', value: (r) => r.partner },
    { header: 'Debit', value: (r) => Number(r.debit) },
    { header: 'Credit', value: (r) => Number(r.credit) },
  ];
  return { file: { fileName: timestampedFileName('mustard'), workbook: await rowsToWorkbook('Journal', columns, flat) } };
}
