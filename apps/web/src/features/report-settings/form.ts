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
