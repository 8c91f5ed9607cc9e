import {
  escapeHtml,
  explainText,
  type SchoolStatisticsModel,
  type StatisticsModel,
  statisticsChartsHtml,
  STATISTICS_WORDS as W,
} from '@mustard/shared';
import { shownCell, statisticsSubtitle, wholeColumns } from './table.js';

/*
 * The statistics preview (issue 28 point 2): one HTML document for the web's sandboxed frame,
 * each table under its title and note, its chart (SVG, with its own table) after it. A number
 * with a reason is a <details> (no script): a click opens the engine's explanation beneath it,
 * as on the report card preview. Every text escaped.
 */

type Cell = StatisticsModel['tables'][number]['table']['rows'][number]['cells'][string];

function explained(shown: string, cell: Cell | undefined, name: string): string {
  if (!cell?.explain || shown === '') return escapeHtml(shown);
  return `<details class="why" name="why" data-explain="${escapeHtml(name)}"><summary>${escapeHtml(shown)}</summary><div class="because">${escapeHtml(explainText(cell.explain, true))}</div></details>`;
}

/** The preview of the model's tables. */
export function renderStatisticsHtml(model: StatisticsModel): string {
  return statisticsDocument(`<h1>${escapeHtml(model.report.school)}</h1>${statisticsSectionHtml(model)}`);
}

/** A whole school's preview (issue 28 point 7): the classes left out and why, then each class's tables. */
export function renderSchoolStatisticsHtml(model: SchoolStatisticsModel): string {
  const { report, classes, leftOut } = model;
  const left = leftOut.length
    ? `<h3>${escapeHtml(W.leftOut)}</h3><table>${leftOut.map((each) => `<tr><th scope="row">${escapeHtml(each.form)}</th><td>${escapeHtml(each.reason)}</td></tr>`).join('')}</table>`
    : '';
  const heading = `<h1>${escapeHtml(report.school)}</h1><h2>${escapeHtml(`${W.title} · ${W.allClasses}`)}</h2><p>${escapeHtml(`${W.term} ${report.term} ${report.year}`)}</p>${left}`;
  return statisticsDocument(heading + classes.map((each) => `<article>${statisticsSectionHtml(each)}</article>`).join('\n'));
}

/** The preview's document around its body: the tables' style. */
function statisticsDocument(body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(W.title)}</title><style>
body{margin:0;padding:12px;font:12px/1.3 "DejaVu Sans",Arial,sans-serif;color:#111}
table{border-collapse:collapse;margin:4px 0 14px}th,td{border:1px solid #999;padding:2px 4px;text-align:center}
thead th{background:#e8e8e8}tbody th{text-align:left;font-weight:normal;white-space:nowrap}
h1{font-size:16px;margin:0}h2{font-size:14px;margin:2px 0}h3{font-size:13px;margin:10px 0 2px}p.note{margin:2px 0;font-style:italic}
details.why{display:inline}details.why summary{cursor:help;list-style:none;text-decoration:underline dotted}
details.why .because{position:absolute;background:#fff;border:1px solid #999;padding:4px;max-width:320px;text-align:left;font-size:11px;z-index:1}
article+article{margin-top:24px;border-top:2px solid #999;padding-top:12px}@media print{article+article{break-before:page}}
</style></head><body>${body}</body></html>`;
}

/** A class's tables under their title (alone, or one class of a whole school's). */
function statisticsSectionHtml(model: StatisticsModel): string {
  const { report } = model;
  const blocks = model.tables.map(({ key, title, note, table }) => {
    const whole = wholeColumns(table);
    const head = `<tr><th></th>${table.columns.map((column) => `<th>${escapeHtml(column.label)}</th>`).join('')}</tr>`;
    const rows = table.rows
      .map(
        (row) =>
          `<tr><th scope="row">${escapeHtml(row.label)}</th>${table.columns
            .map((column) => {
              const cell = row.cells[column.key];
              return `<td>${explained(shownCell(cell, whole.get(column.key) ?? false, report.precision), cell, `${key}.${row.key}.${column.key}`)}</td>`;
            })
            .join('')}</tr>`,
      )
      .join('');
    const said = [note, table.empty].filter((each): each is string => Boolean(each));
    return `<section data-table="${escapeHtml(key)}"><h3>${escapeHtml(title)}</h3>${said.map((each) => `<p class="note">${escapeHtml(each)}</p>`).join('')}${
      table.rows.length > 0 ? `<table><thead>${head}</thead><tbody>${rows}</tbody></table>` : ''
    }${statisticsChartsHtml({ key, title, table }, report.precision)}</section>`;
  });
  return `<h2>${escapeHtml(W.title)}</h2><p>${escapeHtml(statisticsSubtitle(report))}</p>
${blocks.join('\n')}`;
}
