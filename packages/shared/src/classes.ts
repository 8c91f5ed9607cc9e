import { DEFAULT_PRIMARY_FORMS, SECONDARY_FORMS } from './constants.js';

/**
 * The classes (forms) a school offers, spec §3: S1..S6 for a secondary school, otherwise the
 * tenant's own comma-separated list, otherwise the default primary list.
 */
export function classOptions(tenant: { schooltype?: string | null; forms?: string | null }): string[] {
  if (tenant.schooltype === 'secondary') return [...SECONDARY_FORMS];
  const own = (tenant.forms ?? '')
    .split(',')
    .map((form) => form.trim())
    .filter((form) => form.length > 0);
  return own.length > 0 ? own : [...DEFAULT_PRIMARY_FORMS];
}

/** How a class or stream is compared: trimmed, spaces collapsed, case ignored ("p 4" is not "P4"). */
const comparable = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The school's own spelling of a class typed any way (`p4`, ` P4 `), or null when the school
 * has no such class: a learner in "S9" is in no class the school teaches.
 */
export function matchClass(options: ReadonlyArray<string>, typed: string): string | null {
  const wanted = comparable(typed);
  return options.find((option) => comparable(option) === wanted) ?? null;
}

/**
 * A stream in one spelling: the spelling the school already uses for it (`east` becomes `East`
 * when a learner is in East), else as typed, trimmed. Blank is no stream.
 */
export function matchStream(existing: ReadonlyArray<string>, typed: string | null | undefined): string | null {
  const trimmed = (typed ?? '').trim().replace(/\s+/g, ' ');
  if (!trimmed) return null;
  const wanted = trimmed.toLowerCase();
  return existing.find((stream) => stream.toLowerCase() === wanted) ?? trimmed;
}
