import { z } from 'zod';
import { PAPERS, TERMS } from '../constants.js';
import { REPORT_MESSAGES, SETTINGS_MESSAGES } from '../messages.js';
import { requiredText, text, typedNumber } from '../schemas/common.js';

/*
 * The fields every contract shares (issue 23 item 5): ids in small letters, yes/no flags as a
 * query sends them, class, stream, term, year, subject and paper, and the mark types a screen
 * shows. One home, so a rule (an id in capitals is the id it names) cannot hold on one route and
 * not on the next: the marks, reports, mark sheet, comments, staff and school resources' contracts
 * all take their fields from here.
 */

/** The most mark types one report, grid or comments screen shows. */
export const MAX_MARK_TYPES = 20;

const blankToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

/**
 * An id as stored: in small letters. PostgreSQL reads a uuid in any case, but the server's own
 * checks compare ids as text (a mark type's maximum, a published lock, a stored cell): a client's
 * capitals must name the same record there too, and take the same locks.
 */
export const lowerId = (error?: string) => z.uuid(error === undefined ? undefined : { error }).transform((id) => id.toLowerCase());
/** A record's id in a route's path (`/:id`). */
export const IdParamsSchema = z.object({ id: lowerId() });
export type IdParams = z.output<typeof IdParamsSchema>;
/** An id that may be left out (blank is none). */
export const optionalId = z.preprocess(blankToUndefined, lowerId().optional());
/** An id that may be none (null or blank), e.g. a grid's competency. */
export const nullableId = z.preprocess((value) => (value === '' ? null : value), lowerId().nullish()).transform((value) => value ?? null);

/**
 * A map keyed by ids (a save's cells by learner, by mark type): each key an id, kept in small
 * letters; two keys that differ only in capitals name one thing and are refused with `repeated`.
 */
export function idKeyed<Value extends z.ZodType>(value: Value, messages: { invalid: string; repeated: string }) {
  return z
    .record(z.string(), value)
    .superRefine((map, context) => {
      const seen = new Set<string>();
      for (const key of Object.keys(map)) {
        if (!z.uuid().safeParse(key).success) context.addIssue({ code: 'custom', path: [key], message: messages.invalid });
        else if (seen.has(key.toLowerCase())) context.addIssue({ code: 'custom', path: [key], message: messages.repeated });
        seen.add(key.toLowerCase());
      }
    })
    .transform(
      (map) => Object.fromEntries(Object.entries(map).map(([key, item]) => [key.toLowerCase(), item])) as Record<string, z.output<Value>>,
    );
}

/** A yes/no of a query (`1`, `true`; anything else of the list is no). */
export const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((value) => value === '1' || value === 'true');

/** A class, required. */
export const form = requiredText(SETTINGS_MESSAGES.classRequired).max(40);
/** A report's class, or none (absent or blank): the whole school's classes (the analysis and statistics of "all classes"). */
export const wholeSchoolOrClass = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
  text().trim().max(40).optional(),
);
/** A class or stream of a list's filter: any, or this one. */
export const classFilter = text().trim().max(40).optional();

/** A stream in a body or query where blank is the whole class (null). */
export const streamField = z
  .preprocess((value) => (typeof value === 'string' && value.trim() === '' ? null : value), text().trim().max(40).nullish())
  .transform((value) => value ?? null);
/** A stream a report's query may leave out (blank: the whole class). */
export const optionalStream = z.preprocess(blankToUndefined, text().trim().max(40).optional());

export const term = z.enum(TERMS, { error: SETTINGS_MESSAGES.termRequired });
export const year = typedNumber(
  z
    .number({ error: SETTINGS_MESSAGES.yearInvalid })
    .int(SETTINGS_MESSAGES.yearInvalid)
    .min(2000, SETTINGS_MESSAGES.yearInvalid)
    .max(2100, SETTINGS_MESSAGES.yearInvalid),
);
/** A term and a year of a query read by a program (the numbers as text). */
export const termQuery = z.enum(TERMS);
export const yearQuery = z.coerce.number().int().min(2000).max(2100);
/** Exact-match filters of class, term and year lists: each optional. */
export const formTermYearFilters = z.object({ form: classFilter, term: termQuery.optional(), year: yearQuery.optional() });

/** The subject a grid, a comments screen or a target is of. */
export const subjectId = lowerId(SETTINGS_MESSAGES.subjectRequired);
/** A subject's paper: blank is the first. */
export const paper = z.preprocess(blankToUndefined, z.enum(PAPERS).default('I'));
/** A paper of a filter: any, or this one. */
export const paperFilter = z.preprocess(blankToUndefined, z.enum(PAPERS).optional());

/** A list sent as `name[]` (repeated), a JSON list, or one comma-separated text. */
const listOf = (value: unknown) =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean)
    : value;

/** Mark type ids a report or a comments screen shows: none (the report type's) up to MAX_MARK_TYPES. */
export const markTypeIds = z.preprocess(
  listOf,
  z
    .array(lowerId(REPORT_MESSAGES.markTypeUnknown), { error: REPORT_MESSAGES.markTypeUnknown })
    .max(MAX_MARK_TYPES, REPORT_MESSAGES.markTypeUnknown)
    .optional(),
);

/** Mark type ids a grid is of: at least one, `tooMany` past MAX_MARK_TYPES. */
export const requiredMarkTypeIds = (messages: { unknown: string; tooMany: string }) =>
  z.preprocess(
    listOf,
    z.array(lowerId(messages.unknown), { error: messages.unknown }).min(1, messages.unknown).max(MAX_MARK_TYPES, messages.tooMany),
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
