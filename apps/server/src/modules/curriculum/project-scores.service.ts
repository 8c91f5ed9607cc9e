import {
  allows,
  MARK_MESSAGES,
  MAX_GRID_CELLS,
  mayOpen,
  PROJECT_SCORE_MESSAGES,
  type ProjectScoreCell,
  type ProjectScoreConflict,
  type ProjectScoresGrid,
  type ProjectScoresGridQuery,
  type ProjectScoresSave,
  type ProjectScoresSaved,
  RESULT_MESSAGES,
  readProjectComment,
  readProjectScore,
  SETTINGS_MESSAGES,
  streamsToEnter,
  type TERMS,
} from '@mustard/shared';
import { recordAudit } from '../../audit/audit.repository.js';
import type { TenantTx } from '../../db/tenant.js';
import { AppError, type FieldErrors, invalid } from '../../errors.js';
import type { ActingMember, ActionContext } from '../../plugins/endpoints.js';
import { claimSaveId, existingStudentids, keepSaveAnswer, learnersOf, savedAnswer, userNames } from '../marks/entry.repository.js';
import { cellValue, learnerOfRow, RowErrors } from '../marks/learner-sheet.js';
import { assignmentsOf } from '../staff/staff.repository.js';
import {
  applyScoreChanges,
  highestProjectScore,
  projectOf,
  type ScoreWrite,
  type StoredScore,
  scoreListRows,
  storedScores,
} from './project-scores.repository.js';
import { SCORE_SHEET, type ScoreSheet } from './project-scores.sheet.js';

/*
 * Project scores (issue 26 point 5): the grid's load and save, the list, and the grid as a sheet
 * (download, and a filled sheet saved; its layout in project-scores.sheet.ts). Entering them is
 * entering marks: those who manage marks anywhere, a teacher where assigned to the project's
 * subject and class in its term (the marks grid's rule). A save decides everything (each cell,
 * each learner in the class, conflicts) before it writes, so it is saved whole or not at all.
 */

type Member = Pick<ActingMember, 'userId' | 'ability'>;
type Project = NonNullable<Awaited<ReturnType<typeof projectOf>>>;

/** How long a save's key answers a retry: a draft kept in the browser may be sent again days later. */
const SAVE_ID_DAYS = 30;

/**
 * The project (the school's, else a 422 naming `project_id`) and the streams of its class the
 * member may enter scores in: every one for those who manage marks, else those of their
 * assignments for its subject, class, term and year (403 when none, or not the chosen stream).
 */
async function openProject(tx: TenantTx, projectId: string, stream: string | null, member: Member, lock = false) {
  const project = await projectOf(tx, projectId, lock);
  if (!project) throw invalid({ project_id: [PROJECT_SCORE_MESSAGES.projectUnknown] });
  const target = {
    form: project.form,
    stream,
    term: project.term as (typeof TERMS)[number],
    year: project.year,
    subject_id: project.subject_id,
  };
  let streams: 'all' | string[] = 'all';
  if (!allows(member.ability, 'manage', 'mark')) {
    const assignments = await assignmentsOf(tx, member.userId, { term: target.term, year: target.year });
    streams = streamsToEnter(member.ability, { subjects: assignments.subjects, classes: assignments.classes }, 'marks', target);
  }
  if (!mayOpen(streams, stream)) throw new AppError(403, MARK_MESSAGES.notAssigned);
  return { project, streams };
}

/** The project's learners (the marks grid's: those in the class that term, and those with its marks), by name. */
const learnersOfProject = (tx: TenantTx, project: Project, stream: string | null, streams: 'all' | string[]) =>
  learnersOf(tx, { form: project.form, stream, term: project.term, year: project.year, streams });

const aboutProject = (project: Project) => ({
  id: project.id,
  title: project.title,
  form: project.form,
  term: project.term,
  year: project.year,
  subject_id: project.subject_id,
  subject: { name: project.subject },
  max_score: Number(project.max_score),
});

const cellOf = (stored: StoredScore | undefined): ProjectScoreCell => ({
  score: stored?.score ?? null,
  comment: stored?.comment ?? null,
  version: stored?.version ?? 0,
});

/** The grid: the project's learners (a stream if chosen) with their score, comment and version. */
export async function loadScoresGrid(
  { tx, member }: ActionContext,
  query: Omit<ProjectScoresGridQuery, 'excel'>,
): Promise<ProjectScoresGrid> {
  const { project, streams } = await openProject(tx, query.project_id, query.stream, member);
  const learners = await learnersOfProject(tx, project, query.stream, streams);
  const stored = await storedScores(
    tx,
    project.id,
    learners.map((learner) => learner.id),
  );
  return {
    students: learners.map((student) => {
      const found = stored.get(student.id);
      return { student, scores: found ? cellOf(found) : null };
    }),
    project: aboutProject(project),
  };
}

/** `ProjectScores-S3-East-Mathematics-TermII-2026.xlsx` (`All` for every stream). */
export function scoresFileName(grid: ProjectScoresGrid, stream: string | null): string {
  const part = (text: string | null, fallback: string) => (text ?? '').replace(/[^A-Za-z0-9]+/g, '') || fallback;
  const { project } = grid;
  return `ProjectScores-${part(project.form, 'Class')}-${part(stream, 'All')}-${part(project.subject.name, 'Subject')}-Term${part(project.term, 'I')}-${project.year}.xlsx`;
}

/** What one learner's save asks: the score and comment wanted, and the version the grid showed (none: a sheet, overwriting). */
interface Wanted {
  student_id: string;
  score: number | null;
  comment: string | null;
  base?: number;
}

interface Plan {
  writes: ScoreWrite[];
  unchanged: number;
  conflicts: Array<Omit<ProjectScoreConflict, 'by'>>;
}

/** Each learner unchanged, written, or a conflict (someone changed it since the grid was loaded). */
function planScores(wanted: ReadonlyArray<Wanted>, stored: ReadonlyMap<string, StoredScore>): Plan {
  const plan: Plan = { writes: [], unchanged: 0, conflicts: [] };
  for (const cell of wanted) {
    const current = stored.get(cell.student_id);
    if ((current?.score ?? null) === cell.score && (current?.comment ?? null) === cell.comment) {
      plan.unchanged++;
      continue;
    }
    const version = current?.version ?? 0;
    if (cell.base !== undefined && cell.base !== version) {
      plan.conflicts.push({
        student_id: cell.student_id,
        theirs: { score: current?.score ?? null, comment: current?.comment ?? null },
        version,
        yours: { score: cell.score, comment: cell.comment },
      });
      continue;
    }
    plan.writes.push({ student_id: cell.student_id, score: cell.score, comment: cell.comment, ...(current ? { before: current } : {}) });
  }
  return plan;
}

/** Writes a plan (a conflict is a 409 naming each learner, theirs and who wrote it, and nothing is written). */
async function writePlan(tx: TenantTx, projectId: string, plan: Plan, stored: ReadonlyMap<string, StoredScore>) {
  if (plan.conflicts.length > 0) {
    const writers = plan.conflicts.map((conflict) => stored.get(conflict.student_id)?.userId ?? null);
    const names = await userNames(tx, writers);
    throw new AppError(409, PROJECT_SCORE_MESSAGES.conflict, undefined, {
      conflicts: plan.conflicts.map((conflict, index) => ({ ...conflict, by: names.get(writers[index] ?? '') ?? null })),
    });
  }
  await applyScoreChanges(tx, projectId, plan.writes);
}

/** §8's words for a save: created when it added a score (or changed nothing), else updated. */
const savedMessage = (plan: Plan) =>
  plan.writes.length === 0 || plan.writes.some((write) => !write.before) ? RESULT_MESSAGES.created : RESULT_MESSAGES.updated;

/** Every learner of a save as now stored, known from the plan under its lock: the grid's new base. */
function savedScores(
  studentIds: readonly string[],
  plan: Plan,
  stored: ReadonlyMap<string, StoredScore>,
): Record<string, ProjectScoreCell> {
  const written = new Map(plan.writes.map((write) => [write.student_id, write]));
  return Object.fromEntries(
    studentIds.map((id) => {
      const write = written.get(id);
      if (!write) return [id, cellOf(stored.get(id))];
      const gone = write.score === null && write.comment === null;
      return [id, { score: write.score, comment: write.comment, version: gone ? 0 : (write.before?.version ?? 0) + 1 }];
    }),
  );
}

/**
 * Saves a grid in the action's one transaction: the same `save_id` again answers what the first
 * answered and writes nothing; each score read against the project's maximum and each comment
 * checked, every refusal named `scores.<learner>.score` or `.comment`; a learner outside the
 * project's class (or a stream the member does not teach) named; a learner changed by someone
 * since the grid was loaded a 409 naming each; nothing written unless all is well.
 */
export async function saveScores({ tx, member }: ActionContext, body: ProjectScoresSave): Promise<ProjectScoresSaved> {
  const studentIds = Object.keys(body.scores);
  if (studentIds.length > MAX_GRID_CELLS) throw invalid({ scores: [MARK_MESSAGES.gridTooLarge] });
  const claimed = await claimSaveId(tx, body.save_id, member.userId, SAVE_ID_DAYS);
  if (!claimed) {
    const earlier = await savedAnswer(tx, body.save_id);
    if (earlier.user_id !== member.userId || earlier.answer === null) throw invalid({ save_id: [SETTINGS_MESSAGES.referenceMissing] });
    const now = await storedScores(tx, body.project_id, studentIds);
    return {
      ...(earlier.answer as Omit<ProjectScoresSaved, 'scores'>),
      scores: savedScores(studentIds, { writes: [], unchanged: 0, conflicts: [] }, now),
    };
  }
  // The project locked: saves of one project wait in turn, so two first scores of one learner cannot both be added.
  const { project, streams } = await openProject(tx, body.project_id, body.stream, member, true);
  const learners = new Set((await learnersOfProject(tx, project, body.stream, streams)).map((learner) => learner.id));
  const stored = await storedScores(tx, project.id, studentIds);
  const maximum = Number(project.max_score);
  const errors: FieldErrors = {};
  const wanted: Wanted[] = [];
  for (const [studentId, cell] of Object.entries(body.scores)) {
    const path = `scores.${studentId}`;
    if (!learners.has(studentId)) {
      errors[path] = [MARK_MESSAGES.learnerNotInClass];
      continue;
    }
    const current = stored.get(studentId);
    // A field left out keeps what is stored; null or blank clears it.
    const score = cell.score === undefined ? { ok: true as const, value: current?.score ?? null } : readProjectScore(cell.score, maximum);
    const comment = cell.comment === undefined ? { ok: true as const, value: current?.comment ?? null } : readProjectComment(cell.comment);
    if (!score.ok) errors[`${path}.score`] = [score.error];
    if (!comment.ok) errors[`${path}.comment`] = [comment.error];
    if (score.ok && comment.ok)
      wanted.push({ student_id: studentId, score: score.value, comment: comment.value, base: body.base[studentId] ?? 0 });
  }
  if (Object.keys(errors).length > 0) throw invalid(errors);
  const plan = planScores(wanted, stored);
  await writePlan(tx, project.id, plan, stored);
  const answer: ProjectScoresSaved = {
    saved: plan.writes.length,
    unchanged: plan.unchanged,
    scores: savedScores(studentIds, plan, stored),
    message: savedMessage(plan),
  };
  if (plan.writes.length > 0)
    await recordAudit(tx, {
      action: 'update',
      entity: 'project_scores',
      entityId: project.id,
      after: { saved: answer.saved, save_id: body.save_id },
    });
  const { scores: _cells, ...kept } = answer;
  await keepSaveAnswer(tx, body.save_id, kept);
  return answer;
}

/**
 * Saves a filled sheet (read and checked to be of this project and stream before the
 * transaction) in the action's one transaction: every row checked (its learner, its score
 * against the maximum, its comment), errors named `<row>.studentid`, `<row>.Score`,
 * `<row>.Comment`; an empty cell leaves what is stored; then written overwriting. All or nothing.
 */
export async function saveScoresSheet(
  { tx, member }: ActionContext,
  query: Pick<ProjectScoresGridQuery, 'project_id' | 'stream'>,
  sheet: ScoreSheet,
): Promise<{ message: string; saved: number; unchanged: number }> {
  const { project, streams } = await openProject(tx, query.project_id, query.stream, member, true);
  const inGrid = new Map((await learnersOfProject(tx, project, query.stream, streams)).map((learner) => [learner.studentid, learner]));
  const strangers = sheet.rows.flatMap((row) => (row.studentid !== null && !inGrid.has(row.studentid) ? [row.studentid] : []));
  const learners = { inGrid, elsewhere: await existingStudentids(tx, strangers) };
  const maximum = Number(project.max_score);
  const errors = new RowErrors();
  const seen = new Set<string>();
  const read: Array<{ student_id: string; score: number | null | undefined; comment: string | null | undefined }> = [];
  for (const row of sheet.rows) {
    const score = readProjectScore(cellValue(row.score), maximum);
    const comment = readProjectComment(cellValue(row.comment));
    if (!score.ok) errors.add(row.number, SCORE_SHEET.score, score.error);
    if (!comment.ok) errors.add(row.number, SCORE_SHEET.comment, comment.error);
    const filled = (score.ok && score.value !== null) || (comment.ok && comment.value !== null);
    // A row of notes, without a student id or a value, is passed by.
    if (row.studentid === null && !filled) continue;
    const learner = learnerOfRow(row, learners, seen, errors);
    if (learner && score.ok && comment.ok && filled)
      read.push({ student_id: learner.id, score: score.value ?? undefined, comment: comment.value ?? undefined });
  }
  errors.throwIfAny();
  const stored = await storedScores(
    tx,
    project.id,
    read.map((row) => row.student_id),
  );
  const wanted = read.map((row) => {
    const current = stored.get(row.student_id);
    return {
      student_id: row.student_id,
      score: row.score === undefined ? (current?.score ?? null) : row.score,
      comment: row.comment === undefined ? (current?.comment ?? null) : row.comment,
    };
  });
  const plan = planScores(wanted, stored);
  await writePlan(tx, project.id, plan, stored);
  if (plan.writes.length > 0)
    await recordAudit(tx, { action: 'upload', entity: 'project_scores', entityId: project.id, after: { saved: plan.writes.length } });
  return { message: savedMessage(plan), saved: plan.writes.length, unchanged: plan.unchanged };
}

/** The list: a project's scores with their learners (narrowed to a stream's learners when given). */
export async function listScores({ tx }: ActionContext, query: { project_id: string; stream: string | null }) {
  const project = await projectOf(tx, query.project_id);
  if (!project) throw invalid({ project_id: [PROJECT_SCORE_MESSAGES.projectUnknown] });
  let rows = await scoreListRows(tx, project.id);
  if (query.stream !== null) {
    const inStream = new Set((await learnersOfProject(tx, project, query.stream, 'all')).map((learner) => learner.id));
    rows = rows.filter((row) => inStream.has(row.student_id));
  }
  return {
    projectscores: rows.map((row) => ({
      id: row.id,
      project_id: row.project_id,
      student: {
        id: row.student_id,
        studentid: row.studentid,
        fullname: [row.firstname, row.othername, row.lastname].filter(Boolean).join(' '),
      },
      score: row.score === null ? null : Number(row.score),
      comment: row.comment,
    })),
  };
}

/**
 * A project's maximum is never lowered below a score already saved on it (a 7 out of 5 means
 * nothing): 422 naming `max_score`. The project is held while this is checked, as a save of its
 * scores holds it, so a score cannot slip in above the new maximum meanwhile.
 */
export async function keepScoresWithinMaximum(tx: TenantTx, input: Record<string, unknown>, id: string | null): Promise<void> {
  if (id === null || typeof input.max_score !== 'number') return;
  const highest = await highestProjectScore(tx, id);
  if (highest !== null && highest > input.max_score) throw invalid({ max_score: [PROJECT_SCORE_MESSAGES.maximumBelowScores] });
}
