import { SECONDARY_FORMS } from './constants.js';

/*
 * Which classes are new-curriculum classes (issue 26 point 1; guide new-curriculum.md "Which
 * classes"): since 2020 a secondary school's S1-S4 are taught and assessed by competencies, S5-S6
 * keep the old curriculum, and a primary school has none. A school may mark any class either way
 * for a year (an older cohort still finishing the old curriculum); these are the defaults and the
 * rule that decides a class.
 */

export const CURRICULA = ['new', 'old'] as const;
export type Curriculum = (typeof CURRICULA)[number];

/** The lower secondary classes, S1..S4: new curriculum unless the school says otherwise. */
const LOWER_SECONDARY = SECONDARY_FORMS.slice(0, 4).map((form) => form.toLowerCase());

const comparable = (form: string) => form.trim().toLowerCase();

/** A class's curriculum when the school has not chosen: 'new' for a secondary school's S1..S4, else 'old'. */
export function defaultCurriculum(schooltype: string | null | undefined, form: string): Curriculum {
  return schooltype === 'secondary' && LOWER_SECONDARY.includes(comparable(form)) ? 'new' : 'old';
}

/** A class's curriculum in a year: the school's choice for it (class compared ignoring case), else the default. */
export function curriculumOfClass(
  school: { schooltype?: string | null },
  form: string,
  overrides: ReadonlyArray<{ form: string; curriculum: Curriculum }>,
): Curriculum {
  const wanted = comparable(form);
  const chosen = overrides.find((override) => comparable(override.form) === wanted);
  return chosen?.curriculum ?? defaultCurriculum(school.schooltype, form);
}
