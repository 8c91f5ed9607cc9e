import { z } from 'zod';
import { lowerId } from '../endpoints/fields.js';
import { SETTINGS_MESSAGES as M } from '../messages.js';
import { typedNumber } from '../schemas/common.js';

/**
 * What resources alone share: a record's id, no input, whole numbers of a form, and the names of
 * referenced records. Class, term, year and ids a school sends come from endpoints/fields.ts,
 * the one home of the fields every contract shares.
 */
export { form, formTermYearFilters, term, year } from '../endpoints/fields.js';

export const id = z.uuid();
export const none = z.object({});

/** A whole number from a form (text or number), or null when left empty. */
export const optionalInt = z.preprocess(
  (value) => (value === '' || value === undefined ? null : value),
  typedNumber(z.number({ error: M.numberRequired }).int(M.numberInvalid).min(0, M.numberInvalid).max(100_000, M.numberInvalid).nullable()),
);
/** A referenced record's id, required: in small letters, as stored. */
export const requiredUuid = (message: string) => lowerId(message);
/** The name of a referenced record, nested as the spec's lists show it (`subject.name`). */
export const named = z.object({ name: z.string() }).nullable();
export const labelled = z.object({ label: z.string() }).nullable();
