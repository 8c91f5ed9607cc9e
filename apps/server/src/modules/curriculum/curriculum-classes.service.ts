import { CURRICULUM_MESSAGES, localDay } from '@mustard/shared';
import type { TenantTx } from '../../db/tenant.js';
import { type FieldErrors, invalid } from '../../errors.js';
import { curriculumSettings } from '../settings/class-curricula.service.js';
import { projectOf } from './project-scores.repository.js';
import { keepScoresWithinMaximum } from './project-scores.service.js';
import { lockedTopic, topicHasMarks } from './topics.repository.js';

/*
 * Which class a competency or a project may belong to (issue 26 points 2 and 4; guide
 * new-curriculum.md): only a new-curriculum class, and a competency with scores stays in its
 * class, term and subject. Each a resource's `beforeWrite`: a 422 naming the field, nothing saved.
 */

const sameClass = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The school's current calendar year (a competency has no year: it is reused every year). */
const currentYear = () => Number(localDay().slice(0, 4));

/**
 * A competency is created (or moved) only in a class on the new curriculum this year (422 naming
 * `form`); while marks carry it, its class, term and subject stay as they are (422 naming each
 * one changed; title and remarks stay editable). The competency's row is held while this is
 * checked, as a mark's save needs it, so no score slips in meanwhile.
 */
export async function keepTopicOnNewCurriculum(tx: TenantTx, input: Record<string, unknown>, id: string | null): Promise<void> {
  const form = String(input.form);
  const stored = id === null ? undefined : await lockedTopic(tx, id);
  const errors: FieldErrors = {};
  if (stored && id !== null) {
    const moved: Record<string, boolean> = {
      form: !sameClass(stored.form, form),
      term: stored.term !== input.term,
      subject_id: stored.subject_id !== input.subject_id,
    };
    const changed = Object.keys(moved).filter((field) => moved[field]);
    if (changed.length > 0 && (await topicHasMarks(tx, id)))
      for (const field of changed) errors[field] = [CURRICULUM_MESSAGES.topicHasScores];
  }
  if (!errors.form && (!stored || !sameClass(stored.form, form)) && !(await curriculumSettings(tx, currentYear())).isNew(form))
    errors.form = [CURRICULUM_MESSAGES.oldCurriculumClass];
  if (Object.keys(errors).length > 0) throw invalid(errors);
}

/**
 * A project is created (or moved to another class or year) only in a class on the new
 * curriculum in the project's year (422 naming `form`); and its maximum stays at or above its
 * scores.
 */
export async function keepProjectOnNewCurriculum(tx: TenantTx, input: Record<string, unknown>, id: string | null): Promise<void> {
  const form = String(input.form);
  const year = Number(input.year);
  const stored = id === null ? undefined : await projectOf(tx, id);
  const moved = !stored || !sameClass(stored.form, form) || stored.year !== year;
  if (moved && !(await curriculumSettings(tx, year)).isNew(form)) throw invalid({ form: [CURRICULUM_MESSAGES.oldCurriculumClass] });
  await keepScoresWithinMaximum(tx, input, id);
}
