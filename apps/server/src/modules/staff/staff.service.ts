import { entryReach, type MyAssignmentsQuerySchema, SETTINGS_MESSAGES } from '@mustard/shared';
import type { z } from 'zod';
import type { TenantTx } from '../../db/tenant.js';
import { conflict, invalid } from '../../errors.js';
import type { ActionContext } from '../../plugins/endpoints.js';
import { assignmentsOf, memberName, membersByName, primaryClassTeacher } from './staff.repository.js';

/** A teacher is a member of the school: someone removed keeps their past assignments, and gets no new ones. */
export async function teacherIsMember(tx: TenantTx, input: Record<string, unknown>): Promise<void> {
  if (!(await memberName(tx, String(input.user_id)))) throw invalid({ user_id: [SETTINGS_MESSAGES.teacherNotMember] });
}

/** One primary class teacher per class, stream, term and year: 409 naming who has it. */
export async function onePrimaryClassTeacher(tx: TenantTx, input: Record<string, unknown>, id: string | null): Promise<void> {
  await teacherIsMember(tx, input);
  if (input.category !== 'primary') return;
  const which = {
    form: String(input.form),
    stream: (input.stream as string | null) ?? null,
    term: String(input.term),
    year: Number(input.year),
  };
  const holder = await primaryClassTeacher(tx, which, id);
  if (holder) throw conflict(SETTINGS_MESSAGES.classTeacherTaken, holder);
}

/** The school's members by name: whom a requisition or an assignment may name. */
export async function teacherOptions({ tx }: ActionContext) {
  return { users: await membersByName(tx) };
}

/** What the signed-in member may enter in a term: their rights' reach and their assignments. */
export async function myAssignments({ tx, member }: ActionContext, query: z.output<typeof MyAssignmentsQuerySchema>) {
  return {
    term: query.term,
    year: query.year,
    reach: entryReach(member.ability),
    ...(await assignmentsOf(tx, member.userId, query)),
  };
}
