import { Decimal } from '@mustard/shared';

/*
 * The sale line entry of the counter and the invoice form (issue 32 point 9), as pure
 * functions: a scan of a product already on the list adds one to its line, a line's amount and
 * the total are exact decimals (never floats), and the change is what the cashier hands back.
 * The server works the figures out again (tax, rounding to the currency) and its answer is
 * what is shown once saved: these are the estimate while typing.
 */

export interface SaleLine {
  product_id: string;
  code: string;
  name: string;
  unit: string;
  /** As typed: exact decimal text. */
  quantity: string;
  /** Tax-inclusive price of one unit, as typed. */
  unit_price: string;
  discount: string;
}

export interface SellableProduct {
  id: string;
  code: string;
  name: string;
  unit: string;
  price: string;
}

/** A typed amount as exact text the server takes: without spaces and thousands commas. */
export function plain(value: string): string {
  return value.trim().replace(/[\s,]/g, '');
}

/** A typed decimal, or null while it is not one. */
export function typed(value: string): Decimal | null {
  const text = plain(value);
  if (!/^-?\d+(\.\d+)?$/.test(text)) return null;
  return new Decimal(text);
}

/** The list after a scan or a pick: the product's line gains 1, or a new line of 1 at its price is added at the end. */
export function addSold(lines: SaleLine[], product: SellableProduct): SaleLine[] {
  const index = lines.findIndex((line) => line.product_id === product.id);
  if (index === -1)
    return [
      ...lines,
      {
        product_id: product.id,
        code: product.code,
        name: product.name,
        unit: product.unit,
        quantity: '1',
        unit_price: new Decimal(product.price).toFixed(),
        discount: '',
      },
    ];
  return lines.map((line, at) => (at === index ? { ...line, quantity: (typed(line.quantity) ?? new Decimal(0)).plus(1).toFixed() } : line));
}

/** A line's amount, tax included: quantity × unit price - discount, rounded to the currency; null while a figure is not a number. */
export function lineAmount(line: Pick<SaleLine, 'quantity' | 'unit_price' | 'discount'>, decimals: number): Decimal | null {
  const quantity = typed(line.quantity);
  const price = typed(line.unit_price);
  const discount = line.discount.trim() === '' ? new Decimal(0) : typed(line.discount);
  if (!quantity || !price || !discount) return null;
  return quantity.times(price).toDecimalPlaces(decimals, Decimal.ROUND_HALF_UP).minus(discount);
}

/** The sum of the lines that have an amount. */
export function saleTotal(lines: ReadonlyArray<Pick<SaleLine, 'quantity' | 'unit_price' | 'discount'>>, decimals: number): Decimal {
  return lines.reduce((sum, line) => sum.plus(lineAmount(line, decimals) ?? 0), new Decimal(0));
}

/** Cash to hand back: tendered less the total, or null while tendered is blank, not a number, or short. */
export function changeDue(tendered: string, total: Decimal): Decimal | null {
  const given = typed(tendered);
  if (!given || given.lt(total)) return null;
  return given.minus(total);
}

/** The lines as the server's contract takes them: blank discount left out. */
export function linesToSend(lines: ReadonlyArray<SaleLine>) {
  return lines.map((line) => ({
    product_id: line.product_id,
    quantity: plain(line.quantity),
    unit_price: plain(line.unit_price),
    ...(line.discount.trim() ? { discount: plain(line.discount) } : {}),
  }));
}
