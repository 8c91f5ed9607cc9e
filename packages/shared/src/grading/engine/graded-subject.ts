import { ABSENT } from '../../marks/cells.js';
import type { SubjectCategory } from './rules.js';

/*
 * A subject as the aggregates see it: its category (which decides whether it counts) and its
 * grade value (D1 1 .. F9 9), or ABS / null when the learner has no mark in it. ABS and null
 * stay apart so that the explanation can say which.
 */
export type GradeValue = number | typeof ABSENT | null;

export interface GradedSubject {
  subject: string;
  category: SubjectCategory | null;
  value: GradeValue;
}

/** Why a subject has no grade value, for the explanation: 'absent' (ABS) or 'missing' (nothing entered). */
export function noMarkReason(value: GradeValue): 'absent' | 'missing' | null {
  if (value === ABSENT) return 'absent';
  if (value === null) return 'missing';
  return null;
}
