import { z } from 'zod';
import { TERMS } from './constants.js';
import { SETTINGS_MESSAGES as M } from './messages.js';

/*
 * The school's calendar (issue 10 point 13): the first and last day of each term of a year, set
 * by the school, with Ugandan defaults. The current term (else the next one) is the default of
 * every term and year filter, so a bursar uploading fees in November gets Term III, not Term I.
 */

export type Term = (typeof TERMS)[number];

/** One term of a year: its first and last day (YYYY-MM-DD). */
export interface TermDates {
  term: Term;
  starts: string;
  ends: string;
}

/**
 * The Ugandan school year as the Ministry of Education sets it most years: Term I February to
 * April, Term II May to August, Term III September to early December.
 */
export function defaultTermDates(year: number): TermDates[] {
  return [
    { term: 'I', starts: `${year}-02-01`, ends: `${year}-04-30` },
    { term: 'II', starts: `${year}-05-01`, ends: `${year}-08-31` },
    { term: 'III', starts: `${year}-09-01`, ends: `${year}-12-05` },
  ];
}

/**
 * The term a day belongs to, else the next one: in a holiday the coming term is the one being
 * prepared (its fees, its grade sets). After Term III it is Term I of the next year. `day` is
 * YYYY-MM-DD; `terms` are the day's year's terms, in order.
 */
export function currentTerm(day: string, terms: ReadonlyArray<TermDates>): { term: Term; year: number } {
  const year = Number(day.slice(0, 4));
  for (const term of terms) if (day <= term.ends) return { term: term.term, year };
  return { term: 'I', year: year + 1 };
}

/** Today in the browser's or server's own time zone, as YYYY-MM-DD (not UTC: Kampala is UTC+3). */
export function localDay(now: Date = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** YYYY-MM-DD naming a day that exists. */
function isDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
}

const day = z.string({ error: M.termDateInvalid }).trim().refine(isDay, M.termDateInvalid);

/** A school's three terms of one year, as saved (PUT /api/school/termdates). */
export const TermDatesInputSchema = z
  .strictObject({
    year: z.number({ error: M.yearInvalid }).int(M.yearInvalid).min(2000, M.yearInvalid).max(2100, M.yearInvalid),
    terms: z
      .array(z.strictObject({ term: z.enum(TERMS, { error: M.termRequired }), starts: day, ends: day }))
      .length(TERMS.length, M.termDatesOrder),
  })
  .superRefine((input, context) => {
    let previousEnd = '';
    input.terms.forEach((term, index) => {
      if (term.term !== TERMS[index]) context.addIssue({ code: 'custom', message: M.termDatesOrder, path: ['terms', index, 'term'] });
      if (!term.starts.startsWith(`${input.year}-`) || !term.ends.startsWith(`${input.year}-`))
        context.addIssue({ code: 'custom', message: M.termDatesYear, path: ['terms', index, 'starts'] });
      if (term.ends < term.starts || term.starts <= previousEnd)
        context.addIssue({ code: 'custom', message: M.termDatesOrder, path: ['terms', index, 'ends'] });
      previousEnd = term.ends;
    });
  });
export type TermDatesInput = z.infer<typeof TermDatesInputSchema>;

export const TermDatesQuerySchema = z.object({
  year: z.coerce.number({ error: M.yearInvalid }).int(M.yearInvalid).min(2000, M.yearInvalid).max(2100, M.yearInvalid),
});

/** A year's terms; `custom` says whether the school set them or they are the defaults. */
export const TermDatesResponseSchema = z.object({
  year: z.number(),
  custom: z.boolean(),
  terms: z.array(z.object({ term: z.enum(TERMS), starts: z.string(), ends: z.string() })),
});
export type TermDatesResponse = z.infer<typeof TermDatesResponseSchema>;
