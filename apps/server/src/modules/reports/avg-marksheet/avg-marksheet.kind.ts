import {
  AVG_MARKSHEET_WORDS,
  type AvgMarksheetModel,
  type AvgMarksheetQuery,
  avgMarksheetEndpoint,
  avgMarksheetFileName,
  escapeHtml,
  type GradeBand,
  type GradingSubject,
  gradeClass,
  gradeMeans,
  gradePaperMeans,
  meansOverTerms,
  paperMeansOverTerms,
  REPORT_MESSAGES,
  type ReportScope,
  TERMS,
  type TermPaperTotal,
  type TermSubjectTotal,
  toNumber,
} from '@mustard/shared';
import ExcelJS from 'exceljs';
import { invalid } from '../../../errors.js';
import { FileAnswer, spreadsheetAnswer } from '../../../plugins/endpoints.js';
import { AVG_MARKSHEET_DRAWER } from '../document-drawers.js';
import type { KindRead, ReportKind } from '../pipeline/kind.js';
import { gradingInputsOf } from '../pipeline/loader.js';
import { sheetRows } from './table.js';

/*
 * The average mark sheet as a report kind (issue 28 point 5): the class in every term of the
 * year, read by the one loader; each term graded by the one grader (gradeClass) as the cards
 * are; each learner's each subject's mean over the terms taken (never a missing term as 0);
 * then the means graded by the same grader with the year's last term's grade sets, which
 * recomputes aggregates or divisions and positions (ties share a rank) by the school's rules.
 */

const W = AVG_MARKSHEET_WORDS;

/** The scope: the class in the three terms of the year, the exam's mark types. */
export const avgMarksheetScope = (query: AvgMarksheetQuery): ReportScope => ({
  classes: [query.form],
  streams: query.stream ? [query.stream] : [],
  terms: TERMS.map((term) => ({ term, year: query.year })),
  markTypeIds: [],
  category: 'exam',
  learners: [],
  studentCategory: null,
});

/** Builds the model (pure): refuses a class without learners or marks. */
export function buildAvgMarksheet({ query, load }: KindRead<AvgMarksheetQuery, never>): AvgMarksheetModel {
  if (!load.classes.some((each) => each.learners.length > 0)) throw invalid({ form: [REPORT_MESSAGES.noLearners] });
  // The terms taken: those of the year with marks of the class (a term not yet written is no term).
  const terms = load.classes.filter((each) => each.learners.length > 0 && each.marks.length > 0);
  const last = terms[terms.length - 1];
  if (!last) throw invalid({ form: [REPORT_MESSAGES.noMarks] });
  const alevel = last.level === 'alevel';

  // Each term graded as the cards grade it; a subject total per learner and term.
  const totals: TermSubjectTotal[] = [];
  // A level: each paper's mark per learner and term (each paper is graded on its own).
  const paperTotals: TermPaperTotal[] = [];
  const learners = new Map<string, { id: string; studentid: string; fullname: string; stream: string | null }>();
  const subjects = new Map<string, GradingSubject>();
  const bands = new Map<string, GradeBand[]>();
  const termsWithMarks: string[] = [];
  for (const inputs of terms) {
    const graded = gradeClass(
      inputs.learners.map((learner) => ({ id: learner.id, stream: learner.stream })),
      inputs.marks,
      gradingInputsOf(load, inputs, { rawmark: false }),
    );
    termsWithMarks.push(inputs.term);
    for (const learner of inputs.learners) learners.set(learner.id, learner);
    for (const subject of inputs.subjects) subjects.set(subject.id, subject);
    // The year's last term that has a subject's grade set grades its mean.
    for (const [subject, set] of inputs.bands) if (set.length > 0) bands.set(subject, set);
    for (const result of graded.results)
      for (const subject of result.subjects) {
        if (alevel)
          for (const paper of subject.row.papers ?? [])
            paperTotals.push({ student_id: result.learner.id, subject_id: subject.row.subject_id, paper: paper.paper, total: paper.mark });
        totals.push({
          student_id: result.learner.id,
          subject_id: subject.row.subject_id,
          total: subject.exact === null ? null : toNumber(subject.exact),
        });
      }
  }

  const means = meansOverTerms(totals);
  const paperMeans = paperMeansOverTerms(paperTotals);
  const everyone = [...learners.values()].sort((a, b) => a.fullname.localeCompare(b.fullname));
  const meanInputs = {
    level: last.level,
    rules: load.settings.rules,
    markTypeLabels: load.markTypeLabels,
    subjects: [...subjects.values()],
    bands,
  };
  const gradedLearners = everyone.map((learner) => ({ id: learner.id, stream: learner.stream }));
  const graded = alevel ? gradePaperMeans(gradedLearners, paperMeans, meanInputs) : gradeMeans(gradedLearners, means, meanInputs);
  // A level: each subject's papers any learner has a mean in, in the graded order.
  const papersOf = new Map<string, string[]>();
  const printed = graded.results.filter(
    (result) => !query.stream || (result.learner.stream ?? '').toLowerCase() === query.stream.toLowerCase(),
  );
  const rows = printed.map((result) => {
    const learner = learners.get(result.learner.id);
    const position = graded.positions.get(result.learner.id)?.class.value?.rank ?? null;
    const bySubject: AvgMarksheetModel['learners'][number]['subjects'] = {};
    for (const subject of result.subjects) {
      const id = subject.row.subject_id;
      if (alevel) {
        const ofPapers = paperMeans.get(result.learner.id)?.get(id);
        if (!ofPapers) continue;
        const papers = (subject.row.papers ?? []).flatMap((paper) => {
          const mean = ofPapers.get(paper.paper);
          if (mean === undefined) return [];
          return [{ paper: paper.paper, mean: mean?.mean ?? null, terms: mean?.terms ?? 0, grade: paper.grade }];
        });
        const known = papersOf.get(id) ?? [];
        for (const paper of papers) if (!known.includes(paper.paper)) known.push(paper.paper);
        papersOf.set(id, known);
        bySubject[id] = {
          mean: subject.row.total,
          terms: Math.max(0, ...papers.map((paper) => paper.terms)),
          grade: subject.row.grade,
          points: subject.row.points,
          papers,
        };
        continue;
      }
      const mean = means.get(result.learner.id)?.get(id);
      if (mean) bySubject[id] = { mean: mean.mean, terms: mean.terms, grade: subject.row.grade };
    }
    return {
      id: result.learner.id,
      studentid: learner?.studentid ?? '',
      name: learner?.fullname ?? '',
      stream: result.learner.stream,
      subjects: bySubject,
      total: result.total.value === null ? null : toNumber(result.total.value),
      average: result.average.value === null ? null : toNumber(result.average.value),
      aggregate: result.aggregate?.value ?? null,
      division: result.division?.value ?? null,
      points: result.points?.value ?? null,
      position,
    };
  });
  rows.sort((a, b) => (a.position ?? Number.POSITIVE_INFINITY) - (b.position ?? Number.POSITIVE_INFINITY) || a.name.localeCompare(b.name));
  const shown = new Set(rows.flatMap((row) => Object.keys(row.subjects)));
  return {
    report: {
      school: load.school.name,
      form: query.form,
      stream: query.stream ?? null,
      year: query.year,
      level: last.level,
      terms: termsWithMarks,
      gradeSetTerm: last.term,
    },
    subjects: [...subjects.values()]
      .filter((subject) => shown.has(subject.id))
      .map((subject) => ({
        subject_id: subject.id,
        subject: subject.name,
        code: subject.code,
        ...(alevel ? { papers: [...(papersOf.get(subject.id) ?? [])].sort(byPaper) } : {}),
      })),
    learners: rows,
    explain: {
      ...(alevel
        ? {
            papers:
              'A level: each paper’s mean over the terms the learner has a mark in (an absent or missing term left out, never 0), graded D1..F9 on its own; the subject’s mark is the mean of its papers’ means',
            points:
              'A principal subject’s letter and points, a subsidiary’s points, from the graded paper means as on the cards; their total',
          }
        : {}),
      mean: 'Each subject: the mean of its totals over the terms the learner has a mark in (an absent or missing term is left out, never 0)',
      grade: `Each mean graded by the subject's grade set of term ${last.term} ${query.year}, as the report cards grade a mark`,
      total: 'The sum of the means',
      aggregate: "The aggregate and division from the graded means by the school's rules",
      position: 'The position in the class by the school’s ranking; ties share a rank',
    },
  };
}

const PAPER_ORDER = ['I', 'II', 'III', 'IV', 'V', 'VI'];
const byPaper = (a: string, b: string) => (PAPER_ORDER.indexOf(a) + 1 || 99) - (PAPER_ORDER.indexOf(b) + 1 || 99) || a.localeCompare(b);

const FORMULA_START = /^[=+\-@\t\r]/;

/** The workbook: the school and what the sheet is of, then the table (numbers as numbers). */
export async function avgMarksheetWorkbook(model: AvgMarksheetModel): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Mustard';
  const sheet = workbook.addWorksheet('Average marksheet', { pageSetup: { orientation: 'landscape', paperSize: 9, fitToPage: true } });
  const { report } = model;
  const { head, rows } = sheetRows(model);
  const lines: Array<Array<string | number | null>> = [
    [report.school],
    [W.title],
    [W.class, report.form],
    [W.stream, report.stream ?? W.allStreams],
    [W.year, report.year],
    [W.terms, report.terms.join(', ')],
    [W.gradeSet, report.gradeSetTerm],
    [],
    head,
    ...rows,
  ];
  lines.forEach((values, index) => {
    const row = sheet.getRow(index + 1);
    values.forEach((value, column) => {
      const cell = row.getCell(column + 1);
      cell.value = value;
      if (typeof value === 'string' && FORMULA_START.test(value)) cell.numFmt = '@';
    });
  });
  sheet.getRow(1).font = { bold: true, size: 14 };
  sheet.getRow(2).font = { bold: true };
  sheet.getRow(9).font = { bold: true };
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The preview: the same table as HTML, every text escaped. */
export function renderAvgMarksheetHtml(model: AvgMarksheetModel): string {
  const { report } = model;
  const { head, rows } = sheetRows(model);
  const cell = (value: string | number | null, tag = 'td') => `<${tag}>${escapeHtml(value === null ? '' : String(value))}</${tag}>`;
  return [
    '<!doctype html><html><head><meta charset="utf-8"><style>body{font-family:sans-serif;font-size:12px}table{border-collapse:collapse}td,th{border:1px solid #999;padding:2px 4px}</style></head><body>',
    `<h2>${escapeHtml(report.school)}</h2>`,
    `<h3>${escapeHtml(W.title)}</h3>`,
    `<p>${escapeHtml(`${W.class} ${report.form} · ${W.stream} ${report.stream ?? W.allStreams} · ${W.year} ${report.year} · ${W.terms} ${report.terms.join(', ')} · ${W.gradeSet} ${report.gradeSetTerm}`)}</p>`,
    `<table><thead><tr>${head.map((value) => cell(value, 'th')).join('')}</tr></thead><tbody>`,
    ...rows.map((row) => `<tr>${row.map((value) => cell(value)).join('')}</tr>`),
    '</tbody></table></body></html>',
  ].join('');
}

const fileName = (model: AvgMarksheetModel, extension: string) => `${avgMarksheetFileName(model.report)}.${extension}`;

/** The average mark sheet kind: json, preview, workbook, otherwise the PDF through the document pool. */
export const avgMarksheetKind = {
  name: 'avgmarksheet',
  curriculum: 'old',
  endpoint: avgMarksheetEndpoint,
  scope: avgMarksheetScope,
  sources: [] as const,
  build: buildAvgMarksheet,
  output: (query) => (query.json ? 'json' : query.html ? 'html' : query.excel ? 'xlsx' : 'pdf'),
  render: {
    json: async (model) => model,
    html: async (model) => ({ html: renderAvgMarksheetHtml(model) }),
    xlsx: async (model) => spreadsheetAnswer(fileName(model, 'xlsx'), await avgMarksheetWorkbook(model)),
    pdf: async (model, _context, draw) =>
      new FileAnswer(fileName(model, 'pdf'), 'application/pdf', await draw(AVG_MARKSHEET_DRAWER, model)),
  },
} satisfies ReportKind<typeof avgMarksheetEndpoint, AvgMarksheetModel, never>;
