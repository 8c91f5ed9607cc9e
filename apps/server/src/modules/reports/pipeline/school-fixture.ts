import { defaultGradeBands } from '@mustard/shared';
import type { KyselyPlugin } from 'kysely';
import type { Database } from '../../../db/connect.js';
import { newId } from '../../../db/ids.js';
import { type TenantTx, withTenant } from '../../../db/tenant.js';
import { makeTenant } from '../../../test/factories.js';

/*
 * A school with a term's marks in many classes, written in a few multi-row inserts under its
 * row-level security: for the loader's tests and its benchmark (a whole school's term). Each
 * class has two streams, learners with BOT (out of 50) and EOT marks in every subject, the
 * default grade bands and 30/70 proportions; S5 and S6 write two papers.
 */

export interface MarkedSchool {
  id: string;
  tenantcode: string;
  classes: string[];
  term: 'I';
  year: number;
}

const NAMES = ['Sarah', 'Brian', 'Grace', 'Joseph', 'Mary', 'Isaac', 'Esther', 'Ronald', 'Agnes', 'Moses'];

/** A new school with `learners` learners in each of `classes`, `subjects` subjects, BOT and EOT marks of term I. */
export async function makeMarkedSchool(
  database: Database,
  fields: { name: string; classes: readonly string[]; learners: number; subjects: number; year?: number },
): Promise<MarkedSchool> {
  const year = fields.year ?? 2026;
  const school = await makeTenant(database, { name: fields.name, schooltype: 'secondary' });
  await withTenant(database.db, { tenantId: school.id }, async (trx) => {
    const subjects = Array.from({ length: fields.subjects }, (_, i) => ({
      tenant_id: school.id,
      id: newId(),
      name: `Subject ${i + 1}`,
      category: 'general',
      position: i + 1,
    }));
    await trx.insertInto('subjects').values(subjects).execute();
    const types = [
      { label: 'BOT', outof: 50 },
      { label: 'EOT', outof: 100 },
    ].map((type, i) => ({ tenant_id: school.id, id: newId(), category: 'exam', position: i + 1, ...type }));
    await trx.insertInto('mark_types').values(types).execute();
    for (const [c, form] of fields.classes.entries()) {
      const papers = form === 'S5' || form === 'S6' ? ['I', 'II'] : ['I'];
      const learners = Array.from({ length: fields.learners }, (_, i) => ({
        tenant_id: school.id,
        id: newId(),
        studentid: `${form}/${String(i + 1).padStart(4, '0')}`,
        firstname: NAMES[(i + c) % NAMES.length] as string,
        lastname: `${NAMES[i % NAMES.length]}son`,
        gender: i % 2 ? ('M' as const) : ('F' as const),
        form,
        stream: i % 2 ? 'East' : 'West',
        status: 'active' as const,
      }));
      await trx.insertInto('students').values(learners).execute();
      const marks = learners.flatMap((learner, l) =>
        subjects.flatMap((subject, s) =>
          papers.flatMap((paper) =>
            types.map((type, t) => ({
              tenant_id: school.id,
              id: newId(),
              student_id: learner.id,
              subject_id: subject.id,
              marktype_id: type.id,
              form,
              stream: learner.stream,
              term: 'I',
              year,
              paper,
              mark: ((l * 7 + s * 13 + t * 5) % (type.outof + 1)) as number,
              absent: false,
              topic_id: null,
              user_id: null,
            })),
          ),
        ),
      );
      // In slices: a statement has at most 65,535 parameters.
      for (let at = 0; at < marks.length; at += 2000)
        await trx
          .insertInto('marks')
          .values(marks.slice(at, at + 2000))
          .execute();
      await trx
        .insertInto('grades')
        .values(
          subjects.flatMap((subject) =>
            defaultGradeBands().map((band) => ({
              tenant_id: school.id,
              id: newId(),
              subject_id: subject.id,
              form,
              term: 'I',
              year,
              grade: band.grade,
              lower: band.lower,
              upper: band.upper,
            })),
          ),
        )
        .execute();
      await trx
        .insertInto('proportions')
        .values(
          subjects.flatMap((subject) =>
            types.map((type, t) => ({
              tenant_id: school.id,
              id: newId(),
              subject_id: subject.id,
              marktype_id: type.id,
              form,
              term: 'I',
              year,
              percentage: t === 0 ? 30 : 70,
            })),
          ),
        )
        .execute();
    }
  });
  return { ...school, classes: [...fields.classes], term: 'I', year };
}

/** The transaction with every statement it runs counted (a test's or benchmark's count of queries). */
export function countingTx(tx: TenantTx): { tx: TenantTx; statements: () => number } {
  let statements = 0;
  const counter: KyselyPlugin = {
    transformQuery: (args) => {
      statements += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { tx: { trx: tx.trx.withPlugin(counter), tenantId: tx.tenantId, userId: tx.userId } as TenantTx, statements: () => statements };
}
