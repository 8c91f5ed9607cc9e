import { Decimal } from '@mustard/shared';

/*
 * The line entry of receive, adjust and transfer (issue 31 point 5), as pure functions: a scan
 * of a product already on the list adds one to its line rather than a second line, and the
 * totals are exact decimals (never floats), so 0.1 + 0.2 units at 1,000.5 is what a clerk sums.
 */

export interface EntryLine {
  product_id: string;
  code: string;
  name: string;
  unit: string;
  /** As typed: exact decimal text. */
  quantity: string;
  unit_cost: string;
}

export interface ScannedProduct {
  id: string;
  code: string;
  name: string;
  unit: string;
  avg_cost: string;
}

/** Whether a typed value is a decimal a line can count with. */
function exact(value: string): Decimal | null {
  try {
    const number = new Decimal(value.trim().replaceAll(',', ''));
    return number.isFinite() ? number : null;
  } catch {
    return null;
  }
}

/** The list after a scan or a typed code: the product's line gains 1, or a new line of 1 is added at the end. */
export function addScanned(lines: EntryLine[], product: ScannedProduct): EntryLine[] {
  const index = lines.findIndex((line) => line.product_id === product.id);
  if (index === -1)
    return [
      ...lines,
      { product_id: product.id, code: product.code, name: product.name, unit: product.unit, quantity: '1', unit_cost: product.avg_cost },
    ];
  return lines.map((line, at) =>
    at === index ? { ...line, quantity: (exact(line.quantity) ?? new Decimal(0)).plus(1).toString() } : line,
  );
}

/** A line's total (quantity × unit cost), or null while either is not a number. */
export function lineTotal(line: Pick<EntryLine, 'quantity' | 'unit_cost'>): Decimal | null {
  const quantity = exact(line.quantity);
  const cost = exact(line.unit_cost);
  return quantity && cost ? quantity.times(cost) : null;
}

/** The sum of the lines that have a total. */
export function grandTotal(lines: Array<Pick<EntryLine, 'quantity' | 'unit_cost'>>): Decimal {
  return lines.reduce((sum, line) => sum.plus(lineTotal(line) ?? 0), new Decimal(0));
}

/** A typed amount as the server takes it: without thousands commas. */
export function plain(value: string): string {
  return value.trim().replaceAll(',', '');
}
