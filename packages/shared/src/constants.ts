/** Business constants of spec §9 and the enumerations of spec §3. */

/** Tenant categories a tenant record may carry (spec §1). */
export const TENANT_CATEGORIES = ['Retail', 'School', 'Hospital', 'Farm', 'Microfinance', 'Services'] as const;
export type TenantCategory = (typeof TENANT_CATEGORIES)[number];
export const DEFAULT_TENANT_CATEGORY: TenantCategory = 'Retail';

export const SCHOOL_TYPES = ['primary', 'secondary'] as const;
export type SchoolType = (typeof SCHOOL_TYPES)[number];
export const DEFAULT_SCHOOL_TYPE: SchoolType = 'primary';
export const DEFAULT_COUNTRY = 'Uganda';

export const TERMS = ['I', 'II', 'III'] as const;
export const PAPERS = ['I', 'II', 'III', 'IV', 'V', 'VI'] as const;

export const DEFAULT_PRIMARY_FORMS = ['Nursery', 'Kinder', 'Pre-primary', 'P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7'];
export const SECONDARY_FORMS = ['S1', 'S2', 'S3', 'S4', 'S5', 'S6'];

/** Tenant name length limits (spec §5, §9). */
export const TENANT_NAME_MIN = 3;
export const TENANT_NAME_MAX = 25;
/** Passwords: at least 8 (spec §5); at most 128 so a hash request stays cheap. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** The languages the product speaks; keys as stored locally (spec §3). */
export const LANGUAGES = ['en', 'sp', 'gr', 'it', 'rs'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The header that names the selected tenant on every /api call (spec §7). */
export const TENANT_HEADER = 'tenantcode';

/** The categories the business registration form offers (spec §1), as stored. */
export const REGISTRATION_CATEGORIES = [
  'retail',
  'farm',
  'hotel',
  'hospital',
  'microfinance',
  'property management',
  'products',
  'restaurant',
  'school',
  'services',
  'stock',
] as const;
export type RegistrationCategory = (typeof REGISTRATION_CATEGORIES)[number];

/** The Coming Soon page counts down to this moment (spec §9). */
export const COMING_SOON_TARGET = '2021-12-31T00:00:00';
