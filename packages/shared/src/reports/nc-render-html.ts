import { type Explanation, explainText } from '../grading/engine/explain.js';
import type { ReportLayout, ReportSection } from './layout.js';
import {
  descriptorName,
  NC_REPORT_WORDS as N,
  type NcLearnerCard,
  type NcReportModel,
  type NcSubjectRow,
  ncPartText,
  ncScoreText,
} from './nc-report.js';
import { escapeHtml } from './render-html.js';
import { reportDate, reportMoney, REPORT_WORDS as W } from './words.js';

/*
 * The new-curriculum card's preview (issue 27 point 2): the model drawn as one HTML document,
 * the same sections in the same order as the PDF (modules/reports/nc-report/pdf.ts), the
 * school's report layout deciding which sections show and in what order where they map
 * (`summary` is the overall achievement, `gradeKey` both keys). Each number with an
 * explanation opens it when clicked (a <details>), so the sandboxed frame needs no script.
 */

function explanationList(explain: Explanation): string {
  const parts = explain.parts?.length ? `<ul>${explain.parts.map((part) => `<li>${explanationList(part)}</li>`).join('')}</ul>` : '';
  return `${escapeHtml(explainText(explain))}${parts}`;
}

function explained(shown: string, explain: Explanation | null | undefined, name: string): string {
  if (!explain) return escapeHtml(shown);
  return `<details class="why" name="why" data-explain="${escapeHtml(name)}"><summary>${escapeHtml(shown)}</summary><div class="because">${explanationList(explain)}</div></details>`;
}

const pair = (label: string, value: string) => `<div class="pair"><span class="label">${escapeHtml(label)}</span> <b>${value}</b></div>`;

/** A column of the subject table after the subject's name. */
export type NcColumn = 'score' | 'identifier' | 'exam' | 'grade' | 'descriptor' | 'comment' | 'skills' | 'initials';

/**
 * The columns of the subject table after the subject: what the card's options ask for (an
 * exam-only card the exam, grade and descriptor; else the score and identifier; with Show
 * comments both remarks), and the teacher's initials where the school's layout has them.
 */
export function ncSubjectColumns(report: NcReportModel['report'], layout?: Pick<ReportLayout, 'columns'>): NcColumn[] {
  const columns: NcColumn[] = report.noformative ? ['exam', 'grade', 'descriptor'] : ['score', 'identifier'];
  if (report.comments) columns.push('comment', 'skills');
  if (!layout || layout.columns.includes('initials')) columns.push('initials');
  return columns;
}

/** The heading of each column of the subject table. */
export const NC_COLUMN_HEADS = {
  score: N.avScore,
  identifier: N.identifier,
  exam: N.examOnly,
  grade: N.grade,
  descriptor: N.descriptor,
  comment: N.remarkCompetency,
  skills: N.remarkSkills,
  initials: W.initials,
} as const;

/** Whether the card draws the competency rows (Show Topics, and not an exam-only card). */
export const ncShowsTopics = (report: NcReportModel['report']) => report.topics && !report.noformative;
/** Whether the card draws the summary block (Summary, and not an exam-only card, whose table has the exam and grade). */
export const ncShowsSummary = (report: NcReportModel['report']) => report.summary && !report.noformative;

function subjectCell(column: NcColumn, subject: NcSubjectRow): string {
  switch (column) {
    case 'score':
      return `<td class="num">${explained(ncScoreText(subject.score), subject.explain.score, `score:${subject.subject}`)}</td>`;
    case 'identifier':
      return `<td>${escapeHtml(subject.identifier ?? '-')}</td>`;
    case 'exam':
      return `<td class="num">${explained(ncPartText(subject.total), subject.explain.total, `total:${subject.subject}`)}</td>`;
    case 'grade':
      return `<td class="num">${explained(subject.grade ?? '-', subject.explain.grade, `grade:${subject.subject}`)}</td>`;
    case 'descriptor':
      return `<td>${escapeHtml(descriptorName(subject.descriptor))}</td>`;
    case 'comment':
      return `<td>${escapeHtml(subject.comment)}</td>`;
    case 'skills':
      return `<td>${escapeHtml(subject.skills)}</td>`;
    case 'initials':
      return `<td>${escapeHtml(subject.initials ?? '')}</td>`;
  }
}

/** The line under the table naming the subjects the learner has nothing in this term. */
export const ncUnscoredText = (learner: NcLearnerCard) => (learner.unscored.length ? `${N.noScores}: ${learner.unscored.join(', ')}` : '');

function subjectsTable(model: NcReportModel, layout: ReportLayout, learner: NcLearnerCard): string {
  const unscored = learner.unscored.length ? `<p class="none" data-section="unscored">${escapeHtml(ncUnscoredText(learner))}</p>` : '';
  if (learner.subjects.length === 0) return `<p class="none">${escapeHtml(N.noSubjects)}</p>${unscored}`;
  const columns = ncSubjectColumns(model.report, layout);
  const topics = ncShowsTopics(model.report);
  const head = columns.map((column) => `<th>${escapeHtml(NC_COLUMN_HEADS[column])}</th>`).join('');
  const rows = learner.subjects
    .map((subject) => {
      const row = `<tr class="subject"><th scope="row">${escapeHtml(subject.subject)}</th>${columns.map((column) => subjectCell(column, subject)).join('')}</tr>`;
      if (!topics) return row;
      const span = Math.max(0, columns.length - 2);
      const competencies = subject.topics
        .map(
          (topic) =>
            `<tr class="topic" data-topic="${escapeHtml(topic.title)}"><td class="competency">${escapeHtml(topic.title)}</td><td class="num">${explained(
              ncScoreText(topic.score),
              topic.explain.score,
              `topic:${subject.subject}:${topic.title}`,
            )}</td><td>${escapeHtml(topic.identifier ?? '-')}</td>${span > 0 ? `<td colspan="${span}"></td>` : ''}</tr>`,
        )
        .join('');
      return row + competencies;
    })
    .join('');
  return `<table class="subjects"><thead><tr><th>${escapeHtml(topics ? `${W.subject} / ${N.competency}` : W.subject)}</th>${head}</tr></thead><tbody>${rows}</tbody></table>${unscored}`;
}

function summaryBlock(learner: NcLearnerCard): string {
  const rows = learner.subjects
    .map(
      (subject) =>
        `<tr><th scope="row">${escapeHtml(subject.subject)}</th><td class="num">${explained(
          ncPartText(subject.formative),
          subject.explain.formative,
          `formative:${subject.subject}`,
        )}</td><td class="num">${explained(ncPartText(subject.summative), subject.explain.summative, `summative:${subject.subject}`)}</td><td class="num">${explained(
          ncPartText(subject.total),
          subject.explain.total,
          `total:${subject.subject}`,
        )}</td><td class="num">${explained(subject.grade ?? '-', subject.explain.grade, `grade:${subject.subject}`)}</td><td>${escapeHtml(
          descriptorName(subject.descriptor),
        )}</td></tr>`,
    )
    .join('');
  return `<div class="nc-summary" data-section="ncSummary"><h3>${escapeHtml(N.summaryTitle)}</h3><table class="subjects"><thead><tr><th>${escapeHtml(
    W.subject,
  )}</th>${[N.formative, N.summative, N.total, N.grade, N.descriptor].map((head) => `<th>${escapeHtml(head)}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table></div>`;
}

function projectsBlock(learner: NcLearnerCard): string {
  if (learner.project.length === 0) return '';
  const rows = learner.project
    .map(
      (project) =>
        `<tr><td>${escapeHtml(project.title)}</td><td>${escapeHtml(project.subject)}</td><td class="num">${escapeHtml(
          project.score === null ? '-' : `${ncPartText(project.score)} / ${ncPartText(project.max)}`,
        )}</td><td>${escapeHtml(project.comment)}</td></tr>`,
    )
    .join('');
  return `<div class="projects" data-section="projects"><h3>${escapeHtml(N.projects)}</h3><table class="subjects"><thead><tr><th>${escapeHtml(
    N.project,
  )}</th><th>${escapeHtml(W.subject)}</th><th>${escapeHtml(N.score)}</th><th>${escapeHtml(W.comment)}</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

/** A score bound of the identifiers' key: one decimal at least (2.5, 3.0), two where the bound has them (2.49). */
const boundText = (value: number) => (Number.isInteger(value * 10) ? value.toFixed(1) : String(value));

/** The lines of both keys, as both renderers print them. */
export function ncKeyLines(model: NcReportModel): { identifiers: string[]; grades: string[] } {
  return {
    identifiers: model.keys.identifiers.map(
      (band) => `${band.label} (${boundText(band.from)} - ${boundText(band.to)}): ${band.descriptor}`,
    ),
    grades: model.keys.grades.map((band) => `${band.grade} (${band.from} - ${band.to}): ${band.descriptor}`),
  };
}

/** The next term's line: its first and last day, and the fees balance, where known. */
export function ncNextTermItems(model: NcReportModel, learner: NcLearnerCard): Array<[string, string]> {
  const items: Array<[string, string]> = [];
  if (model.nextTerm) items.push([W.nextTermBegins, reportDate(model.nextTerm.starts)], [W.nextTermEnds, reportDate(model.nextTerm.ends)]);
  if (learner.feesBalance !== null) items.push([W.feesBalance, reportMoney(learner.feesBalance)]);
  return items;
}

function section(name: ReportSection, model: NcReportModel, layout: ReportLayout, learner: NcLearnerCard): string {
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
      const photo = layout.showPhoto && learner.photo ? `<img class="photo" src="${escapeHtml(learner.photo)}" alt="">` : '';
      return `<div class="learner">${photo}${pair(W.name, escapeHtml(learner.fullname))}${pair(W.studentId, escapeHtml(learner.studentid))}${pair(
        W.class,
        escapeHtml(learner.form),
      )}${pair(N.stream, escapeHtml(learner.stream ?? '-'))}${pair(W.lin, escapeHtml(learner.lin ?? '-'))}</div>`;
    }
    case 'subjects':
      return subjectsTable(model, layout, learner) + (ncShowsSummary(report) ? summaryBlock(learner) : '') + projectsBlock(learner);
    case 'summary': {
      const { overall } = learner;
      const items = report.noformative
        ? []
        : [
            pair(N.avScore, explained(ncScoreText(overall.score), overall.explain.score, 'overall:score')),
            pair(N.identifier, escapeHtml(overall.identifier ?? '-')),
          ];
      items.push(
        pair(report.noformative ? N.examOnly : N.total, explained(ncPartText(overall.total), overall.explain.total, 'overall:total')),
        pair(N.grade, escapeHtml(overall.grade ?? '-')),
      );
      if (learner.position)
        items.push(
          pair(
            N.position,
            explained(`${learner.position.rank} ${W.outOf} ${learner.position.outOf}`, learner.position.explain, 'position'),
          ),
        );
      if (learner.certificate)
        items.push(pair(N.certificate, explained(learner.certificate.result, learner.certificate.explain, 'certificate')));
      return `<div class="overall" data-section="overall"><h3>${escapeHtml(N.overall)}</h3><div class="summary">${items.join('')}</div></div>`;
    }
    case 'attendance':
      return learner.attendance
        ? `<div class="attendance">${pair(W.attendance, `${learner.attendance.days} ${W.outOf} ${learner.attendance.total}`)}</div>`
        : '';
    case 'remarks':
      return learner.remarks.length
        ? `<div class="remarks">${learner.remarks
            .map(
              (remark) =>
                `<div class="remark"><span class="label">${escapeHtml(remark.label)}</span><p>${remark.text ? escapeHtml(remark.text) : '&nbsp;'}</p></div>`,
            )
            .join('')}</div>`
        : '';
    case 'gradeKey': {
      const lines = ncKeyLines(model);
      const list = (title: string, items: string[]) =>
        `<p class="label">${escapeHtml(title)}</p>${items.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}`;
      return `<div class="grade-key" data-section="keys">${report.noformative ? '' : list(N.identifierKey, lines.identifiers)}${list(N.gradeKey, lines.grades)}</div>`;
    }
    case 'nextTerm': {
      const items = ncNextTermItems(model, learner);
      return items.length
        ? `<div class="next-term" data-section="nextTerm">${items.map(([label, value]) => pair(label, escapeHtml(value))).join('')}</div>`
        : '';
    }
    case 'footers':
      // The school's footers go by a learner's position: these cards rank no one.
      return '';
    case 'signatures':
      return model.signatures.length
        ? `<div class="signatures" data-section="signatures">${model.signatures
            .map((label) => `<div class="signature"><span class="line"></span><span class="label">${escapeHtml(label)}</span></div>`)
            .join('')}</div>`
        : '';
  }
}

const STYLE = `
body{margin:0;background:#eef0f3;font:13px/1.35 "DejaVu Sans","Liberation Sans",Arial,sans-serif;color:#111}
.card{background:#fff;width:740px;margin:12px auto;padding:24px 28px;box-sizing:border-box;box-shadow:0 1px 3px #0002;break-after:page}
header{text-align:center;position:relative;border-bottom:2px solid #111;padding-bottom:6px;margin-bottom:10px}
header h1{font-size:20px;margin:0 0 2px}header p{margin:0;font-size:12px}header h2{font-size:14px;margin:6px 0 0;letter-spacing:.05em}
h3{font-size:13px;margin:8px 0 2px}
.logo{position:absolute;left:0;top:0;width:64px;height:64px;object-fit:contain}
.learner{position:relative;display:grid;grid-template-columns:1fr 1fr;gap:2px 16px;margin-bottom:10px;min-height:40px;padding-right:84px}
.photo{position:absolute;right:0;top:0;width:72px;height:88px;object-fit:cover;border:1px solid #999}
.label{color:#444}
table.subjects{width:100%;border-collapse:collapse;margin:6px 0}
table.subjects th,table.subjects td{border:1px solid #888;padding:3px 5px;text-align:left;vertical-align:top}
table.subjects thead th{background:#f1f1f1;font-size:12px}
table.subjects td.num{text-align:right}
table.subjects tr.topic td{font-size:12px;background:#fafafa}
table.subjects td.competency{padding-left:18px}
table.subjects tbody th,table.subjects td.competency{min-width:150px}
.summary{display:grid;grid-template-columns:1fr 1fr;gap:2px 16px;margin:4px 0}
.remarks .remark{margin:6px 0}.remarks p{margin:2px 0;border-bottom:1px dotted #666;min-height:18px}
.grade-key,.footers,.attendance{margin:6px 0;font-size:12px}.footers p,.grade-key p{margin:2px 0}
.next-term{display:flex;flex-wrap:wrap;gap:2px 18px;margin:6px 0}
.signatures{display:flex;gap:40px;margin:28px 0 6px}.signature{flex:1;display:flex;flex-direction:column;font-size:12px}
.signature .line{border-bottom:1px solid #111;height:22px;margin-bottom:3px}
.stamp{text-align:center;font-size:12px;font-style:italic;margin-top:10px}
details.why{display:inline-block;position:relative}
details.why summary{cursor:pointer;list-style:none;text-decoration:underline dotted;text-underline-offset:3px}
details.why summary::-webkit-details-marker{display:none}
details.why .because{position:absolute;z-index:2;right:0;top:100%;width:340px;background:#fffbe6;border:1px solid #c9a400;padding:6px 8px;font-size:12px;text-align:left;box-shadow:0 2px 6px #0003}
details.why ul{margin:2px 0 0;padding-left:16px}
@media print{body{background:#fff}.card{box-shadow:none;margin:0 auto}details.why summary{text-decoration:none}}
`;

/** One learner's card: the layout's sections in its order, then the stamp line. */
export function renderNcReportCard(model: NcReportModel, layout: ReportLayout, learner: NcLearnerCard): string {
  return `<section class="card" data-learner="${escapeHtml(learner.studentid)}">${layout.sections
    .map((name) => section(name, model, layout, learner))
    .join('')}<p class="stamp">${escapeHtml(N.stamp)}</p></section>`;
}

/** The whole preview: a document of every learner's card. */
export function renderNcReportHtml(model: NcReportModel, layout: ReportLayout): string {
  const title = `${model.report.label} ${model.report.form} ${model.report.stream ?? ''} ${model.report.year} ${model.report.term}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${model.learners
    .map((learner) => renderNcReportCard(model, layout, learner))
    .join('')}</body></html>`;
}
