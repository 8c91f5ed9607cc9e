import type { HomeSetup } from '@mustard/shared';
import type { ActionContext } from '../../plugins/endpoints.js';
import { dashboardCounts, setupChecklist } from './home.repository.js';

/** Home dashboard: active learners per class, in the school's class order (spec §2 "Home"), and stock locations. */
export async function homeCounts({ tx, school }: ActionContext): Promise<{ students: Record<string, number>; locations: number }> {
  const { rows, locations } = await dashboardCounts(tx);
  const order = school.classes;
  const rank = (form: string) => {
    const index = order.indexOf(form);
    return index === -1 ? order.length : index;
  };
  rows.sort((a, b) => rank(a.form) - rank(b.form) || a.form.localeCompare(b.form));
  return { students: Object.fromEntries(rows.map((row) => [row.form, row.count])), locations };
}

/** What a new school has set up: the home page's checklist (issue 24 point 6). */
export function homeSetup({ tx }: ActionContext): Promise<HomeSetup> {
  return setupChecklist(tx);
}
