import type { MyAssignments, TERMS } from '@mustard/shared';
import type { TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';

/** The school's members by name: the teacher options of every assignment panel. */
export function membersByName(tx: TenantTx) {
  return tx.trx
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.id', 'users.name'])
    .$call(inTenant(tx.tenantId, 'memberships.tenant_id'))
    .orderBy('users.name')
    .orderBy('users.id')
    .execute();
}

/** The member's name if they belong to the school, else undefined. */
export async function memberName(tx: TenantTx, userId: string): Promise<string | undefined> {
  const row = await tx.trx
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select('users.name')
    .$call(inTenant(tx.tenantId, 'memberships.tenant_id'))
    .where('memberships.user_id', '=', userId)
    .executeTakeFirst();
  return row?.name;
}

/** Who is the primary class teacher of a class and stream in a term, besides the record `except`. */
export async function primaryClassTeacher(
  tx: TenantTx,
  which: { form: string; stream: string | null; term: string; year: number },
  except: string | null,
): Promise<string | undefined> {
  let query = tx.trx
    .selectFrom('class_teachers as c')
    .innerJoin('users', 'users.id', 'c.user_id')
    .select('users.name')
    .$call(inTenant(tx.tenantId, 'c.tenant_id'))
    .where('c.category', '=', 'primary')
    .where('c.form', '=', which.form)
    .where((eb) => eb(eb.fn.coalesce(eb.fn('lower', ['c.stream']), eb.val('')), '=', (which.stream ?? '').toLowerCase()))
    .where('c.term', '=', which.term)
    .where('c.year', '=', which.year);
  if (except) query = query.where('c.id', '!=', except);
  return (await query.executeTakeFirst())?.name;
}

/** The signed-in member's subject and class assignments in a term. */
export async function assignmentsOf(
  tx: TenantTx,
  userId: string,
  when: { term: (typeof TERMS)[number]; year: number },
): Promise<Pick<MyAssignments, 'subjects' | 'classes'>> {
  const subjects = await tx.trx
    .selectFrom('subject_teachers as a')
    .leftJoin('subjects as s', (join) => join.onRef('s.tenant_id', '=', 'a.tenant_id').onRef('s.id', '=', 'a.subject_id'))
    .select(['a.subject_id', 's.name as subject_name', 'a.form', 'a.stream', 'a.term', 'a.year'])
    .$call(inTenant(tx.tenantId, 'a.tenant_id'))
    .where('a.user_id', '=', userId)
    .where('a.term', '=', when.term)
    .where('a.year', '=', when.year)
    .orderBy('a.form')
    .orderBy('a.stream')
    .orderBy('s.name')
    .execute();
  const classes = await tx.trx
    .selectFrom('class_teachers as c')
    .select(['c.form', 'c.stream', 'c.term', 'c.year', 'c.category'])
    .$call(inTenant(tx.tenantId, 'c.tenant_id'))
    .where('c.user_id', '=', userId)
    .where('c.term', '=', when.term)
    .where('c.year', '=', when.year)
    .orderBy('c.form')
    .orderBy('c.stream')
    .execute();
  return {
    subjects: subjects.map(({ subject_name, ...row }) => ({
      ...row,
      term: row.term as (typeof TERMS)[number],
      subject: subject_name === null ? null : { name: subject_name },
    })),
    classes: classes.map((row) => ({ ...row, term: row.term as (typeof TERMS)[number] })),
  };
}
