import { z } from 'zod';
import { type AppAbility, allows } from './abilities.js';
import { TERMS } from './constants.js';
import { termQuery, yearQuery } from './endpoints/fields.js';

/**
 * What staff assignments grant (issue 13 point 4): a member who may enter marks (`create` on
 * mark) but not manage them enters marks and subject comments only for the class, stream,
 * subject, term and year of their subject-teacher assignments, and report comments only for
 * the classes they are class teacher of. `manage` on mark or on remark lifts the limit. The
 * marks and comments screens and their routes both ask this one function.
 */

/** What may be entered: marks, a subject's comments, a learner's report comments. */
export type Entry = 'marks' | 'subjectComments' | 'reportComments';
/** Everywhere, only where assigned, or nowhere. */
export type Reach = 'all' | 'assigned' | 'none';

export interface SubjectAssignment {
  subject_id: string;
  form: string;
  /** Null: every stream of the class. */
  stream: string | null;
  term: string;
  year: number;
}

export interface ClassAssignment {
  form: string;
  stream: string | null;
  term: string;
  year: number;
}

export interface Assignments {
  subjects: ReadonlyArray<SubjectAssignment>;
  classes: ReadonlyArray<ClassAssignment>;
}

/** Where an entry is made: a class and stream in a term, and for marks and subject comments a subject. */
export interface EntryTarget {
  form: string;
  stream: string | null;
  term: string;
  year: number;
  subject_id?: string;
}

export const ENTRIES: ReadonlyArray<Entry> = ['marks', 'subjectComments', 'reportComments'];

/** How far the member's roles reach for each kind of entry, before assignments are looked at. */
export function entryReach(ability: AppAbility): Record<Entry, Reach> {
  const managesMarks = allows(ability, 'manage', 'mark');
  const managesRemarks = allows(ability, 'manage', 'remark');
  const entersMarks = allows(ability, 'create', 'mark');
  const entersRemarks = allows(ability, 'create', 'remark');
  const lifted = managesMarks || managesRemarks;
  return {
    marks: managesMarks ? 'all' : entersMarks ? 'assigned' : 'none',
    subjectComments: lifted ? 'all' : entersMarks || entersRemarks ? 'assigned' : 'none',
    reportComments: lifted ? 'all' : entersMarks || entersRemarks ? 'assigned' : 'none',
  };
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
/** An assignment without a stream covers every stream; an entry without one needs a whole-class assignment. */
const coversStream = (assigned: string | null, wanted: string | null) =>
  assigned === null || assigned.trim() === '' || (wanted !== null && same(assigned, wanted));
const sameTerm = (a: { term: string; year: number }, b: { term: string; year: number }) => a.term === b.term && a.year === b.year;

/** Whether the member may make this entry here. */
export function mayEnter(ability: AppAbility, assignments: Assignments, entry: Entry, target: EntryTarget): boolean {
  const reach = entryReach(ability)[entry];
  if (reach !== 'assigned') return reach === 'all';
  if (entry === 'reportComments') {
    return assignments.classes.some(
      (held) => sameTerm(held, target) && same(held.form, target.form) && coversStream(held.stream, target.stream),
    );
  }
  return assignments.subjects.some(
    (held) =>
      sameTerm(held, target) &&
      held.subject_id.toLowerCase() === target.subject_id?.toLowerCase() &&
      same(held.form, target.form) &&
      coversStream(held.stream, target.stream),
  );
}

/**
 * The streams of a class a member may enter in when they open it (issue 23 item 18): `'all'`
 * when their roles lift the limit or an assignment covers the whole class; otherwise the streams
 * they are assigned (in the assignments' spelling, each once), none when they teach no stream of
 * it. A class opened without a stream is every stream they teach, so a teacher of both P5 streams
 * opens P5 whole and a teacher of one opens his own stream's learners.
 */
export function streamsToEnter(ability: AppAbility, assignments: Assignments, entry: Entry, target: EntryTarget): 'all' | string[] {
  const reach = entryReach(ability)[entry];
  if (reach !== 'assigned') return reach === 'all' ? 'all' : [];
  const held: ReadonlyArray<{ form: string; stream: string | null; term: string; year: number; subject_id?: string }> =
    entry === 'reportComments'
      ? assignments.classes
      : assignments.subjects.filter((each) => each.subject_id.toLowerCase() === target.subject_id?.toLowerCase());
  const ofClass = held.filter((each) => sameTerm(each, target) && same(each.form, target.form));
  if (ofClass.some((each) => coversStream(each.stream, null))) return 'all';
  const streams: string[] = [];
  for (const { stream } of ofClass) if (stream !== null && !streams.some((known) => same(known, stream))) streams.push(stream.trim());
  return streams;
}

/**
 * Whether a member may open this class (and stream) for this entry: with a stream, when that
 * stream is theirs; without one, when any stream of the class is (they then see those streams).
 */
export function mayOpen(streams: 'all' | ReadonlyArray<string>, stream: string | null): boolean {
  if (streams === 'all') return true;
  return stream === null ? streams.length > 0 : streams.some((held) => same(held, stream));
}

/** `GET /api/school/assignments/mine`: the term asked about. */
export const MyAssignmentsQuerySchema = z.object({ term: termQuery, year: yearQuery });

const reach = z.enum(['all', 'assigned', 'none']);

/** What the signed-in member may enter in a term: the reach of each entry, and their assignments. */
export const MyAssignmentsResponseSchema = z.object({
  term: z.enum(TERMS),
  year: z.number(),
  reach: z.object({ marks: reach, subjectComments: reach, reportComments: reach }),
  subjects: z.array(
    z.object({
      subject_id: z.string(),
      subject: z.object({ name: z.string() }).nullable(),
      form: z.string(),
      stream: z.string().nullable(),
      term: z.enum(TERMS),
      year: z.number(),
    }),
  ),
  classes: z.array(
    z.object({
      form: z.string(),
      stream: z.string().nullable(),
      term: z.enum(TERMS),
      year: z.number(),
      category: z.enum(['primary', 'co-teacher']),
    }),
  ),
});
export type MyAssignments = z.infer<typeof MyAssignmentsResponseSchema>;
