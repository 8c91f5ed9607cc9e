import {
  ABSENT,
  chartFigureHtml,
  divisionChange,
  escapeHtml,
  gradeClass,
  learnerHistoryScope,
  localDay,
  type ProgressReportModel,
  type ProgressReportQuery,
  progressChange,
  progressReportEndpoint,
  progressReportFileName,
  REPORT_MESSAGES,
  type ReportScope,
  toNumber,
  PROGRESS_REPORT_WORDS as W,
} from '@mustard/shared';
import type { TenantTx } from '../../../db/tenant.js';
import { inTenant } from '../../../db/tenant-filter.js';
import { invalid } from '../../../errors.js';
import { FileAnswer } from '../../../plugins/endpoints.js';
import { curriculumSettings } from '../../settings/class-curricula.repository.js';
import { PROGRESS_REPORT_DRAWER } from '../document-drawers.js';
import type { KindRead, ReportKind } from '../pipeline/kind.js';
import { type ClassTermInputs, gradingInputsOf, loadGradingInputs } from '../pipeline/loader.js';
import { progressRows, trendChart } from './table.js';

/*
 * The progressive report as a report kind (issue 28 point 4; statistics.md "Cumulative,
 * progressive and average mark sheet"): one learner across every term on record. The scope is
 * the learner's history (learnerHistoryScope: every class and term they have marks in); then
 * (readMore) each of those terms is read again as the whole class it was, so each term is graded
 * by the one grader (gradeClass) as that term's card graded it: its grade sets, its mark types,
 * its class's positions. Rows subjects, a column per term, oldest first; per term total, average,
 * aggregate or points, division, position and the change from the term before (lower is better
 * for aggregates and positions, higher for marks and points; ABS and missing give no change,
 * never a 0); the average's trend line. An old-curriculum kind: a class on the new curriculum
 * is refused, and a new-curriculum term of the learner's history is left out, saying so.
 */

/** The learner and their terms, each as the whole class read (readMore). */
export interface ProgressHistory {
  learner: { id: string; studentid: string; name: string; form: string; stream: string | null };
  /** The learner's terms on the old curriculum, oldest first, each its whole class. */
  classes: ClassTermInputs[];
  leftOut: ProgressReportModel['leftOut'];
}

const same = (a: string | null | undefined, b: string | null | undefined) =>
  (a ?? '').trim().toLowerCase() === (b ?? '').trim().toLowerCase();
const TERM_ORDER = { I: 1, II: 2, III: 3 } as const;
const chronological = (a: { term: string; year: number }, b: { term: string; year: number }) =>
  a.year - b.year || (TERM_ORDER[a.term as keyof typeof TERM_ORDER] ?? 0) - (TERM_ORDER[b.term as keyof typeof TERM_ORDER] ?? 0);

/** The scope: the learner's whole history (the classes and terms their marks are in). */
export const progressReportScope = (query: ProgressReportQuery): ReportScope => learnerHistoryScope(query.student_id);

/**
 * Reads the learner (of this school, and of the chosen class and stream now: else a 422 on
 * student_id), refuses a class on the new curriculum (422 on form), and reads each term of the
 * learner's history again as its whole class: one load per class the learner was in.
 */
export async function readProgressHistory(tx: TenantTx, { query, load }: KindRead<ProgressReportQuery, never>): Promise<ProgressHistory> {
  const row = await tx.trx
    .selectFrom('students')
    .select(['id', 'studentid', 'firstname', 'othername', 'lastname', 'form', 'stream'])
    .$call(inTenant(tx.tenantId))
    .where('id', '=', query.student_id)
    .executeTakeFirst();
  if (!row) throw invalid({ student_id: [REPORT_MESSAGES.learnerUnknown] });
  if (!same(row.form, query.form) || (query.stream && !same(row.stream, query.stream)))
    throw invalid({ student_id: [REPORT_MESSAGES.learnerNotInClass] });
  const name = [row.firstname, row.othername, row.lastname].filter(Boolean).join(' ');
  const learner = { id: row.id, studentid: row.studentid, name, form: row.form, stream: row.stream };

  const years = [...new Set(load.classes.map((each) => each.year))];
  const latest = Math.max(Number(localDay().slice(0, 4)), ...years);
  const curricula = new Map<number, (form: string) => boolean>();
  for (const year of new Set([...years, latest])) curricula.set(year, (await curriculumSettings(tx, year)).isNew);
  if (curricula.get(latest)?.(query.form)) throw invalid({ form: [REPORT_MESSAGES.newCurriculumClass] });

  const leftOut: ProgressHistory['leftOut'] = [];
  const byForm = new Map<string, Array<{ term: ClassTermInputs['term']; year: number }>>();
  for (const each of load.classes) {
    if (curricula.get(each.year)?.(each.form)) {
      leftOut.push({ term: each.term, year: each.year, form: each.form, reason: W.newCurriculumTerm });
      continue;
    }
    const terms = byForm.get(each.form) ?? [];
    terms.push({ term: each.term, year: each.year });
    byForm.set(each.form, terms);
  }
  // One load per class the learner was in (bounded by the history's classes and terms): the whole class, so positions are real.
  const classes: ClassTermInputs[] = [];
  for (const [form, terms] of byForm) {
    const whole = await loadGradingInputs(tx, {
      classes: [form],
      streams: [],
      terms,
      markTypeIds: [],
      category: 'exam',
      learners: [],
      studentCategory: null,
    });
    classes.push(...whole.classes.filter((each) => each.marks.some((mark) => mark.student_id === learner.id)));
  }
  return { learner, classes: classes.sort(chronological), leftOut: leftOut.sort(chronological) };
}

const EXPLAIN: ProgressReportModel['explain'] = {
  term: 'Each term as its report card computed it: that term’s exams, grade sets and class (the class the learner was in)',
  mark: 'A subject’s mark: its total out of 100 that term, graded by that term’s grade set',
  change:
    'Against the term before: higher is better for marks, averages and points, lower for aggregates and positions; an ABS or missing term gives no change (never 0)',
  position: 'The position in the whole class that term by the school’s ranking; ties share a rank',
  trend: 'The learner’s average mark term by term',
};

/** Builds the model (pure): each term graded by the one grader over its whole class. */
export function buildProgressReport({
  query,
  load,
  more,
}: KindRead<ProgressReportQuery, never> & { more?: ProgressHistory }): ProgressReportModel {
  if (!more) throw new Error('The progressive report reads the learner’s history first (readMore)');
  const { learner } = more;
  const rawmark = load.settings.layout.markValues !== 'weighted';
  const terms: ProgressReportModel['terms'] = [];
  const cells = new Map<
    string,
    { subject: string; code: string | null; byTerm: Map<number, ProgressReportModel['subjects'][number]['terms'][number]> }
  >();
  const order: string[] = [];
  for (const [index, inputs] of more.classes.entries()) {
    const graded = gradeClass(
      inputs.learners.map((each) => ({ id: each.id, stream: each.stream })),
      inputs.marks,
      gradingInputsOf(load, inputs, { rawmark }),
    );
    const result = graded.results.find((each) => each.learner.id === learner.id);
    const before = terms[index - 1];
    const average = result?.average.value ?? null;
    const position = graded.positions.get(learner.id)?.class.value?.rank ?? null;
    const aggregate = result?.aggregate?.value ?? null;
    const points = result?.points?.value ?? null;
    const division = result?.division?.value ?? null;
    terms.push({
      term: inputs.term,
      year: inputs.year,
      form: inputs.form,
      stream: inputs.learners.find((each) => each.id === learner.id)?.stream ?? null,
      level: inputs.level,
      markTypes: inputs.markTypes.map((type) => type.label),
      total: result?.total.value == null ? null : toNumber(result.total.value),
      average: average === null ? null : toNumber(average),
      aggregate,
      division,
      points,
      position,
      outOf: graded.ranked.class,
      change: {
        average: progressChange(before?.average, average, 'higher'),
        aggregate: progressChange(before?.aggregate, aggregate, 'lower'),
        points: progressChange(before?.points, points, 'higher'),
        position: progressChange(before?.position, position, 'lower'),
        division: before ? divisionChange(before.division, division) : null,
      },
    });
    for (const subject of result?.subjects ?? []) {
      const id = subject.row.subject_id;
      if (!cells.has(id)) {
        cells.set(id, { subject: subject.row.subject, code: subject.row.code, byTerm: new Map() });
        order.push(id);
      }
      const absent = subject.exact === null && subject.graded.value === ABSENT;
      cells.get(id)?.byTerm.set(index, { mark: subject.row.total, grade: subject.row.grade, absent, change: null });
    }
  }
  // A subject's change: from the last term before with a mark (an ABS or missing term is skipped, never 0).
  const subjects = order.map((id) => {
    const entry = cells.get(id);
    let previous: number | null = null;
    const row = terms.map((_, index) => {
      const cell = entry?.byTerm.get(index) ?? null;
      if (cell && cell.mark !== null) {
        cell.change = progressChange(previous, cell.mark, 'higher');
        previous = cell.mark;
      }
      return cell;
    });
    return { subject_id: id, subject: entry?.subject ?? '', code: entry?.code ?? null, terms: row };
  });
  const empty = terms.length > 0 ? null : more.leftOut.length > 0 ? W.onlyNewCurriculum : W.noMarks;
  return {
    report: { school: load.school.name, title: W.title, form: query.form, stream: query.stream ?? null },
    learner,
    terms,
    subjects,
    trend: terms.map((term) => ({ label: `${term.form} ${term.term} ${term.year}`, value: term.average })),
    leftOut: more.leftOut,
    empty,
    explain: EXPLAIN,
  };
}

/** The preview: the learner, the table, the trend line (an inline SVG), every text escaped. */
export function renderProgressReportHtml(model: ProgressReportModel): string {
  const { report, learner } = model;
  const { head, rows } = progressRows(model);
  const cell = (value: string, tag = 'td') => `<${tag}>${escapeHtml(value)}</${tag}>`;
  const parts = [
    '<!doctype html><html><head><meta charset="utf-8"><style>body{font-family:sans-serif;font-size:12px}table{border-collapse:collapse}td,th{border:1px solid #999;padding:2px 4px;text-align:left}.why{font-style:italic}</style></head><body>',
    `<h2>${escapeHtml(report.school)}</h2>`,
    `<h3>${escapeHtml(report.title)}</h3>`,
    `<p>${escapeHtml(W.subtitle)}</p>`,
    `<p>${escapeHtml(`${W.name} ${learner.name} · ${W.studentId} ${learner.studentid} · ${W.class} ${learner.form} · ${W.stream} ${learner.stream ?? ''}`)}</p>`,
  ];
  if (model.empty) parts.push(`<p class="why">${escapeHtml(model.empty)}</p>`);
  else {
    parts.push(`<table><thead><tr>${head.map((value) => cell(value, 'th')).join('')}</tr></thead><tbody>`);
    for (const row of rows) parts.push(`<tr>${row.map((value, index) => cell(value, index === 0 ? 'th' : 'td')).join('')}</tr>`);
    parts.push('</tbody></table>');
    parts.push(chartFigureHtml(trendChart(model), { id: 'trend' }));
  }
  if (model.leftOut.length > 0)
    parts.push(
      `<p class="why">${escapeHtml(`${W.leftOut}: ${model.leftOut.map((each) => `${each.form} ${each.term} ${each.year} (${each.reason})`).join('; ')}`)}</p>`,
    );
  parts.push('</body></html>');
  return parts.join('');
}

const fileName = (model: ProgressReportModel) => `${progressReportFileName(model.report, model.learner.studentid)}.pdf`;

/** The progressive report kind: json, preview, otherwise the PDF through the document pool. */
export const progressReportKind = {
  name: 'progressreport',
  curriculum: 'old',
  endpoint: progressReportEndpoint,
  scope: progressReportScope,
  sources: [] as const,
  readMore: readProgressHistory,
  build: buildProgressReport,
  output: (query) => (query.json ? 'json' : query.html ? 'html' : 'pdf'),
  render: {
    json: async (model) => model,
    html: async (model) => ({ html: renderProgressReportHtml(model) }),
    pdf: async (model, _context, draw) => new FileAnswer(fileName(model), 'application/pdf', await draw(PROGRESS_REPORT_DRAWER, model)),
  },
} satisfies ReportKind<typeof progressReportEndpoint, ProgressReportModel, never, ProgressHistory>;
