import { createHash } from 'node:crypto';
import { BUSINESS_MESSAGES, MAX_MOVEMENT_LINES, STOCK_MESSAGES, StockMovementInputSchema } from '@mustard/shared';
import { AppError, type FieldErrors } from '../../errors.js';
import type { ActionContext } from '../../plugins/endpoints.js';
import { cellText, type Sheet, SPREADSHEET_LIMITS } from '../../resources/spreadsheet.js';
import { recordStockMovement } from '../stock/stock.service.js';
import type { UploadCounts } from './products-upload.js';

/*
 * Opening stock from .xlsx (issue 31 point 1): code (or barcode), quantity, unit cost, into one
 * location on one day. All or nothing: every row is checked (product known, quantity and cost
 * through the ledger's own line schema) before anything is recorded, and the movements are
 * recorded in the request's one transaction, so a refusal by the ledger (a fraction of a whole
 * unit, a cost finer than the currency) rolls all of them back; its `lines.<i>.<field>` errors
 * are answered as `<row>.<field>`. The ledger takes 500 lines a movement: the sheet becomes
 * movements of 500 lines, each with a request id derived from the tenant, location, day, the
 * file's content and the chunk's place, so the same file again records nothing.
 */

export const OPENING_HEADERS = ['Code', 'Quantity', 'Unit cost'] as const;

/** A uuid (version 5's layout) from sha256 of the parts: the same parts, the same id. */
export function derivedId(...parts: string[]): string {
  const bytes = createHash('sha256').update(parts.join('\u0000')).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export async function uploadOpeningStock(
  context: ActionContext,
  sheet: Sheet,
  file: Buffer,
  where: { locationId: string | undefined; occurredOn: string },
): Promise<UploadCounts> {
  const { tx } = context;
  if (!where.locationId) throw new AppError(422, undefined, { location_id: [STOCK_MESSAGES.locationRequired] });
  if (sheet.rows.length > SPREADSHEET_LIMITS.rows) throw new AppError(422, BUSINESS_MESSAGES.sheetTooManyRows);
  const column = (names: string[]) =>
    sheet.header.findIndex((heading) =>
      names.includes(
        String(heading ?? '')
          .trim()
          .toLowerCase(),
      ),
    );
  const codeAt = column(['code']);
  const barcodeAt = column(['barcode']);
  const quantityAt = column(['quantity']);
  const costAt = column(['unit cost', 'cost']);
  const products = await tx.trx.selectFrom('products').select(['id', 'code', 'barcode']).where('tenant_id', '=', tx.tenantId).execute();
  const byCode = new Map(products.map((product) => [product.code.toLowerCase(), product.id]));
  const byBarcode = new Map(products.filter((product) => product.barcode).map((product) => [String(product.barcode), product.id]));
  const errors: FieldErrors = {};
  const add = (row: number, field: string, message: string) => {
    errors[`${row}.${field}`] = [...(errors[`${row}.${field}`] ?? []), message];
  };
  const lines: Array<{ row: number; product_id: string; quantity: string; unit_cost: string }> = [];
  for (const row of sheet.rows) {
    const code = codeAt < 0 ? null : cellText(row.cells[codeAt]);
    const barcode = barcodeAt < 0 ? null : cellText(row.cells[barcodeAt]);
    const quantity = quantityAt < 0 ? null : cellText(row.cells[quantityAt]);
    const cost = costAt < 0 ? null : cellText(row.cells[costAt]);
    if (code === null && barcode === null && quantity === null && cost === null) continue;
    const productId = (code && byCode.get(code.trim().toLowerCase())) || (barcode && byBarcode.get(barcode.trim())) || null;
    if (!productId) {
      add(row.number, code === null && barcode !== null ? 'barcode' : 'code', STOCK_MESSAGES.productUnknown);
      continue;
    }
    lines.push({ row: row.number, product_id: productId, quantity: quantity ?? '', unit_cost: cost ?? '' });
  }
  if (lines.length === 0 && Object.keys(errors).length === 0) throw new AppError(422, BUSINESS_MESSAGES.sheetEmpty);
  const fileHash = createHash('sha256').update(file).digest('hex');
  const movements = [];
  for (let start = 0; start < lines.length; start += MAX_MOVEMENT_LINES) {
    const chunk = lines.slice(start, start + MAX_MOVEMENT_LINES);
    const parsed = StockMovementInputSchema.safeParse({
      request_id: derivedId('openingstock', tx.tenantId, where.locationId, where.occurredOn, fileHash, String(start)),
      kind: 'opening',
      occurred_on: where.occurredOn,
      location_id: where.locationId,
      reference: 'Opening stock upload',
      lines: chunk.map(({ product_id, quantity, unit_cost }) => ({ product_id, quantity, unit_cost })),
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const [first, index, field] = issue.path;
        if (first === 'lines' && typeof index === 'number') add(chunk[index]?.row ?? 0, String(field ?? 'quantity'), issue.message);
        else add(chunk[0]?.row ?? 0, String(first ?? 'row'), issue.message);
      }
    } else movements.push({ chunk, input: parsed.data });
  }
  if (Object.keys(errors).length > 0) throw new AppError(422, BUSINESS_MESSAGES.sheetRowsInvalid, errors);
  const counts: UploadCounts = { created: 0, updated: 0, unchanged: 0 };
  for (const { chunk, input } of movements) {
    try {
      const answer = await recordStockMovement(context, input);
      if (answer.created) counts.created += chunk.length;
      else counts.unchanged += chunk.length;
    } catch (error) {
      if (!(error instanceof AppError) || !error.errors) throw error;
      // The ledger names lines by their place in the movement: answered by the sheet's rows.
      const byRow: FieldErrors = {};
      for (const [key, messages] of Object.entries(error.errors)) {
        const match = /^lines\.(\d+)\.(\w+)$/.exec(key);
        byRow[match ? `${chunk[Number(match[1])]?.row}.${match[2]}` : key] = messages;
      }
      throw new AppError(422, BUSINESS_MESSAGES.sheetRowsInvalid, byRow);
    }
  }
  return counts;
}
