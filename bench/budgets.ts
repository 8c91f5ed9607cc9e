import { format } from 'node:util';

/**
 * The benchmark's budgets: each measurement prints its budget on the line of its result, ending
 * "(target <= 250 KB: met)" or "...: NOT MET)". `watchBudgets` keeps every line that misses one,
 * and `budgetVerdict` names them at the end, so `npm run bench` (CI runs it with `--quick`) fails
 * when a budget is missed instead of printing it among a page of results.
 */
export const MISSED = 'NOT MET';

export interface BudgetWatch {
  /** The lines printed so far that missed their budget, as printed. */
  missed: string[];
  /** Stops watching: console.log prints as before. */
  stop(): void;
}

/** Watches what console.log prints for budgets missed (the bench modules print with it). */
export function watchBudgets(): BudgetWatch {
  const missed: string[] = [];
  const print = console.log;
  console.log = (...args: unknown[]) => {
    const text = format(...args);
    for (const line of text.split('\n')) if (line.includes(MISSED)) missed.push(line.trim());
    print(...args);
  };
  return {
    missed,
    stop: () => {
      console.log = print;
    },
  };
}

/** The closing message for the lines that missed their budget, or undefined when every budget was met. */
export function budgetVerdict(missed: readonly string[]): string | undefined {
  if (missed.length === 0) return undefined;
  const budgets = missed.length === 1 ? 'One budget was' : `${missed.length} budgets were`;
  return [`${budgets} missed (each line: the measurement, its number and its budget):`, ...missed.map((line) => `  ${line}`)].join('\n');
}
