import { sql } from 'kysely';
import { inBatches } from '../db/batches.js';
import { newId } from '../db/ids.js';
import type { Trx } from '../db/tenant.js';
import { inTenant } from '../db/tenant-filter.js';
import type { Term } from '../modules/fees/fees.service.js';
import { seededRandom } from './demo-people.js';

/*
 * The demo schools' fee journals (issue 5 point 8): for the current term of the year, every
 * active learner is invoiced the school fees of their class on the term's first Monday, and
 * most have paid: about 60% in full (in one or two receipts), 30% in part, 10% nothing yet.
 * Who paid what is drawn from a generator seeded by the learner's student id, so every run
 * gives the same amounts; receipts are dated between the invoice and today.
 */

/** The term a date falls in: Term I February to April (January counts as I), II May to August, III September to December. */
export function termOf(date: Date): Term {
  const month = date.getMonth() + 1;
  return month <= 4 ? 'I' : month <= 8 ? 'II' : 'III';
}

const TERM_START_MONTH: Record<Term, number> = { I: 2, II: 5, III: 9 };

const iso = (date: Date) => date.toISOString().slice(0, 10);

/** The first Monday of the term's first month (YYYY-MM-DD). */
export function termStart(term: Term, year: number): string {
  const first = new Date(Date.UTC(year, TERM_START_MONTH[term] - 1, 1));
  const offset = (8 - first.getUTCDay()) % 7; // days from the 1st to its first Monday
  return iso(new Date(first.getTime() + offset * 86_400_000));
}

/** A term's school fees in UGX by class. */
export function schoolFees(form: string): number {
  if (/^P[1-3]$/i.test(form)) return 450_000;
  if (/^P[4-7]$/i.test(form)) return 550_000;
  if (/^S[1-4]$/i.test(form)) return 850_000;
  if (/^S[5-6]$/i.test(form)) return 1_100_000;
  return 350_000; // nursery and any other class
}

const addDays = (date: string, days: number) => iso(new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000));
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
/** Schools take round sums: to the nearest 10,000. */
const roundFee = (amount: number) => Math.max(10_000, Math.round(amount / 10_000) * 10_000);

function seedOf(text: string): number {
  let hash = 2166136261;
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return hash >>> 0;
}

/**
 * Writes the demo fee lines of one school (in the caller's tenant transaction). Skipped when
 * the tenant already has statement lines, so seeding again adds nothing. Returns lines written.
 */
export async function seedDemoFees(trx: Trx, tenantId: string, year: number, today = new Date()): Promise<number> {
  const existing = await trx.selectFrom('statement_lines').select(sql<number>`1`.as('one')).$call(inTenant(tenantId)).limit(1).execute();
  if (existing.length > 0) return 0;
  const learners = await trx
    .selectFrom('students')
    .select(['id', 'studentid', 'form'])
    .$call(inTenant(tenantId))
    .where('status', '=', 'active')
    .orderBy('studentid')
    .execute();
  const term = termOf(today);
  const invoiceDate = termStart(term, year);
  const todayIso = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
  // Receipts fall between the invoice and today (on the invoice's day when the term is yet to start).
  const span = Math.max(0, Math.min(daysBetween(invoiceDate, todayIso), 75));
  let receiptNumber = 10_001;
  const lines: Array<{
    tenant_id: string;
    id: string;
    student_id: string;
    journal_id: null;
    date: string;
    particulars: string;
    category: 'invoice' | 'receipt';
    amount: number;
    term: Term;
    year: number;
  }> = [];
  const line = (student_id: string, date: string, particulars: string, category: 'invoice' | 'receipt', amount: number) =>
    lines.push({ tenant_id: tenantId, id: newId(), student_id, journal_id: null, date, particulars, category, amount, term, year });

  for (const learner of learners) {
    const random = seededRandom(seedOf(learner.studentid));
    const fees = schoolFees(learner.form);
    line(learner.id, invoiceDate, `School fees, Term ${term} ${year}`, 'invoice', fees);
    const draw = random();
    const payments: number[] = [];
    if (draw < 0.6) {
      // Paid in full: at once, or in two instalments.
      if (random() < 0.5) payments.push(fees);
      else {
        const first = Math.min(fees - 10_000, roundFee(fees * (0.4 + random() * 0.3)));
        payments.push(first, fees - first);
      }
    } else if (draw < 0.9) {
      payments.push(Math.min(fees - 10_000, roundFee(fees * (0.3 + random() * 0.5))));
    }
    let day = 0;
    for (const amount of payments) {
      day = Math.min(span, day + Math.floor(random() * (span / payments.length + 1)));
      line(learner.id, addDays(invoiceDate, day), `Payment, receipt ${receiptNumber++}`, 'receipt', amount);
    }
  }
  await inBatches(lines, (batch) => trx.insertInto('statement_lines').values(batch).execute());
  return lines.length;
}
