import { type Explanation, explainText } from '../grading/engine/explain.js';
import type { ReportLayout, ReportSection, SubjectColumn } from './layout.js';
import type { ReportLearner, ReportModel, ReportSubject } from './model.js';
import { reportDate, reportMoney, reportNumber, REPORT_WORDS as W } from './words.js';

/*
 * The report preview (issue 15 point 4): the model drawn as one HTML document, the same sections
 * in the same order as the PDF (render-pdf in the server), for the web's 800 px frame. It needs
 * no script: each number with an explanation is a <details> whose summary is the number, so a
 * click opens the engine's reasons beneath it, and the frame can stay sandboxed without scripts.
 * Pure and synchronous: the server answers `html=1` with it, and the Report layout screen redraws
 * it on every change from a model it fetched once.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text made inert in HTML: every value of the model is the school's or a learner's text. */
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);

/** An explanation as nested lists: its sentence, then the ones it rests on. */
function explanationList(explain: Explanation): string {
  const parts = explain.parts?.length ? `<ul>${explain.parts.map((part) => `<li>${explanationList(part)}</li>`).join('')}</ul>` : '';
  return `${escapeHtml(explainText(explain))}${parts}`;
}

/**
 * A number that explains itself when clicked (data-explain names it for tests and tools). All
 * share one name, so that opening one closes the one open before: two explanations never cover
 * each other (issue 24 point 7), with no script.
 */
function explained(shown: string, explain: Explanation | null | undefined, name: string): string {
  if (!explain) return escapeHtml(shown);
  return `<details class="why" name="why" data-explain="${escapeHtml(name)}"><summary>${escapeHtml(shown)}</summary><div class="because">${explanationList(explain)}</div></details>`;
}

const markText = (mark: number | 'ABS' | null | undefined) => (mark === 'ABS' ? 'ABS' : reportNumber(mark ?? null));

/** Whether the table shows a column per mark type (always several at once unless A level). */
export function showsMarkColumns(model: ReportModel, layout: ReportLayout): boolean {
  if (!layout.columns.includes('marks') || model.report.level === 'alevel') return false;
  return model.report.separate || model.markTypes.length > 1;
}

/** Whether the card prints a position in stream: only where positions show and the class has more than one stream. */
export const showsStreamPosition = (model: ReportModel, layout: ReportLayout) => layout.showPositions && model.streams > 1;

/** The next term's line of a card: "Next term begins: 1 May 2026", "Next term ends: 31 August 2026", and the fees balance, where known. */
export function nextTermItems(model: ReportModel, learner: ReportLearner): Array<[string, string]> {
  const items: Array<[string, string]> = [];
  if (model.nextTerm) items.push([W.nextTermBegins, reportDate(model.nextTerm.starts)], [W.nextTermEnds, reportDate(model.nextTerm.ends)]);
  if (learner.feesBalance !== null) items.push([W.feesBalance, reportMoney(learner.feesBalance)]);
  return items;
}

/** The table's columns after the subject, in the layout's order, for this model's level. */
export function tableColumns(model: ReportModel, layout: ReportLayout): SubjectColumn[] {
  return layout.columns.filter((column) => {
    if (column === 'marks') return showsMarkColumns(model, layout) || (model.report.level === 'alevel' && layout.columns.includes('marks'));
    // Points are A level's, and every level's grade points on the cumulative report.
    if (column === 'points') return model.report.level === 'alevel' || model.report.combined !== undefined;
    return true;
  });
}

const COLUMN_HEADS: Record<Exclude<SubjectColumn, 'marks'>, string> = {
  total: W.total,
  grade: W.grade,
  points: W.points,
  comment: W.comment,
  initials: W.initials,
};

/** A column's head: the cumulative report's combined column is titled by its Label. */
export const columnHead = (model: ReportModel, column: Exclude<SubjectColumn, 'marks'>) =>
  column === 'total' ? (model.report.combined ?? W.total) : COLUMN_HEADS[column];

/** The papers of an A-level subject in one cell: "I: 67 D2, II: 55 C6". */
export function papersText(subject: ReportSubject): string {
  return (subject.papers ?? []).map((paper) => `${paper.paper}: ${reportNumber(paper.mark)} ${paper.grade ?? '-'}`).join(', ');
}

function subjectsTable(model: ReportModel, layout: ReportLayout, learner: ReportLearner): string {
  const columns = tableColumns(model, layout);
  const shown = showsMarkColumns(model, layout) ? model.markTypes : [];
  const markColumns = shown.map((type) => type.label);
  const head = columns
    .flatMap((column) =>
      column === 'marks' ? (shown.length > 0 ? shown.map((type) => type.heading) : [W.paper]) : [columnHead(model, column)],
    )
    .map((label) => `<th>${escapeHtml(label)}</th>`)
    .join('');
  const rows = learner.subjects
    .map((subject) => {
      const cells = columns.flatMap((column) => {
        switch (column) {
          case 'marks':
            return markColumns.length > 0
              ? markColumns.map((label) => `<td class="num">${markText(subject.marks[label])}</td>`)
              : [`<td>${escapeHtml(papersText(subject))}</td>`];
          case 'total':
            return [`<td class="num">${explained(reportNumber(subject.total), subject.explain.total, `total:${subject.subject}`)}</td>`];
          case 'grade':
            return [`<td class="num">${explained(subject.grade ?? '-', subject.explain.grade, `grade:${subject.subject}`)}</td>`];
          case 'points':
            return [`<td class="num">${reportNumber(subject.points)}</td>`];
          case 'comment':
            return [`<td>${escapeHtml(subject.comment)}</td>`];
          case 'initials':
            return [`<td>${escapeHtml(subject.initials ?? '')}</td>`];
        }
        return [];
      });
      return `<tr><th scope="row">${escapeHtml(subject.subject)}</th>${cells.join('')}</tr>`;
    })
    .join('');
  return `<table class="subjects"><thead><tr><th>${escapeHtml(W.subject)}</th>${head}</tr></thead><tbody>${rows}</tbody></table>`;
}

const pair = (label: string, value: string) => `<div class="pair"><span class="label">${escapeHtml(label)}</span> <b>${value}</b></div>`;

function section(name: ReportSection, model: ReportModel, layout: ReportLayout, learner: ReportLearner): string {
  const { school, report } = model;
  switch (name) {
    case 'header': {
      const contact = [school.phone, school.email].filter(Boolean).join(' · ');
      const lines = [...school.lines, school.address ?? '', contact].filter(Boolean);
      const logo = school.logo ? `<img class="logo" src="${escapeHtml(school.logo)}" alt="">` : '';
      return `<header>${logo}<h1>${escapeHtml(school.name)}</h1>${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}<h2>${escapeHtml(
        `${report.label} — ${W.term} ${report.term} ${report.year}`,
      )}</h2></header>`;
    }
    case 'learner': {
      const sex = learner.gender === 'F' ? W.female : learner.gender === 'M' ? W.male : '-';
      const photo = layout.showPhoto && learner.photo ? `<img class="photo" src="${escapeHtml(learner.photo)}" alt="">` : '';
      return `<div class="learner">${photo}${pair(W.name, escapeHtml(learner.fullname))}${pair(W.studentId, escapeHtml(learner.studentid))}${pair(
        W.class,
        escapeHtml([learner.form, learner.stream].filter(Boolean).join(' ')),
      )}${pair(W.sex, escapeHtml(sex))}${pair(W.lin, escapeHtml(learner.lin ?? '-'))}</div>`;
    }
    case 'subjects':
      return subjectsTable(model, layout, learner);
    case 'summary': {
      const items = [
        pair(W.total, explained(reportNumber(learner.total), learner.explain.total, 'total')),
        pair(W.average, explained(reportNumber(learner.average), learner.explain.average, 'average')),
      ];
      if (report.level === 'primary' || report.level === 'olevel') {
        items.push(pair(W.aggregate, explained(reportNumber(learner.aggregate), learner.explain.aggregate, 'aggregate')));
        items.push(pair(W.division, explained(learner.division ?? '-', learner.explain.division, 'division')));
      }
      if (report.level === 'alevel')
        items.push(pair(W.totalPoints, explained(reportNumber(learner.points), learner.explain.points, 'points')));
      if (layout.showPositions) {
        const { position } = learner;
        if (showsStreamPosition(model, layout))
          items.push(
            pair(
              W.positionStream,
              explained(
                position.stream === null ? '-' : `${position.stream} ${W.outOf} ${position.streamOf}`,
                learner.explain.position.stream,
                'position:stream',
              ),
            ),
          );
        items.push(
          pair(
            W.positionClass,
            explained(
              position.class === null ? '-' : `${position.class} ${W.outOf} ${position.of}`,
              learner.explain.position.class,
              'position:class',
            ),
          ),
        );
      }
      return `<div class="summary">${items.join('')}</div>`;
    }
    case 'attendance':
      return learner.attendance
        ? `<div class="attendance">${pair(W.attendance, `${learner.attendance.days} ${W.outOf} ${learner.attendance.total}`)}</div>`
        : '';
    case 'remarks':
      return `<div class="remarks">${learner.remarks
        .map((remark) => [remark.label, remark.text])
        .map(
          ([label, text]) =>
            `<div class="remark"><span class="label">${escapeHtml(label ?? '')}</span><p>${text ? escapeHtml(text) : '&nbsp;'}</p></div>`,
        )
        .join('')}</div>`;
    case 'gradeKey': {
      const own = model.gradeKey ? `<p><span class="label">${escapeHtml(W.gradeKey)}</span> ${escapeHtml(model.gradeKey)}</p>` : '';
      const lines = model.key.map((line) => `<p>${escapeHtml(line)}</p>`).join('');
      return own || lines ? `<div class="grade-key" data-section="gradeKey">${own}${lines}</div>` : '';
    }
    case 'nextTerm': {
      const items = nextTermItems(model, learner);
      return items.length
        ? `<div class="next-term" data-section="nextTerm">${items.map(([label, value]) => pair(label, escapeHtml(value))).join('')}</div>`
        : '';
    }
    case 'signatures':
      return model.signatures.length
        ? `<div class="signatures" data-section="signatures">${model.signatures
            .map((label) => `<div class="signature"><span class="line"></span><span class="label">${escapeHtml(label)}</span></div>`)
            .join('')}</div>`
        : '';
    case 'footers':
      return learner.footers.length
        ? `<div class="footers">${learner.footers.map((footer) => `<p><b>${escapeHtml(footer.title)}:</b> ${escapeHtml(footer.text)}</p>`).join('')}</div>`
        : '';
  }
}

const STYLE = `
body{margin:0;background:#eef0f3;font:13px/1.35 "DejaVu Sans","Liberation Sans",Arial,sans-serif;color:#111}
.card{background:#fff;width:740px;margin:12px auto;padding:24px 28px;box-sizing:border-box;box-shadow:0 1px 3px #0002;break-after:page}
header{text-align:center;position:relative;border-bottom:2px solid #111;padding-bottom:6px;margin-bottom:10px}
header h1{font-size:20px;margin:0 0 2px}header p{margin:0;font-size:12px}header h2{font-size:14px;margin:6px 0 0;letter-spacing:.05em}
.logo{position:absolute;left:0;top:0;width:64px;height:64px;object-fit:contain}
.learner{position:relative;display:grid;grid-template-columns:1fr 1fr;gap:2px 16px;margin-bottom:10px;min-height:40px}
.photo{position:absolute;right:0;top:0;width:72px;height:88px;object-fit:cover;border:1px solid #999}
.learner .pair:nth-child(odd){grid-column:1}
.label{color:#444}
table.subjects{width:100%;border-collapse:collapse;margin:6px 0}
table.subjects th,table.subjects td{border:1px solid #888;padding:3px 5px;text-align:left;vertical-align:top}
table.subjects thead th{background:#f1f1f1;font-size:12px}
table.subjects td.num{text-align:right}
.summary{display:grid;grid-template-columns:1fr 1fr;gap:2px 16px;margin:8px 0}
.remarks .remark{margin:6px 0}.remarks p{margin:2px 0;border-bottom:1px dotted #666;min-height:18px}
.grade-key,.footers,.attendance{margin:6px 0;font-size:12px}.footers p,.grade-key p{margin:2px 0}
.next-term{display:flex;flex-wrap:wrap;gap:2px 18px;margin:6px 0}
.signatures{display:flex;gap:40px;margin:28px 0 6px}.signature{flex:1;display:flex;flex-direction:column;font-size:12px}
.signature .line{border-bottom:1px solid #111;height:22px;margin-bottom:3px}
details.why{display:inline-block;position:relative}
details.why summary{cursor:pointer;list-style:none;text-decoration:underline dotted;text-underline-offset:3px}
details.why summary::-webkit-details-marker{display:none}
details.why .because{position:absolute;z-index:2;right:0;top:100%;width:340px;background:#fffbe6;border:1px solid #c9a400;padding:6px 8px;font-size:12px;text-align:left;box-shadow:0 2px 6px #0003}
details.why ul{margin:2px 0 0;padding-left:16px}
.warnings{width:740px;margin:12px auto;background:#fff4f4;border:1px solid #d33;padding:8px 12px;box-sizing:border-box}
.warnings h3{margin:0 0 4px;font-size:13px}.warnings li{margin:2px 0}
@media print{body{background:#fff}.card{box-shadow:none;margin:0 auto}.warnings{display:none}details.why summary{text-decoration:none}}
`;

/** The warnings a head teacher fixes before printing (shown on the preview, never printed). */
function warningsBlock(model: ReportModel): string {
  if (model.warnings.length === 0) return '';
  return `<aside class="warnings" role="alert"><h3>${escapeHtml(W.warnings)}</h3><ul>${model.warnings
    .map(
      (warning) =>
        `<li>${warning.subject ? `<b>${escapeHtml(warning.subject)}:</b> ` : ''}${escapeHtml(explainText(warning.explain))}</li>`,
    )
    .join('')}</ul></aside>`;
}

/** One learner's card. */
export function renderReportCard(model: ReportModel, layout: ReportLayout, learner: ReportLearner): string {
  return `<section class="card" data-learner="${escapeHtml(learner.studentid)}">${layout.sections.map((name) => section(name, model, layout, learner)).join('')}</section>`;
}

/** The whole preview: a document of every learner's card, with the warnings first. */
export function renderReportHtml(model: ReportModel, layout: ReportLayout): string {
  const title = `${model.report.label} ${model.report.form} ${model.report.stream ?? ''} ${model.report.year} ${model.report.term}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${warningsBlock(
    model,
  )}${model.learners.map((learner) => renderReportCard(model, layout, learner)).join('')}</body></html>`;
}
