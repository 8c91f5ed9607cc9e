import { currentTerm, defaultTermDates, localDay, type Term, tenantKindOf, termDatesEndpoint } from '@mustard/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { call } from './api.js';
import { useAuth } from './auth.js';

/**
 * The terms of a year in the selected school (its own dates, else the Ugandan defaults). While
 * `year` is not a year (being typed), nothing is asked and the last year's answer stays.
 */
export function useTermDates(year: number) {
  const { session } = useAuth();
  const valid = Number.isInteger(year) && year >= 2000 && year <= 2100;
  // A business has no terms (the route answers it 404): its lists take the defaults without asking.
  const school = Boolean(session?.tenant) && tenantKindOf(session?.tenant?.category) === 'school';
  return useQuery({
    queryKey: ['termdates', session?.tenant?.id, year],
    queryFn: () => call(termDatesEndpoint, { query: { year } }),
    enabled: school && valid,
    placeholderData: keepPreviousData,
    staleTime: 10 * 60_000,
  });
}

export interface CurrentTerm {
  term: Term;
  year: number;
  /** Whether the school's own dates are still on their way (the defaults stand in meanwhile). */
  pending: boolean;
}

/**
 * Today's term in the selected school, else the next one (issue 10 point 13): the default of
 * every term and year filter and form. Today is the browser's own day.
 */
export function useCurrentTerm(): CurrentTerm {
  const today = localDay();
  const year = Number(today.slice(0, 4));
  const dates = useTermDates(year);
  return { ...currentTerm(today, dates.data?.terms ?? defaultTermDates(year)), pending: dates.isPending && dates.fetchStatus !== 'idle' };
}

/** The current term and year for whichever of `names` a filter bar or form has ('term', 'year'). */
export function calendarDefaults(names: ReadonlyArray<{ name: string }>, current: CurrentTerm): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const { name } of names) if (name === 'term' || name === 'year') values[name] = current[name];
  return values;
}

/**
 * A page's own term and year filter that starts at the school's current term: `start` is called
 * with it once the school's calendar is known (the defaults stand in meanwhile, so a school with
 * its own dates is not left on the Ugandan term), unless the person chose a term or year first;
 * call the returned `chosen` when they do.
 */
export function useTermStart(start: (current: { term: Term; year: number }) => void): { current: CurrentTerm; chosen: () => void } {
  const current = useCurrentTerm();
  const picked = useRef(false);
  const starter = useRef(start);
  starter.current = start;
  const known = !current.pending;
  useEffect(() => {
    if (known && !picked.current) starter.current({ term: current.term, year: current.year });
  }, [known, current.term, current.year]);
  return {
    current,
    chosen: () => {
      picked.current = true;
    },
  };
}
