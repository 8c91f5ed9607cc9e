import { z } from 'zod';
import { INPUT_MESSAGES } from '../messages.js';

/**
 * A NUL character, or half of a UTF-16 surrogate pair without its other half. Neither is text:
 * PostgreSQL refuses both (a NUL in any text, a lone surrogate in JSON), and no keyboard types
 * them; they arrive from pasted binary, broken clients or attacks.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL is the point.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when the text can be stored as it is (no NUL, no lone surrogate). */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/** Any text a person may send: refused with a message when it holds what cannot be stored. */
export function text(error?: string) {
  return z.string(error === undefined ? undefined : { error }).refine(isStorableText, INPUT_MESSAGES.textInvalid);
}

const TEXT_ONLY = new WeakSet<z.ZodType>();

/**
 * A field that takes text and nothing else, such as a name (issue 23 item 14). A form's route
 * that also takes JSON reads a number or a flag sent there as text (plugins/multipart.ts), so a
 * learner sent as `{"firstname": true}` was stored as "true": such a field is refused by name
 * instead. Spreadsheet imports are unaffected: their cells reach the schema as text.
 */
export function textOnly<Schema extends z.ZodType>(schema: Schema): Schema {
  TEXT_ONLY.add(schema);
  return schema;
}

/** Whether a field's schema takes text only (see textOnly). */
export function isTextOnly(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && TEXT_ONLY.has(schema as z.ZodType);
}

/**
 * A number a person typed (a form sends text): blank is no number, never 0, and text that is no
 * number ("B") is refused, never read as 0 (`z.coerce.number` turns "" into 0). `number` is the
 * schema of the number itself, with its own messages, bounds and default.
 */
export function typedNumber<Schema extends z.ZodType>(number: Schema) {
  return z.preprocess((value) => {
    if (typeof value !== 'string') return value;
    const trimmed = value.trim();
    return trimmed === '' ? undefined : Number(trimmed);
  }, number);
}

/** A required text field: trimmed, with `required` when missing or blank. */
export function requiredText(required: string) {
  return text(required).trim().min(1, { error: required, abort: true });
}

/** An optional text field: blank becomes null so the database never stores "" for "unknown". */
export const optionalText = text()
  .trim()
  .max(500)
  .nullish()
  .transform((value) => (value ? value : null));

/** The body of every error answer (spec §8); `errors` names the fields of a 422. */
export const ErrorResponseSchema = z.object({
  statusCode: z.number(),
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

export const MessageResponseSchema = z.object({ message: z.string() });

/** The query of every list call: free-text search and paging (page sizes per screen, spec §9). */
export const ListQuerySchema = z.object({
  search: text().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(1000).default(25),
});
export type ListQuery = z.infer<typeof ListQuerySchema>;

/** What an upload reports: rows taken, and each bad row by its number in the sheet and reason. */
export const UploadResultSchema = z.object({
  message: z.string(),
  created: z.number(),
  updated: z.number(),
  unchanged: z.number(),
});
export const UploadRowErrorSchema = z.object({ row: z.number(), field: z.string().nullable(), message: z.string() });
export type UploadRowError = z.infer<typeof UploadRowErrorSchema>;
