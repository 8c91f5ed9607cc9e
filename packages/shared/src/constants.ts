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

/**
 * The new curriculum's generic bands on a competency score of 1 to 3 (spec §9): 2.5 to 3
 * Outstanding, 1.5 to 2.49 Moderate, otherwise Basic.
 */
export function genericDescriptor(score: number): 'Outstanding' | 'Moderate' | 'Basic' {
  if (score >= 2.5) return 'Outstanding';
  if (score >= 1.5) return 'Moderate';
  return 'Basic';
}

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
export const AUTO_COMMENT_CATEGORIES = ['general', 'nc skill', 'nc general'] as const;

/** Grade labels of a new grade set (spec §3) and their default bands (guide grading.md). */
export const GRADE_SET_TYPES = ['default', 'lower'] as const;
export type GradeSetType = (typeof GRADE_SET_TYPES)[number];
export const DEFAULT_GRADE_BANDS: Record<GradeSetType, ReadonlyArray<readonly [grade: string, lower: number, upper: number]>> = {
  default: [
    ['D1', 80, 100],
    ['D2', 75, 79],
    ['C3', 70, 74],
    ['C4', 65, 69],
    ['C5', 60, 64],
    ['C6', 55, 59],
    ['P7', 45, 54],
    ['P8', 35, 44],
    ['F9', 0, 34],
  ],
  lower: [
    ['A+', 90, 100],
    ['A', 80, 89],
    ['B+', 70, 79],
    ['B', 60, 69],
    ['C+', 50, 59],
    ['C', 40, 49],
    ['D+', 30, 39],
    ['D', 0, 29],
  ],
};
