import { sql } from 'kysely';
import type { Trx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';

/*
 * School-style student ids (`MPS/0042`) for learners added without one: by the form, or by an
 * upload with "give new learners ids".
 */

/** Initials of a school's name, upper case, at most four: "Mustard Primary School" -> "MPS". */
export function initialsOf(name: string): string {
  const initials = name
    .split(/\s+/)
    .map((word) => word.match(/\p{L}/u)?.[0] ?? '')
    .join('')
    .toUpperCase()
    .slice(0, 4);
  return initials || 'ID';
}

const SCHOOL_ID = /^(\p{L}+)\/(\d+)$/u;

/**
 * Gives out the school's next ids: the prefix most used among `known` ids of the form
 * PREFIX/NNNN (ties: the one with the highest serial), else `fallbackPrefix`; never an id in
 * `known`.
 */
export function idSequence(known: Iterable<string>, fallbackPrefix: string): () => string {
  const prefixes = new Map<string, { count: number; max: number; width: number }>();
  const taken = new Set<string>();
  for (const id of known) {
    taken.add(id);
    const match = SCHOOL_ID.exec(id);
    if (!match) continue;
    const [, prefix, digits] = match as unknown as [string, string, string];
    const serial = Number(digits);
    const seen = prefixes.get(prefix) ?? { count: 0, max: 0, width: 4 };
    seen.count += 1;
    if (serial >= seen.max) {
      seen.max = serial;
      seen.width = Math.max(4, digits.length);
    }
    prefixes.set(prefix, seen);
  }
  let best: [string, { count: number; max: number; width: number }] | undefined;
  for (const entry of prefixes) {
    if (!best || entry[1].count > best[1].count || (entry[1].count === best[1].count && entry[1].max > best[1].max)) best = entry;
  }
  const prefix = best?.[0] ?? fallbackPrefix;
  const width = best?.[1].width ?? 4;
  let serial = best?.[1].max ?? 0;
  return () => {
    let id: string;
    do {
      serial += 1;
      id = `${prefix}/${String(serial).padStart(width, '0')}`;
    } while (taken.has(id));
    taken.add(id);
    return id;
  };
}

/**
 * Holds the school's id sequence until the transaction ends, so an upload and a learner added
 * at the same moment never get the same id.
 */
export async function lockStudentIds(trx: Trx, tenantId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`students-upload:${tenantId}`}, 0))`.execute(trx);
}

/** The next `count` ids of the school, after taking the lock. */
export async function nextStudentIds(trx: Trx, tenantId: string, schoolName: string, count: number): Promise<string[]> {
  if (count === 0) return [];
  await lockStudentIds(trx, tenantId);
  const rows = await trx.selectFrom('students').select('studentid').$call(inTenant(tenantId)).execute();
  const next = idSequence(
    rows.map((row) => row.studentid),
    initialsOf(schoolName),
  );
  return Array.from({ length: count }, () => next());
}
