import { newId } from '../db/ids.js';
import type { Trx } from '../db/tenant.js';

/*
 * A demo school's settings are the Ugandan defaults every new school may start with
 * (school-defaults.ts, the one copy); the names are kept here for the demo's readers.
 */
export {
  A_LEVEL_COMBINATIONS,
  A_LEVEL_COMMON,
  CLASS_TEACHER_REMARK,
  demoReportBands,
  demoSubjectComments,
  HEAD_TEACHER_REMARK,
  O_LEVEL_CORE,
  O_LEVEL_ELECTIVES,
  offers,
  seedSchoolSettings,
} from './school-defaults.js';

/** A shop's two stock locations. */
export async function seedShopSettings(trx: Trx, tenantId: string): Promise<void> {
  const existing = await trx.selectFrom('locations').select('id').where('tenant_id', '=', tenantId).executeTakeFirst();
  if (existing) return;
  await trx
    .insertInto('locations')
    .values([
      { tenant_id: tenantId, id: newId(), name: 'Main store', code: 'MS' },
      { tenant_id: tenantId, id: newId(), name: 'Shop front', code: 'SF' },
    ])
    .execute();
}
