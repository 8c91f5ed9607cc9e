import { BUSINESS_MESSAGES, products } from '@mustard/shared';
import { newId } from '../../db/ids.js';
import { AppError, type FieldErrors } from '../../errors.js';
import type { ActionContext } from '../../plugins/endpoints.js';
import { cellText, type Sheet, SPREADSHEET_LIMITS } from '../../resources/spreadsheet.js';

/*
 * The product list from .xlsx (issue 31 point 1). The headers are the products resource's
 * exportColumns, so an exported list can be edited and imported back. All or nothing: every row
 * is checked with the resource's own input schema first (group and tax named, turned into ids);
 * any bad row is a 422 naming `<row>.<field>` and nothing is written. Products are matched by
 * code; a row equal to the product on file is counted unchanged and not written, so the same
 * file twice changes nothing.
 */

/** Header text (lower case) to the input field it fills. */
const COLUMNS: ReadonlyMap<string, string> = new Map(
  (products.exportColumns ?? []).map(([key, header]) => [
    header.toLowerCase(),
    key === 'group.name' ? 'group' : key === 'tax.name' ? 'tax' : key,
  ]),
);

/** The header row of the template, in the export's order. */
export const PRODUCT_HEADERS: ReadonlyArray<string> = (products.exportColumns ?? []).map(([, header]) => header);

const COMPARED = [
  'barcode',
  'name',
  'group_id',
  'kind',
  'unit',
  'fractional',
  'price',
  'cost',
  'tax_id',
  'track_stock',
  'reorder_level',
  'active',
  'description',
] as const;

/** Numbers compared as exact decimals written the same way ("1500.00" equals "1500"). */
const sameValue = (a: unknown, b: unknown) => {
  const text = (value: unknown) =>
    value === null || value === undefined
      ? null
      : String(value)
          .replace(/(\.\d*?)0+$/, '$1')
          .replace(/\.$/, '');
  return text(a) === text(b);
};

/** Yes/no columns: the export's Yes/No, TRUE/FALSE (a spreadsheet's own) or 1/0. */
const YES_NO = new Set(['fractional', 'track_stock', 'active']);
function yesNoOf(text: string): boolean | null {
  const value = text.trim().toLowerCase();
  if (['yes', 'y', 'true', '1'].includes(value)) return true;
  if (['no', 'n', 'false', '0'].includes(value)) return false;
  return null;
}

export interface UploadCounts {
  created: number;
  updated: number;
  unchanged: number;
}

export async function uploadProducts({ tx }: ActionContext, sheet: Sheet): Promise<UploadCounts> {
  if (sheet.rows.length > SPREADSHEET_LIMITS.rows) throw new AppError(422, BUSINESS_MESSAGES.sheetTooManyRows);
  const fieldAt = new Map<string, number>();
  sheet.header.forEach((heading, index) => {
    const field = COLUMNS.get(
      String(heading ?? '')
        .trim()
        .toLowerCase(),
    );
    if (field && !fieldAt.has(field)) fieldAt.set(field, index);
  });
  const db = tx.trx;
  const groups = await db.selectFrom('product_groups').select(['id', 'name']).where('tenant_id', '=', tx.tenantId).execute();
  const taxes = await db.selectFrom('taxes').select(['id', 'code', 'name']).where('tenant_id', '=', tx.tenantId).execute();
  const groupByName = new Map(groups.map((group) => [group.name.toLowerCase(), group.id]));
  const taxByName = new Map<string, string>();
  for (const tax of taxes) {
    taxByName.set(tax.code.toLowerCase(), tax.id);
    taxByName.set(tax.name.toLowerCase(), tax.id);
  }
  const errors: FieldErrors = {};
  const add = (row: number, field: string, message: string) => {
    const key = `${row}.${field}`;
    errors[key] = [...(errors[key] ?? []), message];
  };
  const newGroups = new Map<string, string>();
  const parsed: Array<{ row: number; values: Record<string, unknown> }> = [];
  const seenCodes = new Map<string, number>();
  for (const row of sheet.rows) {
    const raw: Record<string, unknown> = {};
    for (const [field, index] of fieldAt) {
      if (field === 'group' || field === 'tax') continue;
      const text = cellText(row.cells[index]);
      if (text !== null) raw[field] = YES_NO.has(field) ? (yesNoOf(text) ?? text) : text;
    }
    if (Object.keys(raw).length === 0 && fieldAt.size > 0 && row.cells.every((cell) => cellText(cell) === null)) continue;
    const groupName = fieldAt.has('group') ? cellText(row.cells[fieldAt.get('group') as number]) : null;
    if (groupName) {
      const key = groupName.trim().toLowerCase();
      let id = groupByName.get(key) ?? newGroups.get(key);
      if (!id) {
        id = newId();
        newGroups.set(key, id);
      }
      raw.group_id = id;
    }
    const taxName = fieldAt.has('tax') ? cellText(row.cells[fieldAt.get('tax') as number]) : null;
    if (taxName) {
      const id = taxByName.get(taxName.trim().toLowerCase());
      if (id) raw.tax_id = id;
      else add(row.number, 'tax', BUSINESS_MESSAGES.taxUnknown);
    }
    const result = products.input.safeParse(raw);
    if (!result.success) {
      for (const issue of result.error.issues) add(row.number, String(issue.path[0] ?? 'row'), issue.message);
      continue;
    }
    const code = result.data.code;
    const earlier = seenCodes.get(code.toLowerCase());
    if (earlier !== undefined) add(row.number, 'code', BUSINESS_MESSAGES.codeRepeated);
    seenCodes.set(code.toLowerCase(), row.number);
    parsed.push({ row: row.number, values: result.data as Record<string, unknown> });
  }
  if (Object.keys(errors).length > 0) throw new AppError(422, BUSINESS_MESSAGES.sheetRowsInvalid, errors);
  if (parsed.length === 0) throw new AppError(422, BUSINESS_MESSAGES.sheetEmpty);

  const existing = await db.selectFrom('products').selectAll().where('tenant_id', '=', tx.tenantId).execute();
  const byCode = new Map(existing.map((product) => [product.code.toLowerCase(), product]));
  const counts: UploadCounts = { created: 0, updated: 0, unchanged: 0 };
  const usedGroups = new Set(parsed.map((entry) => entry.values.group_id));
  const groupRows = [...newGroups].filter(([, id]) => usedGroups.has(id));
  if (groupRows.length > 0) {
    await db
      .insertInto('product_groups')
      .values(
        groupRows.map(([key, id]) => ({
          tenant_id: tx.tenantId,
          id,
          name: originalName(sheet, fieldAt.get('group'), key),
          tax_id: null,
          description: null,
        })),
      )
      .execute();
  }
  for (const { values } of parsed) {
    const current = byCode.get(String(values.code).toLowerCase());
    if (!current) {
      await db
        .insertInto('products')
        .values({ tenant_id: tx.tenantId, id: newId(), ...values } as never)
        .execute();
      counts.created += 1;
    } else if (COMPARED.every((field) => sameValue(current[field], values[field]))) {
      counts.unchanged += 1;
    } else {
      const { code: _code, ...changes } = values;
      await db
        .updateTable('products')
        .set(changes as never)
        .where('tenant_id', '=', tx.tenantId)
        .where('id', '=', current.id)
        .execute();
      counts.updated += 1;
    }
  }
  return counts;
}

/** The group's name as first written in the sheet (new groups keep the writer's capitals). */
function originalName(sheet: Sheet, column: number | undefined, key: string): string {
  for (const row of sheet.rows) {
    const text = column === undefined ? null : cellText(row.cells[column]);
    if (text && text.trim().toLowerCase() === key) return text.trim();
  }
  return key;
}
