import { DEFAULT_GRADE_BANDS, TERMS, type Term } from '@mustard/shared';
import type { Insertable } from 'kysely';
import { inBatches } from '../db/batches.js';
import { newId } from '../db/ids.js';
import type { Trx } from '../db/tenant.js';
import { inTenant } from '../db/tenant-filter.js';
import type { DB } from '../db/types.js';
import { schoolFees } from './demo-fees.js';
import { A_LEVEL_PAPERS, gradingKey, longDate, nextTermStarts } from './school-defaults.js';

/*
 * The demo schools' staff (issue 13 point 6): teachers with accounts, who teaches each subject
 * of each class and stream, class teachers, deputy head teachers, and what the report cards
 * carry at their foot (grading key, next term, fees, head teacher) and how many papers an
 * A-level subject is written in, for every term of the seed's year. The deciding is pure (the
 * same roster and subjects give the same assignments on every run); a thin shell writes only
 * what is missing, so seeding again adds nothing and leaves a school's own changes alone.
 */

/** A teacher of a demo school and the subjects they teach, by the settings seed's names. */
export interface StaffMember {
  name: string;
  subjects: readonly string[];
}

/** What a demo school's staff is: its teachers, head, deputies and the demo teacher's share. */
export interface SchoolRoster {
  staff: readonly StaffMember[];
  /** Named on the report cards' foot only; not an account. */
  headTeacher: string;
  /** One deputy head teacher per section of the school (by name, one of `staff`), over the section's classes. */
  deputies: ReadonlyArray<{ name: string; forms: readonly string[] }>;
  /** What teacher@mustard.demo holds: a subject in every stream of a class; class teacher of a class's first stream. */
  demoTeacher: { subjects: ReadonlyArray<{ subject: string; form: string }>; classTeacherOf?: string };
  /** Classes whose streams have a co-teacher besides their class teacher: the new intake. */
  coTaught: readonly string[];
  /** Papers per subject (UNEB) in the A-level classes; subjects the school lacks are skipped. */
  papers?: { forms: readonly string[]; bySubject: Readonly<Record<string, number>> };
}

export const DEMO_STAFF: Readonly<Record<string, SchoolRoster>> = {
  'demo-primary': {
    staff: [
      { name: 'Grace Namubiru', subjects: ['English', 'Religious Education'] },
      { name: 'Joseph Okello', subjects: ['Mathematics', 'Integrated Science'] },
      { name: 'Sarah Nakato', subjects: ['English', 'Luganda'] },
      { name: 'Moses Ssempijja', subjects: ['Mathematics', 'Social Studies'] },
      { name: 'Esther Akello', subjects: ['Integrated Science', 'Religious Education'] },
      { name: 'David Mugisha', subjects: ['Social Studies', 'Mathematics'] },
      { name: 'Ruth Atim', subjects: ['English', 'Social Studies'] },
      { name: 'Peter Kato', subjects: ['Luganda', 'Religious Education'] },
      { name: 'Annet Nalwoga', subjects: ['Integrated Science', 'English'] },
      { name: 'Samuel Wasswa', subjects: ['Mathematics', 'Integrated Science'] },
    ],
    headTeacher: 'Mr. Charles Ssekandi',
    deputies: [
      { name: 'Grace Namubiru', forms: ['P1', 'P2', 'P3'] },
      { name: 'Joseph Okello', forms: ['P4', 'P5', 'P6', 'P7'] },
    ],
    demoTeacher: { subjects: [{ subject: 'Mathematics', form: 'P5' }], classTeacherOf: 'P5' },
    coTaught: ['P1'],
  },
  'demo-secondary': {
    staff: [
      { name: 'Florence Nabirye', subjects: ['English Language', 'Literature in English', 'General Paper'] },
      { name: 'Isaac Ochieng', subjects: ['Mathematics', 'Subsidiary Mathematics', 'Physics'] },
      { name: 'Harriet Namutebi', subjects: ['Biology', 'Chemistry', 'Agriculture'] },
      { name: 'Robert Kiggundu', subjects: ['Physics', 'Mathematics', 'Computer Studies'] },
      { name: 'Juliet Achieng', subjects: ['Geography', 'Entrepreneurship'] },
      { name: 'Emmanuel Tumusiime', subjects: ['History', 'Christian Religious Education', 'General Paper'] },
      { name: 'Agnes Nansubuga', subjects: ['Kiswahili', 'English Language'] },
      { name: 'Simon Opio', subjects: ['Chemistry', 'Biology'] },
      { name: 'Christine Auma', subjects: ['Literature in English', 'English Language', 'Christian Religious Education'] },
      { name: 'Ronald Byaruhanga', subjects: ['Computer Studies', 'Subsidiary Mathematics', 'Mathematics'] },
      { name: 'Margaret Apio', subjects: ['Agriculture', 'Biology', 'Geography'] },
      { name: 'Denis Lubega', subjects: ['Entrepreneurship', 'History', 'Geography'] },
    ],
    headTeacher: 'Mrs. Rose Kyomuhendo',
    deputies: [
      { name: 'Florence Nabirye', forms: ['S1', 'S2', 'S3', 'S4'] },
      { name: 'Isaac Ochieng', forms: ['S5', 'S6'] },
    ],
    demoTeacher: { subjects: [{ subject: 'English Language', form: 'S2' }] },
    coTaught: ['S1'],
    papers: A_LEVEL_PAPERS,
  },
};

/** first.last@mustard.demo: the sign-in of a demo staff member. */
export function staffEmail(name: string): string {
  return `${name.trim().toLowerCase().split(/\s+/).join('.')}@mustard.demo`;
}

/** A subject a class studies (the settings seed's grade sets say which). */
export interface Taught {
  form: string;
  subject_id: string;
  subject: string;
}

/** Who the plan is about: the demo teacher, and the staff's user ids in roster order. */
export interface People {
  teacherId: string;
  staffIds: ReadonlyMap<string, string>;
}

const key = (...parts: Array<string | null>) => parts.map((part) => (part ?? '').trim().toLowerCase()).join('|');

/** The least-busy candidate, the first in roster order on a tie: spreads the work evenly, the same way every run. */
function leastLoaded(candidates: readonly string[], load: ReadonlyMap<string, number>): string | undefined {
  let best: string | undefined;
  for (const id of candidates) if (best === undefined || (load.get(id) ?? 0) < (load.get(best) ?? 0)) best = id;
  return best;
}

/**
 * Who teaches each subject of each class (one teacher for all its streams, as schools do): the
 * demo teacher's subjects first, then the least-busy member who teaches that subject, else the
 * least-busy member. Answers user id by `form|subject_id`.
 */
export function assignSubjects(taught: readonly Taught[], roster: SchoolRoster, people: People): Map<string, string> {
  const fixed = new Set(roster.demoTeacher.subjects.map(({ subject, form }) => key(form, subject)));
  const staff = roster.staff.map((member) => ({ id: people.staffIds.get(member.name)!, subjects: new Set(member.subjects) }));
  const everyone = staff.map((member) => member.id);
  const load = new Map<string, number>();
  const teacherOf = new Map<string, string>();
  for (const unit of taught) {
    const specialists = staff.filter((member) => member.subjects.has(unit.subject)).map((member) => member.id);
    const id = fixed.has(key(unit.form, unit.subject))
      ? people.teacherId
      : (leastLoaded(specialists, load) ?? leastLoaded(everyone, load))!;
    load.set(id, (load.get(id) ?? 0) + 1);
    teacherOf.set(key(unit.form, unit.subject_id), id);
  }
  return teacherOf;
}

export interface SubjectTeacherPlan {
  user_id: string;
  subject_id: string;
  form: string;
  stream: string;
}

/** The subject plan per stream: every class, stream and subject has its teacher. */
export function subjectTeacherRows(taught: readonly Taught[], streams: readonly string[], teacherOf: ReadonlyMap<string, string>) {
  return taught.flatMap((unit): SubjectTeacherPlan[] =>
    streams.map((stream) => ({
      user_id: teacherOf.get(key(unit.form, unit.subject_id))!,
      subject_id: unit.subject_id,
      form: unit.form,
      stream,
    })),
  );
}

export interface ClassTeacherPlan {
  user_id: string;
  form: string;
  stream: string;
  category: 'primary' | 'co-teacher';
}

/**
 * One class teacher per class and stream, chosen among the staff who teach the class (they know
 * its learners), the least-busy first (deputies last); the demo teacher has the first stream of
 * its class. The new intake's streams get a co-teacher too.
 */
export function classTeacherRows(
  classes: readonly string[],
  streams: readonly string[],
  subjects: readonly SubjectTeacherPlan[],
  roster: SchoolRoster,
  people: People,
): ClassTeacherPlan[] {
  const staff = roster.staff.map((member) => people.staffIds.get(member.name)!);
  // A deputy already runs a section: counted as a duty, so classes go to others first.
  const duties = new Map<string, number>(roster.deputies.map(({ name }) => [people.staffIds.get(name)!, 1]));
  const rows: ClassTeacherPlan[] = [];
  const add = (user_id: string, form: string, stream: string, category: ClassTeacherPlan['category']) => {
    duties.set(user_id, (duties.get(user_id) ?? 0) + 1);
    rows.push({ user_id, form, stream, category });
  };
  for (const form of classes) {
    const teaching = new Set(subjects.filter((row) => row.form === form).map((row) => row.user_id));
    const candidates = staff.filter((id) => teaching.has(id));
    const pool = candidates.length > 0 ? candidates : staff;
    for (const [index, stream] of streams.entries()) {
      const primary = form === roster.demoTeacher.classTeacherOf && index === 0 ? people.teacherId : leastLoaded(pool, duties)!;
      add(primary, form, stream, 'primary');
      if (!roster.coTaught.includes(form)) continue;
      const coTeacher = leastLoaded(
        pool.filter((id) => id !== primary),
        duties,
      );
      if (coTeacher) add(coTeacher, form, stream, 'co-teacher');
    }
  }
  return rows;
}

/** The deputy head teacher of each class (whole class: every stream) of the school's sections. */
export function deputyRows(classes: readonly string[], roster: SchoolRoster, people: People) {
  return roster.deputies.flatMap(({ name, forms }) =>
    forms.filter((form) => classes.includes(form)).map((form) => ({ user_id: people.staffIds.get(name)!, form, stream: null })),
  );
}

export { gradingKey, longDate, nextTermStarts } from './school-defaults.js';

const ugx = (amount: number) => `UGX ${String(amount).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;

/** The three lines at the foot of each class's end-of-term report, for a term. */
export function reportFooterRows(classes: readonly string[], term: Term, year: number, headTeacher: string) {
  return classes.flatMap((form) => [
    { title: 'Next term begins', form, term, year, category: 'exam' as const, position: 1, remarks: longDate(nextTermStarts(term, year)) },
    { title: 'Fees for next term', form, term, year, category: 'exam' as const, position: 2, remarks: ugx(schoolFees(form)) },
    { title: 'Head teacher', form, term, year, category: 'exam' as const, position: 3, remarks: headTeacher },
  ]);
}

/** Papers per A-level subject the school has, in the A-level classes it has. */
export function subjectPaperRows(classes: readonly string[], subjects: ReadonlyArray<{ id: string; name: string }>, roster: SchoolRoster) {
  const papers = roster.papers;
  if (!papers) return [];
  return papers.forms
    .filter((form) => classes.includes(form))
    .flatMap((form) =>
      subjects
        .filter((subject) => papers.bySubject[subject.name] !== undefined)
        .map((subject) => ({ form, subject_id: subject.id, papers: papers.bySubject[subject.name]! })),
    );
}

/** The same rows for each term of the year: staff stay with their classes all year. */
export function everyTerm<Row>(rows: readonly Row[], year: number): Array<Row & { term: Term; year: number }> {
  return TERMS.flatMap((term) => rows.map((row) => ({ ...row, term, year })));
}

/** Rows whose place (`slot(row)`) is empty: a place the school already filled is theirs to keep. */
export function missing<Row>(rows: readonly Row[], filled: Iterable<string>, slot: (row: Row) => string): Row[] {
  const taken = new Set(filled);
  return rows.filter((row) => !taken.has(slot(row)));
}

/** The places rows fill; a whole-class row (no stream) fills every stream of its class, as it does for entering marks. */
export function filledPlaces<Row extends { stream: string | null }>(
  held: readonly Row[],
  streams: readonly string[],
  slot: (row: Row) => string,
): string[] {
  return held.flatMap((row) => (row.stream?.trim() ? [slot(row)] : streams.map((stream) => slot({ ...row, stream }))));
}

/* ---- The shell: read what the school has, write what is missing. ---- */

/** The school's subjects and which class studies which (its grade sets of the year). */
async function subjectsOf(trx: Trx, tenantId: string, year: number) {
  const subjects = await trx
    .selectFrom('subjects')
    .select(['id', 'name', 'position'])
    .$call(inTenant(tenantId))
    .orderBy('position')
    .orderBy('name')
    .execute();
  const pairs = await trx
    .selectFrom('grades')
    .select(['form', 'subject_id'])
    .distinct()
    .$call(inTenant(tenantId))
    .where('year', '=', year)
    .execute();
  const studied = new Set(pairs.map((pair) => key(pair.form, pair.subject_id)));
  return { subjects, studied };
}

type StaffTable = 'subject_teachers' | 'class_teachers' | 'deputies' | 'grade_footers' | 'report_footers' | 'subject_papers';

/** Inserts in batches; a row a unique index already holds is skipped (a second seed, or a school's own entry). */
async function insertAll<T extends StaffTable>(trx: Trx, table: T, rows: ReadonlyArray<Insertable<DB[T]>>): Promise<void> {
  await inBatches(rows, (batch) =>
    trx
      .insertInto(table)
      .values(batch)
      .onConflict((oc) => oc.doNothing())
      .execute(),
  );
}

/**
 * Writes a demo school's staff assignments for every term of `year` (in the caller's tenant
 * transaction, after its subjects and grade sets). Subject teachers, class teachers and deputies
 * go only where the place is empty (whoever the school put there stays); footers and papers only
 * where their unique key is free. Each table is written in a few multi-row statements.
 */
export async function seedDemoStaff(
  trx: Trx,
  tenantId: string,
  roster: SchoolRoster,
  school: { classes: readonly string[]; streams: readonly string[] },
  people: People,
  year: number,
): Promise<void> {
  const { subjects, studied } = await subjectsOf(trx, tenantId, year);
  const taught = school.classes.flatMap((form) =>
    subjects
      .filter((subject) => studied.has(key(form, subject.id)))
      .map((subject) => ({ form, subject_id: subject.id, subject: subject.name })),
  );
  const bySubject = subjectTeacherRows(taught, school.streams, assignSubjects(taught, roster, people));
  const classPlan = classTeacherRows(school.classes, school.streams, bySubject, roster, people);
  const row = () => ({ tenant_id: tenantId, id: newId() });

  const heldSubjects = await trx
    .selectFrom('subject_teachers')
    .select(['subject_id', 'form', 'stream', 'term'])
    .$call(inTenant(tenantId))
    .where('year', '=', year)
    .execute();
  const heldClasses = await trx
    .selectFrom('class_teachers')
    .select(['form', 'stream', 'term', 'category'])
    .$call(inTenant(tenantId))
    .where('year', '=', year)
    .execute();
  const heldDeputies = await trx.selectFrom('deputies').select('form').$call(inTenant(tenantId)).execute();

  await insertAll(
    trx,
    'subject_teachers',
    missing(
      everyTerm(bySubject, year),
      filledPlaces(heldSubjects, school.streams, (held) => key(held.subject_id, held.form, held.stream, held.term)),
      (plan) => key(plan.subject_id, plan.form, plan.stream, plan.term),
    ).map((plan) => ({ ...row(), ...plan })),
  );
  await insertAll(
    trx,
    'class_teachers',
    missing(
      everyTerm(classPlan, year),
      filledPlaces(heldClasses, school.streams, (held) => key(held.form, held.stream, held.term, held.category)),
      (plan) => key(plan.form, plan.stream, plan.term, plan.category),
    ).map((plan) => ({ ...row(), ...plan })),
  );
  await insertAll(
    trx,
    'deputies',
    missing(
      deputyRows(school.classes, roster, people),
      // A class with any deputy, for a stream or all, has one.
      heldDeputies.map((held) => key(held.form)),
      (plan) => key(plan.form),
    ).map((plan) => ({ ...row(), ...plan })),
  );
  const grading = gradingKey(DEFAULT_GRADE_BANDS.default);
  await insertAll(
    trx,
    'grade_footers',
    school.classes.map((form) => ({ ...row(), form, stream: null, details: grading })),
  );
  await insertAll(
    trx,
    'report_footers',
    TERMS.flatMap((term) => reportFooterRows(school.classes, term, year, roster.headTeacher)).map((plan) => ({ ...row(), ...plan })),
  );
  await insertAll(
    trx,
    'subject_papers',
    everyTerm(subjectPaperRows(school.classes, subjects, roster), year).map((plan) => ({ ...row(), ...plan })),
  );
}
