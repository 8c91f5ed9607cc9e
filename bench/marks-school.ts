/**
 * The schools the marks benchmarks enter marks in (issue 14): classes of learners, subjects and
 * three mark types (BOT, MOT, EOT, out of 100), written straight into the database in a few
 * multi-row inserts under the school's row-level security, so setting up 200 grids takes a
 * moment. The term is the one marks may be entered in today.
 */
import { currentTerm, defaultTermDates, localDay, type MarkValue, type TERMS } from '@mustard/shared';
import type { Database } from '../apps/server/src/db/connect.js';
import { newId } from '../apps/server/src/db/ids.js';
import { withTenant } from '../apps/server/src/db/tenant.js';
import type { NewStudent } from '../apps/server/src/db/types.js';
import { makeTenant } from '../apps/server/src/test/factories.js';

/** Today's term by the default term dates (a bench school sets none): marks of a later term are refused. */
export function markingTerm(): { term: (typeof TERMS)[number]; year: number } {
  const today = localDay();
  return currentTerm(today, defaultTermDates(Number(today.slice(0, 4))));
}

export interface GridClass {
  form: string;
  stream: string;
  /** Learner ids, in no particular order (the grid orders them by name). */
  learners: string[];
}

export interface GridSchool {
  id: string;
  tenantcode: string;
  subjects: string[];
  marktypes: string[];
  classes: GridClass[];
}

const FIRST = ['Sarah', 'Brian', 'Grace', 'Joseph', 'Mary', 'Isaac', 'Esther', 'Ronald', 'Agnes', 'Moses'];
const LAST = ['Nakato', 'Okello', 'Namubiru', 'Mugisha', 'Achieng', 'Ssebunya', 'Atim', 'Byaruhanga', 'Nansubuga', 'Odongo'];

/** A new school with `subjects` subjects, BOT, MOT and EOT, and `learners` active learners in each class. */
export async function makeGridSchool(
  database: Database,
  fields: { name: string; classes: ReadonlyArray<{ form: string; stream: string }>; learners: number; subjects: number },
): Promise<GridSchool> {
  const school = await makeTenant(database, { name: fields.name });
  return withTenant(database.db, { tenantId: school.id }, async (trx) => {
    const subjects = Array.from({ length: fields.subjects }, (_, i) => ({
      tenant_id: school.id,
      id: newId(),
      name: `Subject ${i + 1}`,
      category: 'general',
      position: i + 1,
    }));
    await trx.insertInto('subjects').values(subjects).execute();
    const marktypes = ['BOT', 'MOT', 'EOT'].map((label, i) => ({
      tenant_id: school.id,
      id: newId(),
      label,
      category: 'exam',
      position: i + 1,
    }));
    await trx.insertInto('mark_types').values(marktypes).execute();
    const classes: GridClass[] = [];
    for (const [c, { form, stream }] of fields.classes.entries()) {
      const rows: NewStudent[] = Array.from({ length: fields.learners }, (_, i) => ({
        tenant_id: school.id,
        id: newId(),
        studentid: `${form}/${stream}/${String(i + 1).padStart(3, '0')}`,
        firstname: FIRST[(i + c) % FIRST.length] as string,
        lastname: LAST[Math.floor(i / FIRST.length) % LAST.length] as string,
        gender: i % 2 ? 'M' : 'F',
        form,
        stream,
        status: 'active',
      }));
      await trx.insertInto('students').values(rows).execute();
      classes.push({ form, stream, learners: rows.map((row) => row.id) });
    }
    return {
      ...school,
      subjects: subjects.map((row) => row.id),
      marktypes: marktypes.map((row) => row.id),
      classes,
    };
  });
}

/** A mark as the marks table stores it: a number, or an absence. */
export function storedMark(row: { mark: string | number | null; absent: boolean }): Exclude<MarkValue, null> {
  return row.absent ? 'ABS' : Number(row.mark);
}
