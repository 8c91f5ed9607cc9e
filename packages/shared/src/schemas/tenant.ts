import { z } from 'zod';
import { DEFAULT_COUNTRY, DEFAULT_SCHOOL_TYPE, SCHOOL_TYPES, TENANT_CATEGORIES, TENANT_NAME_MAX, TENANT_NAME_MIN } from '../constants.js';
import { TENANT_MESSAGES } from '../messages.js';
import { optionalText, requiredText, text } from './common.js';

/** A tenant as the login response and the school switcher see it (spec §3 "Login response"). */
export const TenantSummarySchema = z.object({
  id: z.uuid(),
  tenantcode: z.string(),
  name: z.string(),
  logo_path: z.string().nullable(),
  category: z.string(),
  schooltype: z.enum(SCHOOL_TYPES),
});
export type TenantSummary = z.infer<typeof TenantSummarySchema>;

/** A tenant with the fields of the tenant admin form. */
export const TenantSchema = TenantSummarySchema.extend({
  /** Comma-separated class names; empty means the default class list (see classOptions). */
  forms: z.string().nullable(),
  email: z.string().nullable(),
  address: z.string().nullable(),
  web: z.string().nullable(),
  phone: z.string().nullable(),
  tin: z.string().nullable(),
  /** Whether the business reports invoices to URA's EFRIS (shown as "Efris"). */
  efrist: z.boolean(),
  country: z.string(),
});
export type Tenant = z.infer<typeof TenantSchema>;

const tenantName = requiredText(TENANT_MESSAGES.nameRequired)
  .min(TENANT_NAME_MIN, TENANT_MESSAGES.nameTooShort)
  .max(TENANT_NAME_MAX, TENANT_MESSAGES.nameTooLong);

/** Tenant codes are what users see in the header and URLs: short, lower case, no spaces. */
const tenantcode = requiredText(TENANT_MESSAGES.tenantcodeRequired)
  .max(40, TENANT_MESSAGES.tenantcodeTooLong)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, TENANT_MESSAGES.tenantcodeInvalid)
  .transform((code) => code.toLowerCase());

export const TenantCreateSchema = z.strictObject({
  name: tenantName,
  tenantcode,
  category: z.enum(TENANT_CATEGORIES, { error: TENANT_MESSAGES.categoryRequired }),
  schooltype: z.enum(SCHOOL_TYPES).default(DEFAULT_SCHOOL_TYPE),
  forms: optionalText,
  email: optionalText,
  address: optionalText,
  web: optionalText,
  phone: optionalText,
  tin: optionalText,
  efrist: z.boolean().default(false),
  country: text().trim().min(1).max(80).default(DEFAULT_COUNTRY),
  logo_path: optionalText,
});
export type TenantCreate = z.infer<typeof TenantCreateSchema>;

/** The Ugandan defaults a new school may start with (issue 24): none, a primary or a secondary school's settings. */
export const SCHOOL_DEFAULTS = ['none', 'primary', 'secondary'] as const;
export type SchoolDefaultsChoice = (typeof SCHOOL_DEFAULTS)[number];

/** A new tenant: the form, and for a school the defaults it starts with (none when not said; ignored for a business). */
export const TenantNewSchema = TenantCreateSchema.extend({ defaults: z.enum(SCHOOL_DEFAULTS).nullish() });
export type TenantNew = z.infer<typeof TenantNewSchema>;

/** An update sends the whole form (spec §4 "Forms"); the id comes from the path. */
export const TenantUpdateSchema = TenantCreateSchema;
export type TenantUpdate = z.infer<typeof TenantUpdateSchema>;

export const TenantListResponseSchema = z.object({ tenants: z.array(TenantSchema), totalRecords: z.number() });
export const TenantResponseSchema = z.object({ tenant: TenantSchema });
