import { newId } from '../db/ids.js';
import type { TenantTx } from '../db/tenant.js';
import type { Numeric } from '../db/types.js';
import { seedChartOfAccounts } from '../modules/accounts/chart.js';

/*
 * The Ugandan defaults of a business (issue 31 point 2; guide business.md "What each name
 * means"): the reference data a shop needs before its first product, written in the
 * transaction that creates the business (`insertTenantWithRoles`: the tenants screen, the CLI,
 * the sign-up and the demo shop all go through it). All of it is data the business may edit;
 * nothing here is a rule the code relies on. Idempotent: a row already there (the demo seed run
 * again, a business that renamed or deleted nothing) is left as it is.
 */

/** [code, name, symbol, ISO 4217 minor units, rate in UGX]. Rates are a starting point, edited by the business. */
type CurrencySeed = [code: string, name: string, symbol: string, decimals: number, rate: string];

/** UGX first: the default, with no minor unit (Bank of Uganda prices in whole shillings). */
export const DEFAULT_CURRENCIES: ReadonlyArray<CurrencySeed> = [
  ['UGX', 'Uganda Shilling', 'USh', 0, '1'],
  ['USD', 'US Dollar', '$', 2, '3700'],
  ['KES', 'Kenyan Shilling', 'KSh', 2, '28.5'],
  ['TZS', 'Tanzanian Shilling', 'TSh', 2, '1.45'],
  ['RWF', 'Rwandan Franc', 'FRw', 0, '2.7'],
  ['EUR', 'Euro', '€', 2, '4200'],
  ['GBP', 'Pound Sterling', '£', 2, '4900'],
];

/** The VAT codes of the VAT Act (guide: standard 18%, zero-rated, exempt, deemed 18%); prices are tax-inclusive. */
export const DEFAULT_TAXES = [
  { code: 'VAT', name: 'VAT standard 18%', kind: 'standard', rate: '18' },
  { code: 'ZERO', name: 'Zero-rated', kind: 'zero', rate: '0' },
  { code: 'EXEMPT', name: 'Exempt', kind: 'exempt', rate: '0' },
  { code: 'DEEMED', name: 'Deemed VAT 18%', kind: 'deemed', rate: '18' },
] as const;

/** Withholding tax kinds (guide: 6% over UGX 1,000,000 by designated agents, VAT withholding 6%, non-resident 15%). */
export const DEFAULT_WHDUTIES = [
  { code: 'WHT6', name: 'Withholding tax 6%', kind: 'income_tax', rate: '6', threshold: '1000000' },
  { code: 'WHVAT6', name: 'VAT withholding 6%', kind: 'vat', rate: '6', threshold: '0' },
  { code: 'WHT15', name: 'Non-resident withholding 15%', kind: 'non_resident', rate: '15', threshold: '0' },
] as const;

/**
 * Uganda's main commercial banks with their SWIFT (BIC) codes, and the two mobile-money
 * providers a shop is paid through. A bank whose code we are not sure of has none: a wrong
 * SWIFT code on a remittance is worse than a blank one the business fills in.
 */
export const DEFAULT_BANKS: ReadonlyArray<{ name: string; code: string; swift: string | null; kind: 'bank' | 'mobile_money' }> = [
  { name: 'Stanbic Bank Uganda', code: 'STANBIC', swift: 'SBICUGKX', kind: 'bank' },
  { name: 'Centenary Bank', code: 'CENTENARY', swift: 'CERBUGKA', kind: 'bank' },
  { name: 'dfcu Bank', code: 'DFCU', swift: 'DFCUUGKA', kind: 'bank' },
  { name: 'Absa Bank Uganda', code: 'ABSA', swift: 'BARCUGKX', kind: 'bank' },
  { name: 'Standard Chartered Bank Uganda', code: 'SCB', swift: 'SCBLUGKA', kind: 'bank' },
  { name: 'Equity Bank Uganda', code: 'EQUITY', swift: 'EQBLUGKA', kind: 'bank' },
  { name: 'Bank of Africa Uganda', code: 'BOA', swift: 'AFRIUGKA', kind: 'bank' },
  { name: 'Housing Finance Bank', code: 'HFB', swift: 'HFINUGKA', kind: 'bank' },
  { name: 'KCB Bank Uganda', code: 'KCB', swift: 'KCBLUGKA', kind: 'bank' },
  { name: 'Diamond Trust Bank Uganda', code: 'DTB', swift: 'DTKEUGKA', kind: 'bank' },
  { name: 'Bank of Baroda Uganda', code: 'BARODA', swift: 'BARBUGKA', kind: 'bank' },
  { name: 'Citibank Uganda', code: 'CITI', swift: 'CITIUGKA', kind: 'bank' },
  { name: 'Ecobank Uganda', code: 'ECOBANK', swift: 'ECOCUGKA', kind: 'bank' },
  { name: 'NCBA Bank Uganda', code: 'NCBA', swift: 'CBAFUGKA', kind: 'bank' },
  { name: 'I&M Bank Uganda', code: 'IM', swift: 'ORINUGKA', kind: 'bank' },
  { name: 'Tropical Bank', code: 'TROPICAL', swift: 'TROAUGKA', kind: 'bank' },
  { name: 'PostBank Uganda', code: 'POSTBANK', swift: null, kind: 'bank' },
  { name: 'MTN Mobile Money', code: 'MTN', swift: null, kind: 'mobile_money' },
  { name: 'Airtel Money', code: 'AIRTEL', swift: null, kind: 'mobile_money' },
];

/**
 * Exact decimal text for a numeric column with a database default: db/types.ts declares those
 * `Generated<Numeric>`, whose insert type is the column type itself, not the text it takes.
 */
const numeric = (value: string) => value as unknown as Numeric;

export interface BusinessDefaultsSummary {
  currencies: number;
  taxes: number;
  whduties: number;
  banks: number;
}

/**
 * Writes the defaults into the business `tx` is bound to, and its settings row (negative stock
 * refused). Any row that would clash with one already there (same code or name, or a second
 * default currency) is skipped, so a second run changes nothing. Answers what each list holds.
 */
export async function seedBusinessDefaults(tx: TenantTx): Promise<BusinessDefaultsSummary> {
  const tenant_id = tx.tenantId;
  const { trx } = tx;
  await trx
    .insertInto('business_settings')
    .values({ tenant_id, allow_negative_stock: false })
    .onConflict((oc) => oc.doNothing())
    .execute();
  // No conflict target: the partial unique index of the one default currency is skipped too.
  await trx
    .insertInto('currencies')
    .values(
      DEFAULT_CURRENCIES.map(([code, name, symbol, decimals, rate], index) => ({
        tenant_id,
        id: newId(),
        code,
        name,
        symbol,
        decimals,
        rate: numeric(rate),
        is_default: index === 0,
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
  await trx
    .insertInto('taxes')
    .values(DEFAULT_TAXES.map((tax) => ({ ...tax, rate: numeric(tax.rate), tenant_id, id: newId(), inclusive: true })))
    .onConflict((oc) => oc.doNothing())
    .execute();
  await trx
    .insertInto('whduties')
    .values(DEFAULT_WHDUTIES.map((duty) => ({ ...duty, threshold: numeric(duty.threshold), tenant_id, id: newId() })))
    .onConflict((oc) => oc.doNothing())
    .execute();
  await trx
    .insertInto('banks')
    .values(DEFAULT_BANKS.map((bank) => ({ ...bank, tenant_id, id: newId() })))
    .onConflict((oc) => oc.doNothing())
    .execute();
  // The chart of accounts of a Ugandan shop (issue 32): what the automatic postings post to.
  await seedChartOfAccounts(tx);
  const count = async (table: 'currencies' | 'taxes' | 'whduties' | 'banks') =>
    Number(
      (
        await trx
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('tenant_id', '=', tenant_id)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    currencies: await count('currencies'),
    taxes: await count('taxes'),
    whduties: await count('whduties'),
    banks: await count('banks'),
  };
}
