import { z } from 'zod';
import { EFRIS_MESSAGES as E } from '../business/messages-sales.js';
import { lowerId } from '../endpoints/fields.js';
import { text } from './common.js';

/*
 * EFRIS, URA's e-invoicing (issue 32 point 7): the business's device, the fiscal outbox, the
 * products registered with URA and the TIN check. The device's private key is write-only: sent
 * to be sealed at rest, never answered back (only whether one is kept).
 */

export const EFRIS_MODES = ['fake', 'live'] as const;
export type EfrisMode = (typeof EFRIS_MODES)[number];
export const EFRIS_OUTBOX_STATUSES = ['pending', 'sending', 'done', 'failed'] as const;
export type EfrisOutboxStatus = (typeof EFRIS_OUTBOX_STATUSES)[number];
export const EFRIS_DOCUMENT_KINDS = ['invoice', 'credit_memo'] as const;

export const tinText = text(E.tinInvalid)
  .trim()
  .regex(/^\d{10}$/, { error: E.tinInvalid });

export const EfrisDeviceSchema = z.object({
  /** Whether the business has a device set up at all (the rest is blank when not). */
  configured: z.boolean(),
  device_no: z.string(),
  tin: z.string(),
  mode: z.enum(EFRIS_MODES),
  url: z.string().nullable(),
  enabled: z.boolean(),
  /** A private key is kept (sealed); the key itself is never answered. */
  has_credentials: z.boolean(),
  /** The business's Efris flag: off, nothing is fiscalised. */
  efris_on: z.boolean(),
  /** This server offers the local simulator (EFRIS_FAKE). */
  fake_available: z.boolean(),
  updated_at: z.string().nullable(),
});
export type EfrisDevice = z.infer<typeof EfrisDeviceSchema>;

const PEM_KEY = /^-----BEGIN (RSA )?PRIVATE KEY-----\r?\n[A-Za-z0-9+/=\r\n]+-----END (RSA )?PRIVATE KEY-----\s*$/;

export const EfrisDeviceInputSchema = z
  .strictObject({
    device_no: text(E.deviceNoInvalid)
      .trim()
      .regex(/^[A-Za-z0-9_-]{1,40}$/, { error: E.deviceNoInvalid }),
    tin: tinText,
    mode: z.enum(EFRIS_MODES),
    url: z.preprocess(
      (value) => (value === '' ? null : value),
      text(E.urlInvalid)
        .trim()
        .max(300, { error: E.urlInvalid })
        .regex(/^https:\/\/[^\s]+$/, { error: E.urlInvalid })
        .nullish()
        .transform((value) => value ?? null),
    ),
    enabled: z.boolean().default(true),
    /** Write-only. Absent or blank keeps the key already kept; a fake device without one gets a new key pair. */
    private_key: z.preprocess(
      (value) => (value === '' ? undefined : value),
      text(E.keyInvalid).max(10_000, { error: E.keyInvalid }).regex(PEM_KEY, { error: E.keyInvalid }).optional(),
    ),
  })
  .superRefine((input, context) => {
    if (input.mode === 'live' && !input.url) context.addIssue({ code: 'custom', path: ['url'], message: E.urlInvalid });
  });
export type EfrisDeviceInput = z.output<typeof EfrisDeviceInputSchema>;

export const EfrisOutboxQuerySchema = z.object({
  status: z.enum(EFRIS_OUTBOX_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(25),
});
export type EfrisOutboxQuery = z.output<typeof EfrisOutboxQuerySchema>;

export const EfrisOutboxRowSchema = z.object({
  id: z.string(),
  document_kind: z.enum(EFRIS_DOCUMENT_KINDS),
  document_id: z.string(),
  /** The document's number (INV-000001, CN-000001): the seller's reference URA knows it by. */
  reference: z.string(),
  interface_code: z.string(),
  status: z.enum(EFRIS_OUTBOX_STATUSES),
  attempts: z.number().int(),
  next_attempt_at: z.string(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  done_at: z.string().nullable(),
  /** The document's own fiscal state: pending, fiscalised (invoice), submitted / approved / rejected (credit note), failed. */
  fiscal_status: z.string(),
  fiscal_fdn: z.string().nullable(),
  fiscal_simulated: z.boolean(),
  /** Requests and answers kept for it. */
  messages: z.number().int(),
});
export type EfrisOutboxRow = z.infer<typeof EfrisOutboxRowSchema>;

export const EfrisOutboxResponseSchema = z.object({ rows: z.array(EfrisOutboxRowSchema), total: z.number().int() });
export type EfrisOutboxResponse = z.infer<typeof EfrisOutboxResponseSchema>;

export const EfrisProductsQuerySchema = z.object({
  q: text().trim().max(100).optional(),
  registered: z.enum(['yes', 'no']).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(50),
});
export type EfrisProductsQuery = z.output<typeof EfrisProductsQuerySchema>;

export const EfrisProductRowSchema = z.object({
  product_id: z.string(),
  code: z.string(),
  name: z.string(),
  kind: z.string(),
  /** The code URA knows the goods by (the product's code), once registered. */
  goods_code: z.string().nullable(),
  registered_at: z.string().nullable(),
  /** Stocked in with URA so far (T131). */
  stocked_quantity: z.string(),
  /** On hand in the business's own stock ledger, every location. */
  on_hand: z.string(),
  last_error: z.string().nullable(),
});
export type EfrisProductRow = z.infer<typeof EfrisProductRowSchema>;

export const EfrisProductsResponseSchema = z.object({ rows: z.array(EfrisProductRowSchema), total: z.number().int() });
export type EfrisProductsResponse = z.infer<typeof EfrisProductsResponseSchema>;

export const EfrisRegisterInputSchema = z.strictObject({
  product_ids: z
    .array(lowerId(E.productUnknown), { error: E.productsRequired })
    .min(1, { error: E.productsRequired })
    .max(50, { error: E.productsRequired }),
  /** Also stock in with URA what the ledger has on hand beyond what URA was told (default yes). */
  stock_in: z.boolean().default(true),
});
export type EfrisRegisterInput = z.output<typeof EfrisRegisterInputSchema>;

export const EfrisRegisterAnswerSchema = z.object({
  registered: z.number().int(),
  stocked: z.number().int(),
  failed: z.array(z.object({ product_id: z.string(), message: z.string() })),
  rows: z.array(EfrisProductRowSchema),
});
export type EfrisRegisterAnswer = z.infer<typeof EfrisRegisterAnswerSchema>;

export const EfrisTinQuerySchema = z.object({ tin: tinText });

export const EfrisTinAnswerSchema = z.object({
  tin: z.string(),
  legal_name: z.string(),
  business_name: z.string(),
  address: z.string(),
  simulated: z.boolean(),
});
export type EfrisTinAnswer = z.infer<typeof EfrisTinAnswerSchema>;

/** One entry of URA's dictionary: its code and what it names. */
const EfrisDictionaryEntrySchema = z.object({ value: z.string(), name: z.string() });

/**
 * URA's time (T101) and the parts of its dictionary (T115) a shop's invoices use: the payment
 * modes, currencies, tax categories and units of measure, as URA codes them.
 */
export const EfrisDictionaryAnswerSchema = z.object({
  ura_time: z.string().nullable(),
  payment_modes: z.array(EfrisDictionaryEntrySchema),
  currencies: z.array(EfrisDictionaryEntrySchema),
  tax_categories: z.array(EfrisDictionaryEntrySchema),
  units: z.array(EfrisDictionaryEntrySchema),
  simulated: z.boolean(),
});
export type EfrisDictionaryAnswer = z.infer<typeof EfrisDictionaryAnswerSchema>;
