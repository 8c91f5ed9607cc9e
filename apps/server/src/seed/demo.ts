import { SUPERADMIN_ROLE, type TenantCreate } from '@mustard/shared';
import { type Kysely, sql } from 'kysely';
import { inBatches } from '../db/batches.js';
import type { Database } from '../db/connect.js';
import { newId } from '../db/ids.js';
import { type Trx, withTenant } from '../db/tenant.js';
import type { DB, NewStudent } from '../db/types.js';
import { hashPassword } from '../modules/auth/password.js';
import { insertTenantWithRoles } from '../modules/tenants/tenants.service.js';
import { seedDemoComments } from './demo-comments.js';
import { seedDemoCurriculum } from './demo-curriculum.js';
import { seedDemoFees } from './demo-fees.js';
import { seedDemoMarks } from './demo-marks.js';
import { BOYS, GIRLS, HOUSES, PLACES, pick, SURNAMES, seededRandom } from './demo-people.js';
import { seedSchoolSettings, seedShopSettings } from './demo-settings.js';
import { seedDemoShop } from './demo-shop.js';
import { ensureCashierRole, sealDemoShopDeviceKey, seedDemoShopSales } from './demo-shop-sales.js';
import { DEMO_STAFF, seedDemoStaff, staffEmail } from './demo-staff.js';

/**
 * The demo: two schools and a shop, an administrator and a teacher, learners in every class,
 * each school's staff with their subjects and classes (demo-staff.ts), the term's marks,
 * attendance and targets (demo-marks.ts), and comments in half the classes (demo-comments.ts).
 * Safe to run again: everything is keyed (tenant codes, emails, student ids) and only what is
 * missing is added, so a second run changes nothing.
 */
export const DEMO_ADMIN_EMAIL = 'admin@mustard.demo';
export const DEMO_TEACHER_EMAIL = 'teacher@mustard.demo';
/** The demo shop's cashier: sells at the counter and prepares vouchers the administrator approves (issue 32). */
export const DEMO_CASHIER_EMAIL = 'cashier@mustard.demo';
/** How the summary names the staff accounts, all alike. */
export const DEMO_STAFF_EMAILS = '<first>.<last>@mustard.demo';

const DEMO_TENANTS: Array<TenantCreate & { prefix?: string; classes?: string[]; streams?: string[] }> = [
  {
    tenantcode: 'demo-primary',
    name: 'Mustard Primary School',
    category: 'School',
    schooltype: 'primary',
    forms: null,
    email: 'office@primary.mustard.demo',
    address: 'Plot 12, Ntinda Road, Kampala',
    web: null,
    phone: '+256 414 000 111',
    tin: null,
    efrist: false,
    country: 'Uganda',
    logo_path: null,
    prefix: 'MPS',
    classes: ['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7'],
    streams: ['East', 'West'],
  },
  {
    tenantcode: 'demo-secondary',
    name: 'Mustard High School',
    category: 'School',
    schooltype: 'secondary',
    forms: null,
    email: 'office@high.mustard.demo',
    address: 'Seeta, Mukono',
    web: null,
    phone: '+256 414 000 222',
    tin: null,
    efrist: false,
    country: 'Uganda',
    logo_path: null,
    prefix: 'MHS',
    classes: ['S1', 'S2', 'S3', 'S4', 'S5', 'S6'],
    streams: ['A', 'B'],
  },
  {
    tenantcode: 'demo-shop',
    name: 'Mustard Stationers',
    category: 'Retail',
    schooltype: 'primary',
    forms: null,
    email: 'sales@shop.mustard.demo',
    address: 'Nasser Road, Kampala',
    web: null,
    phone: '+256 772 000 333',
    tin: '1000123456',
    efrist: true,
    country: 'Uganda',
    logo_path: null,
  },
];

const LEARNERS_PER_STREAM = 40;

export interface DemoSummary {
  tenants: string[];
  accounts: Array<{ email: string; password: string; role: string }>;
}

/** The demo password's hash, computed once per run and only if an account is new: argon2 is slow on purpose. */
function passwordHashOnce(password: string): () => Promise<string> {
  let hash: Promise<string> | undefined;
  return () => {
    hash ??= hashPassword(password);
    return hash;
  };
}

/**
 * A demo account. Never a platform administrator: its password is published, so it may only
 * administer the demo tenants, through their superadmin role (an account seeded by an earlier
 * version is demoted here, and by the 0004 migration). The accounts share one hash of the
 * published password: hashing it anew for each of some twenty staff would slow every first start.
 */
async function ensureUser(db: Kysely<DB>, email: string, name: string, passwordHash: () => Promise<string>): Promise<string> {
  const existing = await db.selectFrom('users').select(['id', 'is_admin']).where(sql`lower(email)`, '=', email).executeTakeFirst();
  if (existing) {
    if (existing.is_admin) await db.updateTable('users').set({ is_admin: false }).where('id', '=', existing.id).execute();
    return existing.id;
  }
  const id = newId();
  await db
    .insertInto('users')
    .values({ id, email, name, password_hash: await passwordHash(), is_admin: false })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const row = await db.selectFrom('users').select('id').where(sql`lower(email)`, '=', email).executeTakeFirstOrThrow();
  return row.id;
}

async function ensureTenant(db: Kysely<DB>, input: TenantCreate): Promise<string> {
  const existing = await db.selectFrom('tenants').select('id').where(sql`lower(tenantcode)`, '=', input.tenantcode).executeTakeFirst();
  if (existing) return existing.id;
  return db.transaction().execute(async (trx) => (await insertTenantWithRoles(trx, input)).row.id);
}

/** Makes the users members of the tenant with the role; three statements however many they are. */
async function ensureMembers(trx: Trx, tenantId: string, userIds: readonly string[], roleName: string): Promise<void> {
  if (userIds.length === 0) return;
  await trx
    .insertInto('memberships')
    .values(userIds.map((user_id) => ({ tenant_id: tenantId, id: newId(), user_id })))
    .onConflict((oc) => oc.columns(['tenant_id', 'user_id']).doNothing())
    .execute();
  const memberships = await trx
    .selectFrom('memberships')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('user_id', 'in', userIds)
    .execute();
  const role = await trx
    .selectFrom('roles')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where(sql`lower(name)`, '=', roleName)
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('membership_roles')
    .values(memberships.map((membership) => ({ tenant_id: tenantId, membership_id: membership.id, role_id: role.id })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** The classes whose cards the demo can e-mail: its leavers' (P7, S4). */
const MAILED_CLASSES = new Set(['P7', 'S4']);
/** The demo's guardians' addresses are on a domain of its own: no message to one can reach anybody. */
export const DEMO_GUARDIAN_DOMAIN = 'guardians.mustard.demo';

/**
 * A guardian's address for most learners of the demo's P7 and S4 (every seventh has none, so the
 * Email option's summary names some learners to fix); none elsewhere.
 */
function demoGuardianEmail(prefix: string, form: string, serial: number): string | null {
  if (!MAILED_CLASSES.has(form) || serial % 7 === 0) return null;
  return `guardian.${prefix.toLowerCase()}${serial}@${DEMO_GUARDIAN_DOMAIN}`;
}

/** Learners for each class and stream; the same ids and names on every run. */
export function demoLearners(tenantId: string, prefix: string, classes: string[], streams: string[], year: number): NewStudent[] {
  const random = seededRandom(prefix.split('').reduce((sum, char) => sum * 31 + char.charCodeAt(0), 7));
  const learners: NewStudent[] = [];
  let serial = 0;
  for (const [classIndex, form] of classes.entries()) {
    for (const stream of streams) {
      for (let i = 0; i < LEARNERS_PER_STREAM; i++) {
        serial += 1;
        const female = random() < 0.5;
        const age = (prefix === 'MPS' ? 6 : 13) + classIndex;
        const month = 1 + Math.floor(random() * 12);
        const day = 1 + Math.floor(random() * 28);
        learners.push({
          tenant_id: tenantId,
          id: newId(),
          studentid: `${prefix}/${String(serial).padStart(4, '0')}`,
          firstname: pick(random, female ? GIRLS : BOYS),
          lastname: pick(random, SURNAMES),
          othername: random() < 0.3 ? pick(random, female ? GIRLS : BOYS) : null,
          gender: female ? 'F' : 'M',
          dob: `${year - age}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
          form,
          stream,
          paymentcode: `${prefix}${String(100000 + serial)}`,
          address: pick(random, PLACES),
          phone: `07${pick(random, ['0', '5', '7', '8'])}${String(Math.floor(random() * 1e7)).padStart(7, '0')}`,
          email: null,
          house: pick(random, HOUSES),
          lin: `U${String(Math.floor(random() * 1e10)).padStart(10, '0')}`,
          // Unique in the school, scattered: 104729 is prime to 900000, so no two serials share one.
          code: String(100000 + ((serial * 104729) % 900000)),
          guardian_email: demoGuardianEmail(prefix, form, serial),
        });
      }
    }
  }
  return learners;
}

/**
 * `secretsKey`: the server's, to seal the demo shop's EFRIS device key with, so the server's
 * worker fiscalises the shop's invoices against its local fake; without it the device has no key.
 */
export async function seedDemo(database: Database, password: string, options: { secretsKey?: Uint8Array } = {}): Promise<DemoSummary> {
  const db = database.db;
  const passwordHash = passwordHashOnce(password);
  const adminId = await ensureUser(db, DEMO_ADMIN_EMAIL, 'Demo Administrator', passwordHash);
  const teacherId = await ensureUser(db, DEMO_TEACHER_EMAIL, 'Demo Teacher', passwordHash);
  const cashierId = await ensureUser(db, DEMO_CASHIER_EMAIL, 'Demo Cashier', passwordHash);
  const year = new Date().getFullYear();
  for (const { prefix, classes, streams, ...tenant } of DEMO_TENANTS) {
    const tenantId = await ensureTenant(db, tenant);
    const roster = DEMO_STAFF[tenant.tenantcode];
    // Accounts are global: made before the tenant's transaction, as the demo teacher's are.
    const staffIds = new Map<string, string>();
    for (const member of roster?.staff ?? []) {
      staffIds.set(member.name, await ensureUser(db, staffEmail(member.name), member.name, passwordHash));
    }
    await withTenant(db, { tenantId, userId: adminId }, async (trx) => {
      await ensureMembers(trx, tenantId, [adminId], SUPERADMIN_ROLE);
      if (tenant.category === 'School') await ensureMembers(trx, tenantId, [teacherId, ...staffIds.values()], 'teacher');
      if (tenant.category === 'School' && classes)
        await seedSchoolSettings(trx, tenantId, { schooltype: tenant.schooltype, classes }, year);
      else {
        await seedShopSettings(trx, tenantId);
        // The shop's catalogue, partners and a month of stock (issue 31 point 8).
        if (tenant.tenantcode === 'demo-shop') {
          await seedDemoShop(trx, tenantId, adminId);
          // Its cashier, and a month of sales, receipts, a credit memo and vouchers (issue 32 point 10).
          await ensureCashierRole(trx, tenantId);
          await ensureMembers(trx, tenantId, [cashierId], 'cashier');
          await seedDemoShopSales(trx, tenantId, { managerId: adminId, cashierId });
          if (options.secretsKey) await sealDemoShopDeviceKey(trx, tenantId, options.secretsKey);
        }
      }
      if (prefix && classes && streams) {
        const learners = demoLearners(tenantId, prefix, classes, streams, year);
        await inBatches(learners, (batch) =>
          trx
            .insertInto('students')
            .values(batch)
            .onConflict((oc) => oc.columns(['tenant_id', 'studentid']).doNothing())
            .execute(),
        );
        await seedDemoFees(trx, tenantId, year);
        if (roster) await seedDemoStaff(trx, tenantId, roster, { classes, streams }, { teacherId, staffIds }, year);
        const marksTerm = await seedDemoMarks(trx, tenantId, { classes }, year);
        // The new curriculum's competencies, scores and projects in S1 to S4 (issue 26 point 7),
        // before the comments: a new-curriculum class's comments follow its competency scores.
        if (tenant.tenantcode === 'demo-secondary') await seedDemoCurriculum(trx, tenantId, { classes }, marksTerm, year);
        await seedDemoComments(trx, tenantId, { classes, schooltype: tenant.schooltype }, marksTerm, year);
      }
    });
  }
  return { tenants: DEMO_TENANTS.map((tenant) => tenant.tenantcode), accounts: demoAccounts(password) };
}

/** The demo's accounts as the start prints them: the two to try first, and one line for the staff. */
export function demoAccounts(password: string): DemoSummary['accounts'] {
  const staffed = DEMO_TENANTS.flatMap((tenant) => DEMO_STAFF[tenant.tenantcode]?.staff.map((member) => member.name) ?? []);
  return [
    { email: DEMO_ADMIN_EMAIL, password, role: 'administrator of the three demo tenants' },
    { email: DEMO_TEACHER_EMAIL, password, role: 'teacher at demo-primary and demo-secondary' },
    { email: DEMO_CASHIER_EMAIL, password, role: 'cashier at demo-shop (counter sales, vouchers to approve)' },
    // One line for the staff: listing every account would bury the two above.
    { email: DEMO_STAFF_EMAILS, password, role: `${staffed.length} teachers at the demo schools, e.g. ${staffEmail(staffed[0] ?? '')}` },
  ];
}

/** True when no tenant exists yet: the first start of a new embedded database. */
export async function databaseIsEmpty(database: Database): Promise<boolean> {
  const row = await database.db.selectFrom('tenants').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  return row.n === 0;
}
