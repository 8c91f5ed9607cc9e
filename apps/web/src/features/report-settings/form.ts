import {
  ABSENT,
  defaultGradeBands,
  exact,
  explanation,
  type GradingRules,
  gradeOfTotal,
  printedNumber,
  subjectMark,
  subjectTotal,
  toNumber,
} from '@mustard/shared';
import type { z } from 'zod';

/*
 * Pure helpers of the grading rules and report layout forms (kept apart from React so a unit
 * test covers them).
 */

/** A whole number as typed in a NumberInput: an emptied box is no number (the check says so), never 0. */
export const typedCount = (value: string | number): number => (value === '' ? Number.NaN : Number(value));

/** An optional condition as typed: an emptied box is no condition. */
export const typedCondition = (value: string | number): number | undefined => (value === '' ? undefined : Number(value));

/** What a NumberInput shows for a number of the form: nothing for no number. */
export const shown = (value: number | undefined): number | string => (value === undefined || Number.isNaN(value) ? '' : value);

/** The first message for each field (`primary.divisions.1.aggregateAtMost`) of a failed check. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path.map(String).join('.');
    if (!(field in errors)) errors[field] = issue.message;
  }
  return errors;
}

/**
 * The server's 422 fields for the form's document: `rules.primary.divisions.1.aggregateAtMost`
 * becomes `primary.divisions.1.aggregateAtMost` (the first message each); others as they came.
 */
export function serverErrors(errors: Record<string, string[]> | undefined, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, messages] of Object.entries(errors ?? {})) {
    const name = field === prefix ? '' : field.startsWith(`${prefix}.`) ? field.slice(prefix.length + 1) : field;
    const first = messages[0];
    if (first !== undefined && !(name in out)) out[name] = first;
  }
  return out;
}

/** The list with the item at `index` moved one place up (-1) or down (+1); unchanged at an end. */
export function moved<T>(list: readonly T[], index: number, by: -1 | 1): T[] {
  const to = index + by;
  if (index < 0 || index >= list.length || to < 0 || to >= list.length) return [...list];
  const copy = [...list];
  [copy[index], copy[to]] = [copy[to] as T, copy[index] as T];
  return copy;
}

/** `items` with `item` in or out, in the order of `all` (checkbox lists). */
export function toggled<T>(all: readonly T[], items: readonly T[], item: T, on: boolean): T[] {
  return all.filter((candidate) => (candidate === item ? on : items.includes(candidate)));
}

/** The list with its item at `index` replaced by `change(item)`. */
export function replaced<T>(list: readonly T[], index: number, change: (item: T) => T): T[] {
  return list.map((item, at) => (at === index ? change(item) : item));
}

/** The list without its item at `index`. */
export function without<T>(list: readonly T[], index: number): T[] {
  return list.filter((_, at) => at !== index);
}

/** Header lines as the form keeps them (up to `slots`, blanks where nothing is typed). */
export function lineSlots(lines: readonly string[], slots: number): string[] {
  return Array.from({ length: slots }, (_, index) => lines[index] ?? '');
}

/** Header lines to keep: the slots without trailing blanks (a blank between two lines stays until saved). */
export function linesFromSlots(slots: readonly string[]): string[] {
  const lines = [...slots];
  while (lines.length > 0 && (lines.at(-1) ?? '').trim() === '') lines.pop();
  return lines;
}

/** Every section in the form's order: the layout's own first, then the ones it leaves out. */
export function sectionOrder<T>(all: readonly T[], chosen: readonly T[]): T[] {
  return [...chosen, ...all.filter((item) => !chosen.includes(item))];
}

/**
 * The Grading rules screen's worked example of the missed-test rule, computed by the grading
 * engine itself: BOT 20%, MOT 30% (missed), EOT 50%, with BOT 60 and EOT 70, graded by the default
 * bands: re-weighted (12 + 35) / 70 x 100 = 67.14, C4; counted 0: 47, P7; none: no total.
 */
export function missedExample(missed: GradingRules['missed']): { total: number | null; grade: string | null } {
  const total = subjectTotal(
    [
      { markType: 'BOT', value: 60 },
      { markType: 'MOT', value: ABSENT },
      { markType: 'EOT', value: 70 },
    ],
    { BOT: 20, MOT: 30, EOT: 50 },
    missed,
  );
  const grade = gradeOfTotal(total.value.exact, defaultGradeBands()).value.grade;
  return { total: total.value.total === null ? null : printedNumber(total.value.total), grade };
}

/** The marks the rounding rule's examples grade: a half on the C5 edge, and 59.96 below it. */
const ROUNDING_EXAMPLES = [59.5, 59.96];

/**
 * The Grading rules screen's worked examples of the rounding rule, by the engine: each mark as
 * printed and its grade under the default bands (59.5: 59.5 C6 unrounded, 60 C5 whole; 59.96:
 * 59.96 C6 unrounded, 60 C5 to one decimal).
 */
export function roundingExamples(rounding: GradingRules['rounding']): Array<{ mark: number; printed: number; grade: string | null }> {
  return ROUNDING_EXAMPLES.map((mark) => {
    const graded = subjectMark(
      { value: exact(mark), explain: explanation('subjectTotal.single', { markType: 'EOT', total: mark }) },
      rounding,
    );
    return {
      mark,
      printed: printedNumber(toNumber(graded.value) ?? mark),
      grade: gradeOfTotal(graded.value, defaultGradeBands()).value.grade,
    };
  });
}

/**
 * A band list (best first, the last at 0) with a new lowest band at 0 added. The former lowest,
 * when it started at 0, moves halfway up to the band above it (or to `top`), to `step`s, so the
 * list stays best first; when no step fits between them, it stays and the check names it.
 */
export function withLowestBand<T extends { atLeast: number }>(bands: readonly T[], band: T, step: number, top: number): T[] {
  const last = bands.at(-1);
  if (last?.atLeast !== 0) return [...bands, band];
  const above = bands.at(-2)?.atLeast ?? top;
  const halfway = Math.round(above / 2 / step) * step;
  const raised = Math.round(halfway * 1e6) / 1e6;
  const lowest = raised > 0 && raised < above ? { ...last, atLeast: raised } : last;
  return [...bands.slice(0, -1), lowest, band];
}
