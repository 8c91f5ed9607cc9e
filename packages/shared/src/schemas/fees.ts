import { z } from 'zod';
import { TERMS } from '../constants.js';
import { lowerId } from '../endpoints/fields.js';
import { STUDENT_MESSAGES as M } from '../messages.js';
import { typedNumber } from './common.js';

/* Fees (spec §7 "Students"): the journal upload's fields and a learner's statement. */

/** One line of a learner's statement with the balance after it (invoices add, receipts subtract). */
export const StatementLineSchema = z.object({
  id: z.uuid(),
  date: z.string(),
  particulars: z.string(),
  category: z.enum(['invoice', 'receipt']),
  amount: z.number(),
  balance: z.number(),
});
/** Whose statement: the learner's record id. */
export const StatementQuerySchema = z.object({ id: lowerId() });
export const StatementResponseSchema = z.object({ statement: z.array(StatementLineSchema), balance: z.number() });
export type StatementLine = z.infer<typeof StatementLineSchema>;

/** Where a fee journal keeps its amounts unless the upload says otherwise (1-based columns: G and AP). */
export const FEE_JOURNAL_POSITIONS = { invoice: 7, receipt: 42 } as const;

/** The fee journal upload's fields besides the file (spec §3 "Financial upload fields"). */
export const FeeJournalFieldsSchema = z.object({
  term: z.enum(TERMS, { error: M.termRequired }),
  year: typedNumber(z.number({ error: M.yearInvalid }).int(M.yearInvalid).min(2000, M.yearInvalid).max(2100, M.yearInvalid)),
  invoice: typedNumber(
    z
      .number({ error: M.positionInvalid })
      .int(M.positionInvalid)
      .min(1, M.positionInvalid)
      .max(200, M.positionInvalid)
      .default(FEE_JOURNAL_POSITIONS.invoice),
  ),
  receipt: typedNumber(
    z
      .number({ error: M.positionInvalid })
      .int(M.positionInvalid)
      .min(1, M.positionInvalid)
      .max(200, M.positionInvalid)
      .default(FEE_JOURNAL_POSITIONS.receipt),
  ),
});
