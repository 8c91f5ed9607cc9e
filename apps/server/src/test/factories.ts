import { SUPERADMIN_ROLE, type TenantCreate } from '@mustard/shared';
import { rolesOfMember } from '../access/membership.repository.js';
import type { Database } from '../db/connect.js';
import { newId } from '../db/ids.js';
import { withTenant, withTenantTx } from '../db/tenant.js';
import { hashPassword } from '../modules/auth/password.js';
import { addMember, insertTenantWithRoles } from '../modules/tenants/tenants.service.js';
import { rolesByName } from '../modules/users/users.repository.js';
import { TEST_PASSWORD } from './test-app.js';

/** Test data written through the same app role and RLS rules as the product. */

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

export async function makeTenant(
  database: Database,
  fields: { tenantcode?: string; name?: string; category?: string; schooltype?: 'primary' | 'secondary' } = {},
) {
  const tenantcode = fields.tenantcode ?? `school-${unique()}`;
  const { id } = await database.db.transaction().execute(
    async (trx) =>
      (
        await insertTenantWithRoles(trx, {
          tenantcode,
          name: fields.name ?? `School ${tenantcode}`.slice(0, 25),
          category: (fields.category ?? 'School') as TenantCreate['category'],
          schooltype: fields.schooltype ?? 'primary',
          forms: null,
          email: null,
          address: null,
          web: null,
          phone: null,
          tin: null,
          efrist: false,
          country: 'Uganda',
          logo_path: null,
        })
      ).row,
  );
  return { id, tenantcode };
}

const hashes = new Map<string, Promise<string>>();

export async function makeUser(
  database: Database,
  fields: {
    email?: string;
    name?: string;
    password?: string;
    isAdmin?: boolean;
    memberOf?: Array<{ tenantId: string; roles?: string[] }>;
  } = {},
) {
  const id = newId();
  const email = fields.email ?? `user-${unique()}@school.test`;
  const password = fields.password ?? TEST_PASSWORD;
  if (!hashes.has(password)) hashes.set(password, hashPassword(password));
  await database.db
    .insertInto('users')
    .values({
      id,
      email,
      name: fields.name ?? 'Test User',
      password_hash: await (hashes.get(password) as Promise<string>),
      is_admin: fields.isAdmin ?? false,
    })
    .execute();
  for (const membership of fields.memberOf ?? []) await addMembership(database, id, membership);
  return { id, email, password };
}

/** Makes an existing account a member of a school with the named roles. */
export async function addMembership(database: Database, userId: string, membership: { tenantId: string; roles?: string[] }) {
  await withTenantTx(database.db, { tenantId: membership.tenantId, userId }, async (tx) => {
    const names = membership.roles ?? [];
    const roles = await rolesByName(tx, names);
    await addMember(
      tx,
      userId,
      names.map((name) => roles.get(name.toLowerCase()) as string),
    );
  });
}

/** Active learners of a class, enough for counts. */
export async function makeStudents(
  database: Database,
  tenantId: string,
  form: string,
  count: number,
  status: 'active' | 'inactive' = 'active',
) {
  await withTenant(database.db, { tenantId }, async (trx) => {
    await trx
      .insertInto('students')
      .values(
        Array.from({ length: count }, () => ({
          tenant_id: tenantId,
          id: newId(),
          studentid: `S-${unique()}`,
          firstname: 'Test',
          lastname: 'Learner',
          form,
          status,
        })),
      )
      .execute();
  });
}

/** Marks of one learner, as the mark entry writes them (no topic: an ordinary exam mark). */
export async function makeMarks(
  database: Database,
  tenantId: string,
  studentId: string,
  marks: ReadonlyArray<{
    subjectId: string;
    marktypeId: string;
    form: string;
    term: string;
    year: number;
    /** A number, or ABS for an absence. */
    mark: number | 'ABS';
    paper?: string;
    topicId?: string;
  }>,
) {
  await withTenant(database.db, { tenantId }, async (trx) => {
    await trx
      .insertInto('marks')
      .values(
        marks.map((mark) => ({
          tenant_id: tenantId,
          id: newId(),
          student_id: studentId,
          subject_id: mark.subjectId,
          marktype_id: mark.marktypeId,
          form: mark.form,
          stream: null,
          term: mark.term,
          year: mark.year,
          paper: mark.paper ?? 'I',
          mark: mark.mark === 'ABS' ? null : mark.mark,
          absent: mark.mark === 'ABS',
          topic_id: mark.topicId ?? null,
          user_id: null,
        })),
      )
      .execute();
  });
}

/** A member's role names in a tenant, read in that tenant's transaction (under its RLS). */
export async function roleNamesIn(database: Database, tenantId: string, userId: string): Promise<string[]> {
  const roles = await withTenantTx(database.db, { tenantId }, (tx) => rolesOfMember(tx, userId));
  return roles.map((role) => role.name).sort();
}

export { SUPERADMIN_ROLE };
