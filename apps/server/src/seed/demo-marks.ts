import { currentTerm, defaultTermDates, localDay, PAPERS, TERMS, type Term, type TermDates } from '@mustard/shared';
import { type Insertable, sql } from 'kysely';
import { inBatches } from '../db/batches.js';
import { newId } from '../db/ids.js';
import type { Trx } from '../db/tenant.js';
import { inTenant } from '../db/tenant-filter.js';
import type { DB } from '../db/types.js';
import { seededRandom } from './demo-people.js';
import { A_LEVEL_COMBINATIONS, A_LEVEL_COMMON, O_LEVEL_CORE, O_LEVEL_ELECTIVES } from './demo-settings.js';

/*
 * The demo schools' marks (issue 14 point 8), for one term, "the marks term", and last term's
 * results (issue 28 point 9, below):
 *
 * - BOT and MOT for every active learner in every subject they sit: all their class's subjects
 *   in a primary school; in S1 to S4 the core and their elective, in S5 and S6 General Paper and
 *   their combination (demo-settings.ts: a class offers only what its learners may sit). One
 *   mark per paper where an A-level subject is written in several (the subject_papers rows),
 *   else paper I. EOT as well in the first half of the school's classes (P1 to P4, S1 to S3)
 *   and in the candidate classes (P7, S4, S6: their report cards print at once), so the other
 *   classes (P5, P6, S5) are left for the end of term, ready to enter;
 * - about 1% ABS: a few learners missed a whole exam, a few more a single paper;
 * - each mark entered by the subject teacher of its class, stream and term (the staff seed's);
 * - attendance for every learner of the term, and targets in Mathematics and English for the
 *   candidate classes (P7 for PLE, S4 for UCE);
 * - BOT of the term published, so its marks show the published lock;
 * - last term (the term before the marks term; Term I's is Term III of the year before), ended:
 *   BOT, MOT and EOT in every class, S1 to S4 EOT only (new-curriculum classes: their summative
 *   exam; their competency scores are this term's only), all three published, and its
 *   attendance, so progressive reports and the progress statistics have two terms to compare.
 *   Drawn as a sitting of its own (its own luck, absences and each learner's form that term):
 *   a learner's marks are near this term's, some better, some worse.
 *
 * The marks term is the school's current term (its own calendar, else the Ugandan default),
 * except that in a holiday the current term is the coming one, which has not begun: no exam has
 * been written in it, so the term just ended is used instead (from the end of Term III to
 * February, Term III). The API's rule refuses only terms after the current one; marks of a term not yet
 * begun would be accepted there, but a demo full of exams not yet sat would be wrong.
 *
 * Marks are drawn from a generator seeded by the learner's student id, the subject, the exam and
 * the paper: the same marks on every run, whatever order things are read in. A learner has an
 * ability (normal around 60), each subject its own difficulty, each learner a liking for each
 * subject and each exam its luck; the sum, tapered into 0..100, is written as a whole number,
 * now and then with a half mark, as teachers do.
 *
 * No history rows: the history records what people changed (from the grid, a sheet or a
 * deletion); a seeded mark is nobody's change, writing one per mark would double the seed's
 * largest write, and a cell's history starts with the first real change.
 *
 * Inserted in multi-row statements of at most 1,000 rows, each skipping what a unique key
 * already holds: seeding again adds nothing, and a mark the school changed stays as it is.
 *
 * Size: about 8,600 marks in the primary school and 10,200 in the secondary one this term,
 * 10,100 and 7,200 last term. A mark costs the embedded database some 0.12 ms to write (five
 * foreign keys, four indexes), and the seed runs on the first start: learners sitting every one
 * of the secondary school's fifteen subjects (and every A-level paper) would be 30,000 marks, and
 * seconds more before the first start; S1 to S4 sitting EOT alone last term saves some 4,800.
 */

/** The exams of a term, by the settings seed's mark type labels. */
const BOT = 'BOT';
const MOT = 'MOT';
const EOT = 'EOT';
/** Candidate classes (PLE, UCE): their learners have targets. */
export const TARGET_FORMS: readonly string[] = ['P7', 'S4'];
/** Subject categories (the settings seed's) with targets. */
const TARGET_CATEGORIES: readonly string[] = ['mathematics', 'english'];
const MARKS_PER_STATEMENT = 1000;

/* ---- Deciding: pure. ---- */

/** The term the demo's marks are of: the current term if it has begun, else the one before it. */
export function marksTerm(today: string, termsOf: (year: number) => readonly TermDates[]): { term: Term; year: number } {
  const current = currentTerm(today, termsOf(Number(today.slice(0, 4))));
  const dates = termsOf(current.year).find((term) => term.term === current.term);
  if (!dates || today >= dates.starts) return current;
  const index = TERMS.indexOf(current.term);
  return index > 0 ? { term: TERMS[index - 1]!, year: current.year } : { term: 'III', year: current.year - 1 };
}

/** The term before `at` (Term I's is Term III of the year before): the demo's last term, whose results are all in. */
export function termBefore(at: { term: Term; year: number }): { term: Term; year: number } {
  const index = TERMS.indexOf(at.term);
  return index > 0 ? { term: TERMS[index - 1]!, year: at.year } : { term: 'III', year: at.year - 1 };
}

/** New-curriculum classes by default (S1 to S4 of a secondary school): last term they sat EOT only, their summative exam. */
const NEW_CURRICULUM_FORM = /^S[1-4]$/i;

/** The exams each class sat last term: BOT, MOT and EOT (the term has ended), EOT only in S1 to S4. */
export function lastTermExams(form: string): readonly string[] {
  return NEW_CURRICULUM_FORM.test(form) ? [EOT] : [BOT, MOT, EOT];
}

/** School days (Monday to Friday) from `starts` to `ends`, both included: a term's total days of attendance. */
export function schoolDays(starts: string, ends: string): number {
  let days = 0;
  for (let time = Date.parse(`${starts}T00:00:00Z`); time <= Date.parse(`${ends}T00:00:00Z`); time += 86_400_000) {
    const weekday = new Date(time).getUTCDay();
    if (weekday !== 0 && weekday !== 6) days += 1;
  }
  return days;
}

/** Candidate classes whose end-of-term exams are marked first: their report cards print the moment the demo starts. */
export const REPORT_FORMS: readonly string[] = ['P7', 'S4', 'S6'];

/**
 * The classes that have sat EOT: the first half of the school's (P1 to P4, S1 to S3) and the
 * candidate classes (P7, S4, S6), whose full report cards the demo prints (issue 15 point 8).
 */
export function eotForms(classes: readonly string[]): string[] {
  const firstHalf = classes.slice(0, Math.ceil(classes.length / 2));
  return classes.filter((form) => firstHalf.includes(form) || REPORT_FORMS.includes(form));
}

/** A number from a text (FNV-1a): the seed of one learner's, subject's or exam's draws. */
function hashOf(text: string): number {
  let hash = 2166136261;
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return hash >>> 0;
}

/** A generator for the named draw: the same numbers for the same name. */
const drawsOf = (...names: string[]) => seededRandom(hashOf(names.join('|')));

/** A standard normal draw (Box-Muller). */
function normal(random: () => number): number {
  const u = 1 - random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/**
 * A raw score made a percentage: unchanged from 10 to 90, beyond that ever closer to 0 or 100
 * without piling up there (a clamp would give a hundred learners full marks).
 */
export function taper(raw: number): number {
  if (raw > 90) return 100 - 10 * Math.exp(-(raw - 90) / 10);
  if (raw < 10) return 10 * Math.exp((raw - 10) / 10);
  return raw;
}

/** A learner's ability, as a mark out of 100 in an average subject. */
export function abilityOf(studentid: string): number {
  return clamp(60 + 14 * normal(drawsOf('ability', studentid)), 15, 97);
}

/** How much harder (below 0) or easier a subject is marked: the sciences hardest, languages easiest. */
function difficultyOf(subject: { name: string; category: string }): number {
  const byCategory: Record<string, number> = { mathematics: -5, science: -4, english: 2, humanity: 0, subsidiary: 1, general: 2 };
  return (byCategory[subject.category] ?? 0) + 3 * normal(drawsOf('subject', subject.name));
}

/**
 * One learner's result in one paper of one exam: a mark (0..outof, at most one decimal) or absent.
 * `sitting` names an earlier term (last term's 'before'): its own luck and absences, and the
 * learner's form that term (a few points up or down), so some learners improved and some dropped.
 * The marks term's own draws name no sitting.
 */
export function markOf(
  studentid: string,
  subject: { name: string; category: string },
  marktype: { label: string; outof: number },
  paper: string,
  sitting?: string,
): { mark: number | null; absent: boolean } {
  const of = (...names: string[]) => drawsOf(...names, ...(sitting ? [sitting] : []));
  // A few learners missed a whole exam (ill, or sent home), a few more one paper.
  if (of('away', studentid, marktype.label)() < 0.003) return { mark: null, absent: true };
  const draws = of('mark', studentid, subject.name, marktype.label, paper);
  if (draws() < 0.005) return { mark: null, absent: true };
  const liking = 8 * normal(drawsOf('liking', studentid, subject.name));
  const luck = 6 * normal(draws);
  const form = sitting ? 4 * normal(drawsOf('form', studentid, sitting)) : 0;
  const percent = taper(abilityOf(studentid) + difficultyOf(subject) + liking + luck + form);
  const mark = (percent * marktype.outof) / 100;
  // Mostly whole marks; one in eight is given to the half mark.
  return { mark: draws() < 0.125 ? Math.round(mark * 2) / 2 : Math.round(mark), absent: false };
}

/** A learner of the demo as the plan needs them. */
export interface MarkLearner {
  id: string;
  studentid: string;
  form: string;
  stream: string | null;
}

/** A subject a class studies, with the number of papers it is written in there (1: paper I). */
export interface Studied {
  form: string;
  subject_id: string;
  name: string;
  category: string;
  papers: number;
}

export interface MarkTypeSeed {
  id: string;
  label: string;
  outof: number;
}

/** Who teaches a class's subject: the stream's own teacher, else the whole class's. */
export type TeacherOf = (form: string, stream: string | null, subjectId: string) => string | null;

const key = (...parts: Array<string | null>) => parts.map((part) => (part ?? '').trim().toLowerCase()).join('|');

/** Subject teachers by place, as a lookup; a row without a stream holds every stream of its class. */
export function teacherLookup(
  rows: ReadonlyArray<{ user_id: string; form: string; stream: string | null; subject_id: string }>,
): TeacherOf {
  const byPlace = new Map<string, string>();
  for (const row of rows) {
    const place = key(row.form, row.stream, row.subject_id);
    if (!byPlace.has(place)) byPlace.set(place, row.user_id);
  }
  return (form, stream, subjectId) => byPlace.get(key(form, stream, subjectId)) ?? byPlace.get(key(form, null, subjectId)) ?? null;
}

/** How many papers a subject is written in, in a class: its subject_papers where it has several there, else 1. */
export function papersOf(
  subject: { id: string; multiple_papers: boolean; multiple_paper_forms: string | null },
  form: string,
  papers: ReadonlyMap<string, number>,
): number {
  const forms = (subject.multiple_paper_forms ?? '').split(',').map((name) => name.trim().toLowerCase());
  if (!subject.multiple_papers || !forms.includes(form.trim().toLowerCase())) return 1;
  return clamp(papers.get(key(form, subject.id)) ?? 1, 1, PAPERS.length);
}

/**
 * Whether a learner sits a subject their class offers: in S1 to S4 the core and one elective, in
 * S5 and S6 General Paper and their combination, chosen by their student id; elsewhere every
 * subject.
 */
export function sits(learner: { studentid: string; form: string }, subject: string): boolean {
  if (/^S[1-4]$/i.test(learner.form)) {
    const elective = O_LEVEL_ELECTIVES[hashOf(`elective|${learner.studentid}`) % O_LEVEL_ELECTIVES.length];
    return (O_LEVEL_CORE as readonly string[]).includes(subject) || subject === elective;
  }
  if (/^S[56]$/i.test(learner.form)) {
    const combination = A_LEVEL_COMBINATIONS[hashOf(`combination|${learner.studentid}`) % A_LEVEL_COMBINATIONS.length]!;
    return (A_LEVEL_COMMON as readonly string[]).includes(subject) || combination.subjects.includes(subject);
  }
  return true;
}

export interface MarkPlan {
  student_id: string;
  subject_id: string;
  marktype_id: string;
  form: string;
  stream: string | null;
  paper: string;
  mark: number | null;
  absent: boolean;
  user_id: string | null;
}

/**
 * Every mark of the term: BOT and MOT everywhere, EOT in `eot`'s classes; each paper of each
 * subject a learner sits. Last term (`before`): the exams of `lastTermExams`, drawn as that sitting.
 */
export function planMarks(input: {
  learners: readonly MarkLearner[];
  studied: readonly Studied[];
  markTypes: readonly MarkTypeSeed[];
  eot: readonly string[];
  teacherOf: TeacherOf;
  before?: boolean;
}): MarkPlan[] {
  const sat = (form: string) =>
    input.markTypes.filter((type) =>
      input.before
        ? lastTermExams(form).includes(type.label)
        : type.label === BOT || type.label === MOT || (type.label === EOT && input.eot.includes(form)),
    );
  const plan: MarkPlan[] = [];
  for (const learner of input.learners) {
    const types = sat(learner.form);
    for (const subject of input.studied) {
      if (subject.form !== learner.form || !sits(learner, subject.name)) continue;
      const user_id = input.teacherOf(learner.form, learner.stream, subject.subject_id);
      for (const type of types) {
        for (const paper of PAPERS.slice(0, subject.papers)) {
          plan.push({
            student_id: learner.id,
            subject_id: subject.subject_id,
            marktype_id: type.id,
            form: learner.form,
            stream: learner.stream,
            paper,
            ...markOf(learner.studentid, subject, type, paper, input.before ? 'before' : undefined),
            user_id,
          });
        }
      }
    }
  }
  return plan;
}

/** Days each learner attended of the term's `totalDays`: most nearly all, a few missed two or three weeks. */
export function planAttendance(learners: readonly MarkLearner[], totalDays: number, sitting?: string) {
  return learners.map((learner) => {
    const missed = Math.floor(-3 * Math.log(1 - drawsOf('attendance', learner.studentid, ...(sitting ? [sitting] : []))()));
    return {
      student_id: learner.id,
      form: learner.form,
      stream: learner.stream,
      days: totalDays - Math.min(missed, 15, totalDays),
      total_days: totalDays,
    };
  });
}

/** Targets (50 to 90, in fives) in Mathematics and English for the candidate classes' learners, a little above their ability. */
export function planTargets(learners: readonly MarkLearner[], studied: readonly Studied[], teacherOf: TeacherOf) {
  return learners
    .filter((learner) => TARGET_FORMS.includes(learner.form))
    .flatMap((learner) =>
      studied
        .filter((subject) => subject.form === learner.form && TARGET_CATEGORIES.includes(subject.category) && sits(learner, subject.name))
        .map((subject) => {
          const aim = abilityOf(learner.studentid) + 8 + 4 * normal(drawsOf('target', learner.studentid, subject.name));
          return {
            student_id: learner.id,
            subject_id: subject.subject_id,
            form: learner.form,
            stream: learner.stream,
            target: clamp(Math.round(aim / 5) * 5, 50, 90),
            user_id: teacherOf(learner.form, learner.stream, subject.subject_id),
          };
        }),
    );
}

/* ---- The shell: read the school, write what is missing. ---- */

type MarkTable = 'attendances' | 'mark_targets' | 'publish_marks';

async function insertAll<T extends MarkTable>(trx: Trx, table: T, rows: ReadonlyArray<Insertable<DB[T]>>): Promise<void> {
  await inBatches(rows, (batch) =>
    trx
      .insertInto(table)
      .values(batch)
      .onConflict((oc) => oc.doNothing())
      .execute(),
  );
}

/**
 * Marks in statements of 1,000 rows, each row's values as arrays (unnest): a marks row is
 * thirteen values, and 13,000 parameters per statement cost more to build and send than the
 * rows cost to write. A row whose unique key (marks_key) is taken is skipped.
 */
async function insertMarks(trx: Trx, tenantId: string, at: { term: Term; year: number }, marks: readonly MarkPlan[]): Promise<void> {
  for (let start = 0; start < marks.length; start += MARKS_PER_STATEMENT) {
    const part = marks.slice(start, start + MARKS_PER_STATEMENT);
    const column = <K extends keyof MarkPlan>(name: K) => part.map((plan) => plan[name]);
    await sql`
      INSERT INTO marks (tenant_id, term, year, id, student_id, subject_id, marktype_id, form, stream, paper, mark, absent, user_id)
      SELECT ${tenantId}::uuid, ${at.term}, ${at.year}::integer, given.*
      FROM unnest(
        ${part.map(() => newId())}::uuid[], ${column('student_id')}::uuid[], ${column('subject_id')}::uuid[],
        ${column('marktype_id')}::uuid[], ${column('form')}::text[], ${column('stream')}::text[], ${column('paper')}::text[],
        ${column('mark')}::numeric[], ${column('absent')}::boolean[], ${column('user_id')}::uuid[]
      ) AS given
      ON CONFLICT DO NOTHING
    `.execute(trx);
  }
}

/** The school's terms of a year: its own calendar, else the Ugandan default. */
async function calendarOf(trx: Trx, tenantId: string, years: readonly number[]) {
  const rows = await trx
    .selectFrom('term_dates')
    .select(['year', 'term', 'starts', 'ends'])
    .$call(inTenant(tenantId))
    .where('year', 'in', years)
    .orderBy('starts')
    .execute();
  const day = (value: string | Date) => (typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10));
  return (year: number): TermDates[] => {
    const own = rows.filter((row) => row.year === year);
    return own.length === TERMS.length
      ? own.map((row) => ({ term: row.term, starts: day(row.starts), ends: day(row.ends) }))
      : defaultTermDates(year);
  };
}

/** What one term's marks are written from: the classes' subjects and papers, and their teachers (`year`'s rows of the term). */
async function termPlaces(trx: Trx, tenantId: string, school: { classes: readonly string[] }, year: number, term: Term) {
  const subjects = await trx
    .selectFrom('subjects')
    .select(['id', 'name', 'category', 'multiple_papers', 'multiple_paper_forms'])
    .$call(inTenant(tenantId))
    .where('active', '=', true)
    .orderBy('position')
    .orderBy('name')
    .execute();
  const pairs = await trx
    .selectFrom('grades')
    .select(['form', 'subject_id'])
    .distinct()
    .$call(inTenant(tenantId))
    .where('year', '=', year)
    .where('term', '=', term)
    .execute();
  const papers = await trx
    .selectFrom('subject_papers')
    .select(['form', 'subject_id', 'papers'])
    .$call(inTenant(tenantId))
    .where('year', '=', year)
    .where('term', '=', term)
    .execute();
  const teachers = await trx
    .selectFrom('subject_teachers')
    .select(['user_id', 'form', 'stream', 'subject_id'])
    .$call(inTenant(tenantId))
    .where('year', '=', year)
    .where('term', '=', term)
    .orderBy('id')
    .execute();
  const classTeachers = await trx
    .selectFrom('class_teachers')
    .select(['user_id', 'form', 'stream'])
    .$call(inTenant(tenantId))
    .where('year', '=', year)
    .where('term', '=', term)
    .where('category', '=', 'primary')
    .orderBy('id')
    .execute();
  const studiedPairs = new Set(pairs.map((pair) => key(pair.form, pair.subject_id)));
  const paperCounts = new Map(papers.map((row) => [key(row.form, row.subject_id), row.papers]));
  const studied = school.classes.flatMap((form) =>
    subjects
      .filter((subject) => studiedPairs.has(key(form, subject.id)))
      .map((subject) => ({
        form,
        subject_id: subject.id,
        name: subject.name,
        category: subject.category,
        papers: papersOf(subject, form, paperCounts),
      })),
  );
  const classTeacherOf = (form: string, stream: string | null) =>
    classTeachers.find((row) => key(row.form, row.stream) === key(form, stream))?.user_id ?? null;
  return { studied, teacherOf: teacherLookup(teachers), classTeacherOf };
}

/**
 * Writes a demo school's marks, attendance, targets and published BOT for the marks term, and
 * last term's results (the term before it, ended: every exam written, marked and published, and
 * its attendance), in the caller's tenant transaction, after its settings, learners and staff.
 * The staff's rows are of `year` (the seed's); should a term be of the year before (the marks
 * term in January, last term from February to April), the classes' subjects, papers and teachers
 * are read from `year`'s rows of the same term, and the learners are in their present class.
 */
export async function seedDemoMarks(
  trx: Trx,
  tenantId: string,
  school: { classes: readonly string[] },
  year: number,
  today = localDay(),
): Promise<{ term: Term; year: number; marks: number; before: { term: Term; year: number; marks: number } }> {
  const thisYear = Number(today.slice(0, 4));
  const termsOf = await calendarOf(trx, tenantId, [thisYear - 1, thisYear, thisYear + 1]);
  const at = marksTerm(today, termsOf);
  const dates = termsOf(at.year).find((term) => term.term === at.term)!;
  const before = termBefore(at);
  const beforeDates = termsOf(before.year).find((term) => term.term === before.term)!;

  const learners = await trx
    .selectFrom('students')
    .select(['id', 'studentid', 'form', 'stream'])
    .$call(inTenant(tenantId))
    .where('status', '=', 'active')
    .where('form', 'in', school.classes)
    .orderBy('studentid')
    .execute();
  const markTypes = await trx
    .selectFrom('mark_types')
    .select(['id', 'label', 'outof'])
    .$call(inTenant(tenantId))
    .where('status', '=', 'active')
    .where('label', 'in', [BOT, MOT, EOT])
    .execute();

  const { studied, teacherOf, classTeacherOf } = await termPlaces(trx, tenantId, school, year, at.term);
  const row = () => ({ tenant_id: tenantId, id: newId(), term: at.term, year: at.year });

  const marks = planMarks({ learners, studied, markTypes, eot: eotForms(school.classes), teacherOf });
  await insertMarks(trx, tenantId, at, marks);
  await insertAll(
    trx,
    'attendances',
    planAttendance(learners, schoolDays(dates.starts, dates.ends)).map((plan) => ({
      ...row(),
      ...plan,
      user_id: classTeacherOf(plan.form, plan.stream),
    })),
  );
  await insertAll(
    trx,
    'mark_targets',
    planTargets(learners, studied, teacherOf).map((plan) => ({ ...row(), ...plan })),
  );
  const bot = markTypes.find((type) => type.label === BOT);
  if (bot) await insertAll(trx, 'publish_marks', [{ ...row(), marktype_id: bot.id }]);

  // Last term: its results are all in and published, for progressive reports and the progress statistics.
  const last = await termPlaces(trx, tenantId, school, year, before.term);
  const lastRow = () => ({ tenant_id: tenantId, id: newId(), term: before.term, year: before.year });
  const lastMarks = planMarks({ learners, studied: last.studied, markTypes, eot: school.classes, teacherOf: last.teacherOf, before: true });
  await insertMarks(trx, tenantId, before, lastMarks);
  await insertAll(
    trx,
    'attendances',
    planAttendance(learners, schoolDays(beforeDates.starts, beforeDates.ends), 'before').map((plan) => ({
      ...lastRow(),
      ...plan,
      user_id: last.classTeacherOf(plan.form, plan.stream),
    })),
  );
  await insertAll(
    trx,
    'publish_marks',
    markTypes.map((type) => ({ ...lastRow(), marktype_id: type.id })),
  );
  return { ...at, marks: marks.length, before: { ...before, marks: lastMarks.length } };
}
