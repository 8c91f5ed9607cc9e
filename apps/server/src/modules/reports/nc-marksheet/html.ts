import { escapeHtml, type NcMarksheetModel, ncMarksheetText, NC_MARKSHEET_WORDS as W } from '@mustard/shared';
import { NC_SUBJECT_COLUMNS } from './workbook.js';

/*
 * The new-curriculum mark sheet's preview (issue 27 point 4): one HTML document for the web's
 * sandboxed frame (no script), the same model as the workbook and the PDF: the learners by
 * subject (a subject's code over its six columns), then the counts per identifier and per grade.
 * Every text of the school or a learner is escaped.
 */

const STYLE = `
body{margin:0;padding:12px;background:#fff;font:12px/1.3 "DejaVu Sans","Liberation Sans",Arial,sans-serif;color:#111}
header h1{font-size:18px;margin:0}header h2{font-size:14px;margin:4px 0 0;letter-spacing:.04em}header p{margin:2px 0}
table{border-collapse:collapse;margin:6px 0 12px}
th,td{border:1px solid #999;padding:2px 4px;white-space:nowrap}
td.num{text-align:center}thead th{background:#e8e8e8}
tbody tr:nth-child(even){background:#f6f6f6}
h3{font-size:13px;margin:10px 0 2px}
`;

const td = (value: number | string | null, text = false) =>
  `<td class="${text ? 'text' : 'num'}">${escapeHtml(ncMarksheetText(value))}</td>`;

function header(model: NcMarksheetModel): string {
  const { report } = model;
  const about = `${W.class} ${report.form} · ${report.stream ?? W.allStreams} · ${W.term} ${report.term} · ${report.year}`;
  return `<header><h1>${escapeHtml(model.school.name)}</h1><h2>${escapeHtml(W.title)}</h2><p class="about">${escapeHtml(about)}</p><p>${escapeHtml(
    `${W.markType}: ${report.marktype?.label ?? W.none}`,
  )}</p></header>`;
}

function sheet(model: NcMarksheetModel): string {
  const first = [W.number, W.studentId, W.name].map((head) => `<th rowspan="2">${escapeHtml(head)}</th>`).join('');
  const subjects = model.subjects
    .map((subject) => `<th colspan="${NC_SUBJECT_COLUMNS.length}" title="${escapeHtml(subject.name)}">${escapeHtml(subject.code)}</th>`)
    .join('');
  const second = model.subjects.map(() => NC_SUBJECT_COLUMNS.map((head) => `<th>${escapeHtml(head)}</th>`).join('')).join('');
  const body = model.learners
    .map((learner, index) => {
      const cells = learner.subjects
        .map((cell) =>
          [cell.score, cell.identifier, cell.formative, cell.summative, cell.total, cell.grade].map((value) => td(value)).join(''),
        )
        .join('');
      return `<tr data-learner="${escapeHtml(learner.studentid)}">${td(index + 1)}${td(learner.studentid, true)}${td(learner.fullname, true)}${cells}</tr>`;
    })
    .join('');
  return `<table class="sheet"><thead><tr>${first}${subjects}</tr><tr>${second}</tr></thead><tbody>${body}</tbody></table>`;
}

function counts(model: NcMarksheetModel): string {
  const table = (name: string, title: string, heads: string[], values: (index: number) => number[]) => {
    const head = [W.subject, ...heads].map((text) => `<th>${escapeHtml(text)}</th>`).join('');
    const rows = model.subjects
      .map(
        (subject, index) =>
          `<tr>${td(subject.name, true)}${values(index)
            .map((value) => td(value))
            .join('')}</tr>`,
      )
      .join('');
    return `<div data-counts="${name}"><h3>${escapeHtml(title)}</h3><table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></div>`;
  };
  return `<section class="counts">${table('identifiers', W.identifierCounts, model.identifiers, (index) => model.counts[index]?.identifiers ?? [])}${table(
    'grades',
    W.gradeCounts,
    model.grades,
    (index) => model.counts[index]?.grades ?? [],
  )}</section>`;
}

/** The whole preview document. */
export function renderNcMarksheetHtml(model: NcMarksheetModel): string {
  const title = `${W.title} ${model.report.form} ${model.report.term} ${model.report.year}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${header(
    model,
  )}${sheet(model)}${counts(model)}</body></html>`;
}
