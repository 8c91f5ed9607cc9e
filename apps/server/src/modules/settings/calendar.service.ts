import { defaultTermDates, type TermDatesInput, type TermDatesResponse } from '@mustard/shared';
import { recordAudit } from '../../audit/audit.repository.js';
import { lockInTenant } from '../../db/tenant.js';
import type { ActionContext } from '../../plugins/endpoints.js';
import { replaceTermDates, storedTermDates } from './calendar.repository.js';

/** A year's terms as the school set them, else the Ugandan defaults. */
export async function termDates({ tx }: ActionContext, year: number): Promise<TermDatesResponse> {
  const rows = await storedTermDates(tx, year);
  return rows.length > 0 ? { year, custom: true, terms: rows } : { year, custom: false, terms: defaultTermDates(year) };
}

/** A year's three terms saved at once; two saves of one year at once: the second waits and replaces the first, never a mix. */
export async function saveTermDates(context: ActionContext, { year, terms }: TermDatesInput): Promise<TermDatesResponse> {
  await lockInTenant(context.tx, `term-dates:${year}`);
  const before = await termDates(context, year);
  await replaceTermDates(context.tx, year, terms);
  const after = await termDates(context, year);
  await recordAudit(context.tx, { action: 'update', entity: 'term_dates', entityId: String(year), before, after });
  return after;
}
