import { ANALYSIS_WORDS, type AnalysisModel, escapeHtml } from '@mustard/shared';
import { ncAnalysisHeading, ncAnalysisTables, ncCellText } from './tables.js';

/*
 * The new-curriculum result analysis's preview (`html=1`): one HTML document, the tables of
 * tables.ts with each column's explanation as its header's tooltip, every text of the school
 * escaped, numbers with the query's decimals (display only).
 */

/** The preview of a new-curriculum class's analysis (the model's `newCurriculum` part). */
export function renderNcAnalysisHtml(model: AnalysisModel): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(ANALYSIS_WORDS.title)}</title><style>
body{margin:0;padding:12px;font:12px/1.3 "DejaVu Sans",Arial,sans-serif;color:#111}
table{border-collapse:collapse;margin:6px 0 12px}th,td{border:1px solid #999;padding:2px 4px;text-align:center}
td:first-child{text-align:left}th{background:#e8e8e8}th[title]{cursor:help}h1{font-size:16px;margin:0}h2{font-size:14px;margin:0 0 2px}
h3{font-size:13px;margin:10px 0 2px}p{margin:2px 0}
</style></head><body data-curriculum="new">${ncAnalysisSectionHtml(model)}</body></html>`;
}

/** A new-curriculum class's analysis as a part of a document (alone, or one class of a whole school's). */
export function ncAnalysisSectionHtml(model: AnalysisModel): string {
  const { report, explain } = model;
  const nc = model.newCurriculum;
  const tables = nc ? ncAnalysisTables(nc) : [];
  const th = (label: string, key: string | undefined) =>
    `<th${key && explain[key] ? ` title="${escapeHtml(explain[key] ?? '')}"` : ''}>${escapeHtml(label)}</th>`;
  const body = tables
    .map((table) => {
      const title = table.title ? `<h3>${escapeHtml(table.title)}</h3>` : '';
      const head = `<tr>${table.head.map((label, index) => th(label, table.explain[index])).join('')}</tr>`;
      const rows = table.rows
        .map(
          (row) =>
            `<tr>${row.map((cell, index) => `<td>${escapeHtml(ncCellText(cell, table.decimal[index] ?? false, report.precision))}</td>`).join('')}</tr>`,
        )
        .join('');
      return `${title}<table><thead>${head}</thead><tbody>${rows}</tbody></table>`;
    })
    .join('\n');
  const lines = ncAnalysisHeading(model)
    .map((line) => `<p>${escapeHtml(line)}</p>`)
    .join('');
  return `<section data-curriculum="new"><h2>${escapeHtml(report.school)}</h2><h1>${escapeHtml(ANALYSIS_WORDS.title)}</h1>${lines}
${body}</section>`;
}
