import { randomInt } from 'node:crypto';
import { lockInTenant, type TenantTx } from '../../db/tenant.js';
import { inTenant } from '../../db/tenant-filter.js';
import type { School } from '../../plugins/school.js';

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

interface PrefixUse {
  count: number;
  /** The highest serial seen. A BigInt: an id may hold a phone number or a LIN, far past 2^53. */
  max: bigint;
  width: number;
}

/**
 * Gives out the school's next ids: the prefix most used among `known` ids of the form
 * PREFIX/NNNN (ties: the one with the highest serial), else `fallbackPrefix`; never an id in
 * `known`.
 *
 * Serials are counted in BigInt: with Number, a serial past 2^53 stops changing when 1 is added,
 * and the search for a free id never ended (one pasted phone number stopped the server for every
 * school). The search is bounded too: each id it skips is one of `known`, so it cannot take more
 * steps than there are known ids.
 */
export function idSequence(known: Iterable<string>, fallbackPrefix: string): () => string {
  const prefixes = new Map<string, PrefixUse>();
  const taken = new Set<string>();
  for (const id of known) {
    taken.add(id);
    const match = SCHOOL_ID.exec(id);
    if (!match) continue;
    const [, prefix, digits] = match as unknown as [string, string, string];
    const serial = BigInt(digits);
    const seen = prefixes.get(prefix) ?? { count: 0, max: 0n, width: 4 };
    seen.count += 1;
    if (serial >= seen.max) {
      seen.max = serial;
      seen.width = Math.max(4, digits.length);
    }
    prefixes.set(prefix, seen);
  }
  let best: [string, PrefixUse] | undefined;
  for (const entry of prefixes) {
    if (!best || entry[1].count > best[1].count || (entry[1].count === best[1].count && entry[1].max > best[1].max)) best = entry;
  }
  const prefix = best?.[0] ?? fallbackPrefix;
  const width = best?.[1].width ?? 4;
  let serial = best?.[1].max ?? 0n;
  return () => {
    for (let step = 0; step <= taken.size; step++) {
      serial += 1n;
      const id = `${prefix}/${serial.toString().padStart(width, '0')}`;
      if (!taken.has(id)) {
        taken.add(id);
        return id;
      }
    }
    // Unreachable: every step that does not return skips an id of `taken`.
    throw new Error('No free student id was found');
  };
}

/**
 * Holds the school's id sequence until the transaction ends, so an upload and a learner added
 * at the same moment never get the same id.
 */
export async function lockStudentIds(tx: TenantTx): Promise<void> {
  await lockInTenant(tx, 'students-upload');
}

/** The next `count` ids of the school, after taking the lock. */
export async function nextStudentIds(tx: TenantTx, schoolName: string, count: number): Promise<string[]> {
  if (count === 0) return [];
  await lockStudentIds(tx);
  const rows = await tx.trx.selectFrom('students').select('studentid').$call(inTenant(tx.tenantId)).execute();
  const next = idSequence(
    rows.map((row) => row.studentid),
    initialsOf(schoolName),
  );
  return Array.from({ length: count }, () => next());
}

/**
 * Passcodes (6 digits: parents type them to see results) and payment codes (10 digits: banks
 * and mobile money take them with fees) that schools print on letters; each unique in its school.
 */
export const LEARNER_CODES = { code: 6, paymentcode: 10 } as const;

/**
 * Gives each learner without a passcode or payment code a new one, none already in the school
 * (`known`) or given out before in this call. Random, not a serial: a parent cannot guess
 * another learner's passcode from their own. Bounded: a school would need most of the million
 * passcodes for a draw to fail 1,000 times in a row.
 */
export function giveLearnerCodes(
  learners: Array<{ code: string | null; paymentcode: string | null }>,
  known: ReadonlyArray<{ code: string | null; paymentcode: string | null }>,
  random: (min: number, max: number) => number = randomInt,
): void {
  for (const field of ['code', 'paymentcode'] as const) {
    const digits = LEARNER_CODES[field];
    const taken = new Set<string>();
    for (const learner of [...known, ...learners]) if (learner[field]) taken.add(learner[field] as string);
    for (const learner of learners) {
      if (learner[field]) continue;
      let code: string | null = null;
      for (let attempt = 0; attempt < 1000 && code === null; attempt++) {
        // The first digit is never 0: spreadsheets drop leading zeros.
        const candidate = `${random(1, 10)}${String(random(0, 10 ** (digits - 1))).padStart(digits - 1, '0')}`;
        if (!taken.has(candidate)) code = candidate;
      }
      if (code === null) throw new Error(`No free ${field} was found`);
      taken.add(code);
      learner[field] = code;
    }
  }
}

/** The passcodes and payment codes the school has given, to give new ones none of them. */
export async function schoolLearnerCodes(tx: TenantTx) {
  return tx.trx.selectFrom('students').select(['code', 'paymentcode']).$call(inTenant(tx.tenantId)).execute();
}

/** What a template's example shows: an id, a class and a stream as this school writes them. */
export interface TemplateExample {
  studentid: string;
  form: string;
  stream: string | null;
}

/**
 * The example a template shows a school: its next id (its own prefix), its busiest class of
 * those it offers (else the first it offers), and that class's busiest stream. Read only: it
 * takes no lock and gives out no id.
 */
export async function templateExample(tx: TenantTx, school: School): Promise<TemplateExample> {
  const rows = await tx.trx.selectFrom('students').select(['studentid', 'form', 'stream']).$call(inTenant(tx.tenantId)).execute();
  const studentid = idSequence(
    rows.map((row) => row.studentid),
    initialsOf(school.name),
  )();
  const offered = school.classes;
  const busiest = (values: Array<string | null>) => {
    const counts = new Map<string, number>();
    for (const value of values) if (value) counts.set(value, (counts.get(value) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
  };
  const form = busiest(rows.map((row) => row.form).filter((value) => offered.includes(value))) ?? offered[0] ?? 'P1';
  const stream = busiest(rows.filter((row) => row.form === form).map((row) => row.stream));
  return { studentid, form, stream };
}
