import { MARK_MESSAGES } from '../messages.js';
import { checkMark } from './cells.js';

/*
 * A class's one value per learner for a term (issue 14 points 6 and 7): the days a learner
 * attended out of the term's total, and the mark a learner aims at in a subject. The attendance
 * and targets pages, their spreadsheet uploads and their save routes all read a typed value
 * through these rules; an empty value clears what was stored.
 */

/** The most days a term can have: a school's whole year, to a leap day. */
export const MAX_TOTAL_DAYS = 366;
/** The highest target: targets are percentages, whatever a mark type's maximum. */
export const MAX_TARGET = 100;

export type LearnerValueError = (typeof MARK_MESSAGES)[keyof typeof MARK_MESSAGES];
export type ReadLearnerValue = { ok: true; value: number | null } | { ok: false; error: LearnerValueError };

/** A value as sent or read from a cell: a number, its text (a comma for the decimal point is read too), or nothing. */
function numberOf(value: unknown): number | null | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return undefined;
  const typed = value.trim();
  if (typed === '') return null;
  return /^[+-]?\d+(?:[.,]\d*)?$/.test(typed) ? Number(typed.replace(',', '.')) : undefined;
}

/** The term's total days: a whole number from 1 to 366. */
export function readTotalDays(value: unknown): ReadLearnerValue {
  const days = numberOf(value);
  if (days === null || days === undefined || !Number.isInteger(days) || days < 1 || days > MAX_TOTAL_DAYS)
    return { ok: false, error: MARK_MESSAGES.totalDaysInvalid };
  return { ok: true, value: days };
}

/** Days a learner attended: a whole number from 0 to the term's total days, or nothing. */
export function readDaysAttended(value: unknown, totalDays: number): ReadLearnerValue {
  const days = numberOf(value);
  if (days === null) return { ok: true, value: null };
  if (days === undefined || !Number.isInteger(days) || days < 0) return { ok: false, error: MARK_MESSAGES.daysInvalid };
  if (days > totalDays) return { ok: false, error: MARK_MESSAGES.daysAboveTotal };
  return { ok: true, value: days };
}

/** A learner's target: a mark from 0 to 100 with at most one decimal, or nothing. */
export function readTarget(value: unknown): ReadLearnerValue {
  const target = numberOf(value);
  if (target === null) return { ok: true, value: null };
  if (target === undefined) return { ok: false, error: MARK_MESSAGES.targetInvalid };
  const read = checkMark(target, MAX_TARGET);
  return read.ok ? { ok: true, value: read.value as number } : { ok: false, error: MARK_MESSAGES.targetInvalid };
}
