import { z } from 'zod';
import { TERMS } from '../constants.js';
import { SETTINGS_MESSAGES as M } from '../messages.js';
import { requiredText, text, typedNumber } from '../schemas/common.js';

/** The fields many resources share: ids, class, term, year, and names of referenced records. */

export const id = z.uuid();
export const none = z.object({});

/** A whole number from a form (text or number), or null when left empty. */
export const optionalInt = z.preprocess(
  (value) => (value === '' || value === undefined ? null : value),
  typedNumber(z.number({ error: M.numberRequired }).int(M.numberInvalid).min(0, M.numberInvalid).max(100_000, M.numberInvalid).nullable()),
);
export const requiredUuid = (message: string) => z.uuid({ error: message });
export const form = requiredText(M.classRequired).max(40);
export const term = z.enum(TERMS, { error: M.termRequired });
export const year = typedNumber(z.number({ error: M.yearInvalid }).int(M.yearInvalid).min(2000, M.yearInvalid).max(2100, M.yearInvalid));
/** Exact-match filters of class, term and year lists: each optional. */
export const formTermYearFilters = z.object({
  form: text().trim().max(40).optional(),
  term: z.enum(TERMS).optional(),
  year: z.coerce.number().int().min(2000).max(2100).optional(),
});
/** The name of a referenced record, nested as the spec's lists show it (`subject.name`). */
export const named = z.object({ name: z.string() }).nullable();
export const labelled = z.object({ label: z.string() }).nullable();
