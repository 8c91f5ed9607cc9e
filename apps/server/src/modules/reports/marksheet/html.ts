import {
  escapeHtml,
  explainText,
  MARKSHEET_TYPE_WORDS,
  type MarksheetCell,
  type MarksheetCounts,
  type MarksheetTable,
  marksheetCellText,
  marksheetCountTables,
  marksheetTitle,
  REPORT_WORDS,
  type ReportModel,
  MARKSHEET_WORDS as W,
} from '@mustard/shared';

/*
 * The mark sheet's preview (issue 15 point 7): one HTML document for the web's sandboxed frame
 * (no script), drawn from the same table and counts as the workbook and the PDF. Every text of
 * the school or a learner is escaped. The header rows stay in view while the table scrolls.
 */

const STYLE = `
body{margin:0;padding:12px;background:#fff;font:12px/1.3 "DejaVu Sans","Liberation Sans",Arial,sans-serif;color:#111}
header{margin-bottom:8px}header h1{font-size:18px;margin:0}header h2{font-size:14px;margin:4px 0 0;letter-spacing:.04em}
header p{margin:2px 0}
table{border-collapse:collapse;margin:6px 0 12px}
th,td{border:1px solid #999;padding:2px 4px;white-space:nowrap}
td.num{text-align:center}td.text{text-align:left}
table.sheet thead th{position:sticky;background:#e8e8e8;z-index:1}
table.sheet thead tr:first-child th{top:0;height:18px}
table.sheet thead tr:nth-child(2) th{top:23px}
table.sheet tbody tr:nth-child(even){background:#f6f6f6}
th[title]{cursor:help}
h3{font-size:13px;margin:10px 0 2px}
.counts{display:flex;flex-wrap:wrap;gap:0 24px}
.warnings{background:#fff4f4;border:1px solid #d33;padding:6px 10px;margin:6px 0}
.warnings h3{margin:0 0 4px}.warnings li{margin:2px 0}
.key{font-size:11px;color:#333}
@media print{table.sheet thead th{position:static}.warnings{display:none}}
`;

const cell = (value: MarksheetCell, align: 'left' | 'center') =>
  `<td class="${align === 'left' ? 'text' : 'num'}">${escapeHtml(marksheetCellText(value))}</td>`;

function header(model: ReportModel): string {
  const { school, report } = model;
  const contact = [school.address, school.phone, school.email].filter(Boolean).join(' · ');
  const lines = [...school.lines, contact].filter((line) => line && line.trim() !== '');
  const types = model.markTypes.map((type) => type.label).join(', ');
  return `<header><h1>${escapeHtml(school.name)}</h1>${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}<h2>${escapeHtml(
    `${W.title} — ${MARKSHEET_TYPE_WORDS[report.category]}`,
  )}</h2><p class="about">${escapeHtml(marksheetTitle(model))}</p>${types ? `<p>${escapeHtml(`${W.markTypes}: ${types}`)}</p>` : ''}</header>`;
}

function sheet(table: MarksheetTable): string {
  const first = table.headings
    .map((heading) =>
      heading.grouped
        ? `<th colspan="${heading.span}" title="${escapeHtml(heading.title)}">${escapeHtml(heading.label)}</th>`
        : `<th rowspan="2">${escapeHtml(heading.label)}</th>`,
    )
    .join('');
  const second = table.columns
    .filter((column) => column.subject_id !== null)
    .map((column) => `<th>${escapeHtml(column.header)}</th>`)
    .join('');
  const body = table.rows
    .map((row) => {
      const studentid = row.cells[table.columns.findIndex((column) => column.kind === 'studentid')];
      const cells = row.cells.map((value, index) => cell(value, table.columns[index]?.align ?? 'center')).join('');
      return `<tr data-learner="${escapeHtml(String(studentid ?? ''))}" data-id="${escapeHtml(row.id)}">${cells}</tr>`;
    })
    .join('');
  return `<table class="sheet"><thead><tr>${first}</tr><tr>${second}</tr></thead><tbody>${body}</tbody></table>`;
}

function counts(model: ReportModel, counted: MarksheetCounts): string {
  const tables = marksheetCountTables(counted).map((table, index) => {
    const name = index === 0 ? 'grades' : (counted.results?.kind ?? 'results');
    const head = table.head.map((text) => `<th>${escapeHtml(text)}</th>`).join('');
    const rows = table.rows
      .map((row) => `<tr>${row.map((value, column) => cell(value, column === 0 ? 'left' : 'center')).join('')}</tr>`)
      .join('');
    return `<div data-counts="${name}"><h3>${escapeHtml(table.title)}</h3><table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></div>`;
  });
  const key = counted.subjects.map((row) => `${row.subject.code} ${row.subject.name}`).join(' · ');
  return `<section class="counts">${tables.join('')}</section>${
    key ? `<p class="key">${escapeHtml(`${W.subjectsKey}: ${key}`)}</p>` : ''
  }${model.gradeKey ? `<p class="key">${escapeHtml(`${REPORT_WORDS.gradeKey}: ${model.gradeKey}`)}</p>` : ''}`;
}

/** What a head teacher should fix first (proportions, grade sets): on the preview, as on the report cards'. */
function warnings(model: ReportModel): string {
  if (model.warnings.length === 0) return '';
  return `<aside class="warnings" role="alert"><h3>${escapeHtml(REPORT_WORDS.warnings)}</h3><ul>${model.warnings
    .map(
      (warning) =>
        `<li>${warning.subject ? `<b>${escapeHtml(warning.subject)}:</b> ` : ''}${escapeHtml(explainText(warning.explain))}</li>`,
    )
    .join('')}</ul></aside>`;
}

/** The whole preview document. */
export function renderMarksheetHtml(model: ReportModel, table: MarksheetTable, counted: MarksheetCounts): string {
  const title = `${W.title} ${marksheetTitle(model)}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${header(
    model,
  )}${warnings(model)}${sheet(table)}${counts(model, counted)}</body></html>`;
}
