import { POSTING_KEYS, SUPERADMIN_ROLE } from '@mustard/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant, withTenantTx } from '../../db/tenant.js';
import { sqlState } from '../../errors.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type TestApp } from '../../test/test-app.js';
import { accountIdByKey } from './accounts.repository.js';
import { CHART_OF_ACCOUNTS } from './chart.js';
import { nextDocumentNumber } from './numbering.js';
import { PostingError, postEntry } from './postings.js';

/*
 * The books' three services every document uses (issue 32 point 5), on both databases: the chart
 * seeded with a business (and lazily for an older one), gap-free numbers under parallel
 * transactions some of which roll back, balanced entries only (refused by postEntry and, for
 * rows inserted directly, by the database at commit), and a journal the app role cannot change.
 */

let t: TestApp;
let shop: { id: string; tenantcode: string };

const inShop = <T>(work: Parameters<typeof withTenantTx<T>>[2], tenantId = shop.id) => withTenantTx(t.database.db, { tenantId }, work);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  t = await buildTestApp();
  shop = await makeTenant(t.database, { tenantcode: `books-${newId().slice(-8)}`, name: 'Kikuubo Books', category: 'Retail' });
  await makeUser(t.database, { memberOf: [{ tenantId: shop.id, roles: [SUPERADMIN_ROLE] }] });
});
afterAll(() => t?.close());

describe('the chart of accounts', () => {
  it('comes with a new business, an account for every posting key', async () => {
    const accounts = await inShop((tx) =>
      tx.trx.selectFrom('accounts').select(['code', 'system_key', 'type']).where('tenant_id', '=', shop.id).execute(),
    );
    expect(accounts.length).toBe(CHART_OF_ACCOUNTS.length);
    const keys = accounts.map((account) => account.system_key);
    for (const key of POSTING_KEYS) expect(keys, key).toContain(key);
  });

  it('is seeded on first use for a business without one, once even when asked twice at once', async () => {
    const older = await makeTenant(t.database, { tenantcode: `old-${newId().slice(-8)}`, category: 'Retail' });
    await inShop((tx) => tx.trx.deleteFrom('accounts').where('tenant_id', '=', older.id).execute(), older.id);
    const [cash, again] = await Promise.all([
      inShop((tx) => accountIdByKey(tx, 'cash'), older.id),
      inShop((tx) => accountIdByKey(tx, 'cash'), older.id),
    ]);
    expect(again).toBe(cash);
    const count = await inShop(
      (tx) =>
        tx.trx
          .selectFrom('accounts')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('tenant_id', '=', older.id)
          .executeTakeFirstOrThrow(),
      older.id,
    );
    expect(Number(count.n)).toBe(CHART_OF_ACCOUNTS.length);
  });
});

describe('document numbers', () => {
  it('runs INV-000001 on without gaps under 10 parallel transactions, the rolled-back ones giving theirs back', async () => {
    const attempt = (index: number) =>
      inShop(async (tx) => {
        const number = await nextDocumentNumber(tx, 'invoice');
        // Hold the number a moment, so the others queue behind this transaction's row lock.
        await sleep(index % 3 === 0 ? 30 : 5);
        if (index % 3 === 0) throw new Error(`rolled back ${number}`);
        return number;
      }).catch((error: Error) => error);
    const outcomes = await Promise.all(Array.from({ length: 10 }, (_, index) => attempt(index)));
    const committed = outcomes.filter((outcome): outcome is string => typeof outcome === 'string').sort();
    expect(committed.length).toBe(6);
    expect(committed).toEqual(['INV-000001', 'INV-000002', 'INV-000003', 'INV-000004', 'INV-000005', 'INV-000006']);
    expect(await inShop((tx) => nextDocumentNumber(tx, 'invoice'))).toBe('INV-000007');
    // Each series counts on its own, per business.
    expect(await inShop((tx) => nextDocumentNumber(tx, 'voucher'))).toBe('PV-000001');
  });
});

describe('journal entries', () => {
  it('posts a balanced entry by posting key and by account id, dropping lines of zero', async () => {
    const bank = await inShop((tx) => accountIdByKey(tx, 'bank'));
    const entryId = await inShop((tx) =>
      postEntry(tx, {
        source_kind: 'opening',
        source_id: null,
        occurred_on: '2026-11-01',
        description: 'Opening balances',
        lines: [
          { account: { key: 'cash' }, debit: '150000', credit: '0' },
          { account: { id: bank }, debit: '2500000.5', credit: '0' },
          { account: { key: 'vat_payable' }, debit: '0', credit: '0' },
          { account: { key: 'equity' }, debit: '0', credit: '2650000.5' },
        ],
      }),
    );
    const lines = await inShop((tx) =>
      tx.trx
        .selectFrom('journal_lines')
        .innerJoin('accounts', (join) =>
          join.onRef('accounts.tenant_id', '=', 'journal_lines.tenant_id').onRef('accounts.id', '=', 'journal_lines.account_id'),
        )
        .select(['journal_lines.line', 'accounts.system_key', 'journal_lines.debit', 'journal_lines.credit'])
        .where('journal_lines.tenant_id', '=', shop.id)
        .where('journal_lines.entry_id', '=', entryId)
        .orderBy('journal_lines.line')
        .execute(),
    );
    expect(lines.map((line) => [line.line, line.system_key, String(Number(line.debit)), String(Number(line.credit))])).toEqual([
      [0, 'cash', '150000', '0'],
      [1, 'bank', '2500000.5', '0'],
      [2, 'equity', '0', '2650000.5'],
    ]);
  });

  it('refuses an unbalanced entry or a line both debit and credit, writing nothing', async () => {
    const before = await entryCount();
    await expect(
      inShop((tx) =>
        postEntry(tx, {
          source_kind: 'manual',
          source_id: null,
          occurred_on: '2026-11-02',
          description: 'Off by one',
          lines: [
            { account: { key: 'cash' }, debit: '1001', credit: '0' },
            { account: { key: 'sales' }, debit: '0', credit: '1000' },
          ],
        }),
      ),
    ).rejects.toBeInstanceOf(PostingError);
    await expect(
      inShop((tx) =>
        postEntry(tx, {
          source_kind: 'manual',
          source_id: null,
          occurred_on: '2026-11-02',
          description: 'Both sides',
          lines: [
            { account: { key: 'cash' }, debit: '10', credit: '10' },
            { account: { key: 'sales' }, debit: '0', credit: '0' },
          ],
        }),
      ),
    ).rejects.toBeInstanceOf(PostingError);
    expect(await entryCount()).toBe(before);
  });

  it('is refused by the database at commit when unbalanced lines are inserted directly', async () => {
    const cash = await inShop((tx) => accountIdByKey(tx, 'cash'));
    const sales = await inShop((tx) => accountIdByKey(tx, 'sales'));
    const before = await entryCount();
    const error = await withTenant(t.database.db, { tenantId: shop.id }, async (trx) => {
      const id = newId();
      await trx
        .insertInto('journal_entries')
        .values({ tenant_id: shop.id, id, source_kind: 'manual', source_id: null, occurred_on: '2026-11-03', description: 'Direct' })
        .execute();
      await trx
        .insertInto('journal_lines')
        .values([
          { tenant_id: shop.id, entry_id: id, line: 0, account_id: cash, debit: '500' as never, credit: '0' as never },
          { tenant_id: shop.id, entry_id: id, line: 1, account_id: sales, debit: '0' as never, credit: '499' as never },
        ])
        .execute();
    }).catch((caught: unknown) => caught);
    expect(sqlState(error), String(error)).toBe('23514');
    expect(await entryCount()).toBe(before);
  });

  it('is append-only: the app role may not update or delete an entry or a line', async () => {
    for (const table of ['journal_entries', 'journal_lines'] as const) {
      for (const change of ['update', 'delete'] as const) {
        const error = await withTenant(t.database.db, { tenantId: shop.id }, async (trx) => {
          if (change === 'update')
            await sql`UPDATE ${sql.table(table)} SET tenant_id = tenant_id WHERE tenant_id = ${shop.id}`.execute(trx);
          else await sql`DELETE FROM ${sql.table(table)} WHERE tenant_id = ${shop.id}`.execute(trx);
        }).catch((caught: unknown) => caught);
        expect(sqlState(error), `${change} ${table}: ${String(error)}`).toBe('42501');
      }
    }
  });
});

async function entryCount(): Promise<number> {
  const row = await inShop((tx) =>
    tx.trx
      .selectFrom('journal_entries')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('tenant_id', '=', shop.id)
      .executeTakeFirstOrThrow(),
  );
  return Number(row.n);
}
