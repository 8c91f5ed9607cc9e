import { z } from 'zod';
import { defineEndpoint } from './definition.js';

/*
 * The mail outbox (issue 29 point 1), seen by a platform administrator (users.is_admin): every
 * message Mustard wrote, newest first, with where it stands. Without SMTP_URL (the embedded
 * default) nothing goes out and messages wait here, so the administrator can copy a person's
 * verification or reset link from the text and hand it over. A tenant route like every /api
 * route; anyone but a platform administrator, a school's own administrator included, gets 403.
 */

export const MAIL_STATUSES = ['pending', 'sending', 'sent', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

export const MailOutboxQuerySchema = z.object({
  status: z.enum(MAIL_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(25),
});
export type MailOutboxQuery = z.infer<typeof MailOutboxQuerySchema>;

export const OutboxMessageSchema = z.object({
  id: z.string(),
  to: z.string(),
  template: z.string(),
  locale: z.string(),
  subject: z.string(),
  status: z.enum(MAIL_STATUSES),
  attempts: z.number().int(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  /** When it is next tried (pending), or when a claim runs out (sending). */
  next_attempt_at: z.string(),
  last_error: z.string().nullable(),
  /** The message's text part as sent: its links can be copied from it. */
  text: z.string(),
  /** Names of its attachments (their bytes stay on the server). */
  attachments: z.array(z.string()),
});
export type OutboxMessage = z.infer<typeof OutboxMessageSchema>;

export const MailOutboxResponseSchema = z.object({
  messages: z.array(OutboxMessageSchema),
  totalRecords: z.number().int(),
  /** Whether this server sends (SMTP_URL set); when not, messages stay pending here. */
  sending: z.boolean(),
});
export type MailOutboxResponse = z.infer<typeof MailOutboxResponseSchema>;

/** The outbox, newest first, optionally of one status. */
export const mailOutboxEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/admin/outbox',
  access: 'member',
  query: MailOutboxQuerySchema,
  response: MailOutboxResponseSchema,
});
