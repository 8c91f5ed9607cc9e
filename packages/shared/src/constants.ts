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

/** Enumerations of school settings (spec §3). */
export const SUBJECT_CATEGORIES = ['english', 'general', 'humanity', 'subsidiary', 'mathematics', 'science'] as const;
export const OLEVEL_CATEGORIES = ['language', 'optional', 'humanity', 'science'] as const;
export const MARK_TYPE_CATEGORIES = ['assesment', 'ca', 'exam', 'lower work', 'monthly', 'test', 'weekly'] as const;
export const REMARK_TYPE_CATEGORIES = ['assesment', 'ca', 'exam', 'lower work', 'mid term', 'monthly', 'test', 'weekly'] as const;
export const STATUSES = ['active', 'inactive'] as const;
export const DISPLAY_TYPES = ['list', 'table'] as const;
export const INPUT_TYPES = ['text', 'number'] as const;
/** Spec §9: a class's teacher in charge, or one who shares the class. */
export const CLASS_TEACHER_CATEGORIES = ['primary', 'co-teacher'] as const;
/** Spec §9 (its spelling): which reports a footer prints on. */
export const REPORT_FOOTER_CATEGORIES = ['assesment', 'exam'] as const;
/** A subject is written in one to six papers (spec §9: papers I to VI). */
export const MAX_SUBJECT_PAPERS = 6;
export const AUTO_COMMENT_CATEGORIES = ['general', 'nc skill', 'nc general'] as const;

/** Grade sets and their default bands now live in the grading engine; kept here for old importers. */
export { DEFAULT_GRADE_BANDS, GRADE_SET_TYPES, type GradeSetType } from './grading/bands.js';
export { genericDescriptor } from './grading/descriptors.js';
