import { afterEach, describe, expect, it } from 'vitest';
import { type BudgetWatch, budgetVerdict, watchBudgets } from './budgets.js';

let watch: BudgetWatch | undefined;
afterEach(() => watch?.stop());

describe('the benchmark budgets', () => {
  it('keeps each printed line that missed its budget, and names them with their numbers at the end', () => {
    const printed: string[] = [];
    const original = console.log;
    console.log = (...args: unknown[]) => void printed.push(args.join(' '));
    try {
      watch = watchBudgets();
      console.log('/login          98 KB  (target <= 120 KB: met)');
      console.log('%s %d KB  (target <= %d KB: %s)', '/dashboard', 276, 250, 'NOT MET');
      console.log('\nsave p95 = 140.2 ms  (target <= 100 ms: NOT MET)');
      watch.stop();
      console.log('after: NOT MET');
    } finally {
      console.log = original;
    }
    // Printed as ever.
    expect(printed).toHaveLength(4);
    expect(watch.missed).toEqual(['/dashboard 276 KB  (target <= 250 KB: NOT MET)', 'save p95 = 140.2 ms  (target <= 100 ms: NOT MET)']);
    expect(budgetVerdict(watch.missed)).toBe(
      [
        '2 budgets were missed (each line: the measurement, its number and its budget):',
        '  /dashboard 276 KB  (target <= 250 KB: NOT MET)',
        '  save p95 = 140.2 ms  (target <= 100 ms: NOT MET)',
      ].join('\n'),
    );
  });

  it('has nothing to say when every budget was met', () => {
    expect(budgetVerdict([])).toBeUndefined();
  });
});
