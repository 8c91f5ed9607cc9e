import { z } from 'zod';
import { REPORT_MESSAGES } from '../messages.js';
import { MAX_MARK_TYPES } from '../reports/model.js';
import { text } from '../schemas/common.js';

/*
 * The fields the comment screens' calls share (subject comments, generic skills, report
 * comments): ids in small letters, yes/no flags as a query sends them, the stream, and the
 * mark types a screen shows.
 */

/**
 * An id as stored: in small letters. A client's capitals name the same record, and must take the
 * same locks and find the same rows (else two saves of one comment race past each other).
 */
export const lowerId = (error?: string) => z.uuid(error === undefined ? undefined : { error }).transform((id) => id.toLowerCase());

const blankToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);
export const optionalId = z.preprocess(blankToUndefined, lowerId().optional());

/** A yes/no of a query (`1`, `true`; anything else of the list is no). */
export const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((value) => value === '1' || value === 'true');

/** A stream in a body or query: blank is the whole class (null). */
export const streamField = z
  .preprocess((value) => (typeof value === 'string' && value.trim() === '' ? null : value), text().trim().max(40).nullish())
  .transform((value) => value ?? null);

/** Mark type ids as `marktype_ids[]` (repeated), a list, or one comma-separated text. */
export const markTypeIds = z.preprocess(
  (value) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean)
      : value,
  z
    .array(lowerId(REPORT_MESSAGES.markTypeUnknown), { error: REPORT_MESSAGES.markTypeUnknown })
    .max(MAX_MARK_TYPES, REPORT_MESSAGES.markTypeUnknown)
    .optional(),
);

interface MarkTypeChoice {
  marktype_id?: string;
  marktype_ids?: string[];
  'marktype_ids[]'?: string[];
}

/** The mark types a query names: the one, and both spellings of the list, each once. */
export const shownMarkTypeIds = (query: MarkTypeChoice) => [
  ...new Set([...(query.marktype_ids ?? []), ...(query['marktype_ids[]'] ?? []), ...(query.marktype_id ? [query.marktype_id] : [])]),
];

/** Refuses more mark types than a report shows when a client splits them over the fields. */
export function refineShownMarkTypes(query: MarkTypeChoice, context: z.RefinementCtx) {
  if (shownMarkTypeIds(query).length > MAX_MARK_TYPES)
    context.addIssue({ code: 'custom', path: ['marktype_ids'], message: REPORT_MESSAGES.markTypeUnknown });
}
