import {
  type ClassCurriculaAnswer,
  type ClassCurriculaSave,
  CURRICULUM_MESSAGES,
  curriculumOfClass,
  defaultCurriculum,
  matchClass,
  SETTINGS_MESSAGES,
} from '@mustard/shared';
import { recordAudit } from '../../audit/audit.repository.js';
import { lockInTenant } from '../../db/tenant.js';
import { type FieldErrors, invalid } from '../../errors.js';
import type { ActionContext } from '../../plugins/endpoints.js';
import {
  forgetClassCurriculum,
  storeAllowZero,
  storeClassCurriculum,
  storedAllowZero,
  storedClassCurricula,
} from './class-curricula.repository.js';

export { curriculumSettings } from './class-curricula.repository.js';

/*
 * Which classes are new-curriculum classes in a year (issue 26 point 1; guide new-curriculum.md
 * "Which classes"): a secondary school's S1-S4 by default, no class of a primary school; the
 * school may set any class either way for a year. A choice equal to the default is not kept,
 * so a class follows its default again once set back to it.
 */

/** Every class the school offers with its curriculum in the year and its default, and the rule on 0. */
export async function classCurricula({ tx, school }: ActionContext, year: number): Promise<ClassCurriculaAnswer> {
  const overrides = await storedClassCurricula(tx, year);
  return {
    year,
    allow_zero: await storedAllowZero(tx),
    classes: school.classes.map((form) => ({
      form,
      curriculum: curriculumOfClass({ schooltype: school.type }, form, overrides),
      default: defaultCurriculum(school.type, form),
    })),
  };
}

/**
 * A year's choices and the rule on 0, saved at once: every class named must be one the school
 * offers (422 naming `classes.N.form`, nothing saved), each named once; a primary school has no
 * new-curriculum class (422 naming `classes.N.curriculum`). Two saves at once take turns; the
 * change is audited.
 */
export async function saveClassCurricula(context: ActionContext, input: ClassCurriculaSave): Promise<ClassCurriculaAnswer> {
  const { tx, school } = context;
  const errors: FieldErrors = {};
  const forms: string[] = [];
  input.classes.forEach((entry, index) => {
    const form = matchClass(school.classes, entry.form);
    if (form === null) errors[`classes.${index}.form`] = [SETTINGS_MESSAGES.classUnknown];
    else if (forms.includes(form)) errors[`classes.${index}.form`] = [SETTINGS_MESSAGES.duplicate];
    else if (school.type === 'primary' && entry.curriculum === 'new')
      errors[`classes.${index}.curriculum`] = [CURRICULUM_MESSAGES.primaryNoNew];
    forms.push(form ?? '');
  });
  if (Object.keys(errors).length > 0) throw invalid(errors);

  await lockInTenant(tx, `class-curricula:${input.year}`);
  const before = await classCurricula(context, input.year);
  for (const [index, entry] of input.classes.entries()) {
    const form = forms[index] as string;
    if (entry.curriculum === defaultCurriculum(school.type, form)) await forgetClassCurriculum(tx, input.year, form);
    else await storeClassCurriculum(tx, input.year, form, entry.curriculum);
  }
  if (input.allow_zero !== before.allow_zero) await storeAllowZero(tx, input.allow_zero);
  const after = await classCurricula(context, input.year);
  await recordAudit(tx, { action: 'update', entity: 'class_curricula', entityId: String(input.year), before, after });
  return after;
}
