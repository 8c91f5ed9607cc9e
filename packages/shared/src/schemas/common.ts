import { z } from 'zod';

/** A required text field: trimmed, with `required` when missing or blank. */
export function requiredText(required: string) {
  return z.string({ error: required }).trim().min(1, { error: required, abort: true });
}

/** An optional text field: blank becomes null so the database never stores "" for "unknown". */
export const optionalText = z
  .string()
  .trim()
  .max(500)
  .nullish()
  .transform((value) => (value ? value : null));

export const IdParamsSchema = z.object({ id: z.uuid() });
export type IdParams = z.infer<typeof IdParamsSchema>;

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
  search: z.string().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(1000).default(25),
});
export type ListQuery = z.infer<typeof ListQuerySchema>;
