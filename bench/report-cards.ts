/**
 * Printing report cards (issue 15 points 4 and 6): the end of term, when a head teacher prints
 * every class.
 *
 *   (a) One stream of 60 P7 learners, model to PDF bytes (`drawReportPdf`, in this thread), beside
 *       a baseline measured in the same run: pdfkit putting the same strings on the same pages
 *       with the same fonts and no logic (`doc.text(string, x, y)` down each page: no layout,
 *       table, wrapping or images). Targets: <= 0.25 s and <= 0.3 MB (the school's logo, no
 *       learner photos). For the record, the same stream with each learner's own photo, as
 *       stored (up to 600 px) and made print size (`imagesForPrint`).
 *   (b) The whole school through the one document pool, and another school's card meanwhile:
 *       documents.ts (an extra, below), with this run's baseline.
 *
 * Other measurements of printing (the HTML preview, the API's p95 while cards render) join
 * this report as extras: `reportReportCards(quick, [...REPORT_CARDS_EXTRAS, yourExtra])`, or
 * push to REPORT_CARDS_EXTRAS before it runs; each gets the same classes and this run's
 * baseline (ReportCardsContext).
 *
 *   tsx bench/report-cards.ts [--quick]
 */
import { fileURLToPath } from 'node:url';
import { DEFAULT_REPORT_LAYOUT, type ReportLayout, type ReportModel, reportNumber, REPORT_WORDS as W } from '@mustard/shared';
import PDFDocument from 'pdfkit';
import { closeDocumentPool } from '../apps/server/src/documents/pool.js';
import { drawReportPdf, type ReportImages, subjectColumns, useReportFonts } from '../apps/server/src/modules/reports/pdf/draw.js';
import { fixtureImages, fixtureLogo, fixturePhoto, reportFixture } from '../apps/server/src/modules/reports/pdf/fixture.js';
import { imagesForPrint } from '../apps/server/src/modules/reports/pdf/images.js';
import { reportDocuments } from './documents.js';
import { percentile } from './latency.js';

/** Rounds not counted: the first files warm up the JIT, the fonts and their layouts. */
const WARM_UP = 3;
const TARGET_STREAM_SECONDS = 0.25;
const TARGET_STREAM_MB = 0.3;

export interface ReportCardsClass {
  model: ReportModel;
  images: ReportImages;
}

/** What an extra measurement of printing gets: this run's classes and baseline. */
export interface ReportCardsContext {
  quick: boolean;
  layout: ReportLayout;
  /** One stream of 60 P7 learners, the logo, no photos (measurement a). */
  stream: ReportCardsClass;
  /** The baseline of (a): pdfkit putting the same strings on the pages, median ms. */
  baselineMs: number;
}

export type ReportCardsExtra = (context: ReportCardsContext) => Promise<void>;

/** Extras run after the PDF's own lines (the document pool's, documents.ts; the HTML preview, the API's p95 during rendering, …). */
export const REPORT_CARDS_EXTRAS: ReportCardsExtra[] = [reportDocuments];

/** The strings a card prints, in reading order (for the baseline). */
function cardStrings(model: ReportModel, layout: ReportLayout): string[][] {
  const columns = subjectColumns(model, layout);
  const { school, report } = model;
  const header = [
    school.name,
    ...school.lines,
    school.address ?? '',
    [school.phone, school.email].filter(Boolean).join(' · '),
    `${report.label} — ${W.term} ${report.term} ${report.year}`,
  ];
  return model.learners.map((learner) => [
    ...header,
    W.name,
    learner.fullname,
    W.studentId,
    learner.studentid,
    W.class,
    `${learner.form} ${learner.stream ?? ''}`,
    W.sex,
    learner.gender === 'F' ? W.female : W.male,
    ...columns.map((column) => column.header),
    ...learner.subjects.flatMap((subject) => columns.map((column) => column.cell(subject))),
    `${W.total}: ${reportNumber(learner.total)}`,
    `${W.average}: ${reportNumber(learner.average)}`,
    `${W.aggregate}: ${reportNumber(learner.aggregate)}`,
    `${W.division}: ${learner.division ?? '-'}`,
    `${W.positionStream}: ${learner.position.stream} ${W.outOf} ${learner.position.streamOf}`,
    `${W.positionClass}: ${learner.position.class} ${W.outOf} ${learner.position.of}`,
    learner.attendance ? `${W.attendance}: ${learner.attendance.days} ${W.outOf} ${learner.attendance.total}` : '',
    ...learner.remarks.map((remark) => `${remark.label}: ${remark.text}`),
    `${W.gradeKey}: ${model.gradeKey ?? ''}`,
    ...learner.footers.map((footer) => `${footer.title}: ${footer.text}`),
  ]);
}

/** The baseline: the same strings, page by page, each at the next place down three columns. */
function plainText(cards: string[][]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 36, autoFirstPage: false, compress: true });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    const fonts = useReportFonts(doc);
    for (const strings of cards) {
      doc.addPage();
      doc.font(fonts.regular).fontSize(9);
      strings.forEach((text, index) => {
        doc.text(text, 36 + (index % 3) * 175, 36 + Math.floor(index / 3) * 12, { lineBreak: false });
      });
    }
    doc.end();
  });
}

interface Timed {
  ms: number;
  bytes: number;
}

/**
 * The median ms of each piece of work and the bytes it makes, run in turn round after round (so
 * a busy moment of the machine falls on all of them alike), after WARM_UP rounds not counted.
 */
async function timedInTurn(runs: number, works: Array<() => Promise<Buffer>>): Promise<Timed[]> {
  const ms = works.map((): number[] => []);
  const bytes = works.map(() => 0);
  for (let round = 0; round < WARM_UP + runs; round++) {
    for (const [index, work] of works.entries()) {
      const started = performance.now();
      const pdf = await work();
      if (round < WARM_UP) continue;
      ms[index]?.push(performance.now() - started);
      bytes[index] = pdf.length;
    }
  }
  return works.map((_, index) => ({ ms: percentile(ms[index] ?? [], 50), bytes: bytes[index] ?? 0 }));
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(2);
const met = (ok: boolean) => (ok ? 'met' : 'NOT MET');

/** Every learner of a model given their own photo URL, the bytes of `photos` in turn. */
function withOwnPhotos(model: ReportModel, photos: Uint8Array[], logo: Uint8Array): ReportCardsClass {
  const images = new Map<string, Uint8Array>();
  if (model.school.logo) images.set(model.school.logo, logo);
  const learners = model.learners.map((learner, index) => {
    const url = `/api/school/students/photo/${model.report.form}-${index}.jpg`;
    images.set(url, photos[index % photos.length] as Uint8Array);
    return { ...learner, photo: url };
  });
  return { model: { ...model, learners }, images };
}

/** Prints the report cards' lines of `npm run bench`. */
export async function reportReportCards(quick: boolean, extras: ReportCardsExtra[] = REPORT_CARDS_EXTRAS): Promise<void> {
  const runs = quick ? 5 : 20;
  const layout = DEFAULT_REPORT_LAYOUT;
  const logo = await fixtureLogo();

  // (a) One stream of 60.
  const model = reportFixture({ learners: 60, level: 'primary', streams: ['Blue'], photos: 'none' });
  const images = await fixtureImages(model);
  const strings = cardStrings(model, layout);
  console.log(`\nReport cards: one stream of 60 P7 learners, model to PDF (one thread, median of ${runs}, taken in turn)`);
  const stored = await Promise.all(Array.from({ length: 60 }, (_, index) => fixturePhoto(index + 1)));
  const own = withOwnPhotos(model, stored, logo);
  const printed = { model: own.model, images: await imagesForPrint(own.images) };
  const [baseline, cards, asStored, atPrintSize] = (await timedInTurn(runs, [
    () => plainText(strings),
    () => drawReportPdf(model, layout, images),
    () => drawReportPdf(own.model, layout, own.images),
    () => drawReportPdf(printed.model, layout, printed.images),
  ])) as [Timed, Timed, Timed, Timed];
  const line = (title: string, result: Timed, versus = true) =>
    console.log(
      `${title.padEnd(58)} ${result.ms.toFixed(0).padStart(5)} ms  ${mb(result.bytes).padStart(5)} MB${versus ? `  (${(result.ms / baseline.ms).toFixed(1)}x the baseline)` : ''}`,
    );
  line('pdfkit, the same strings with no logic (baseline)', baseline, false);
  line('drawReportPdf: 60 cards, the logo, no photos', cards);
  line(`  the same, each learner's own photo as stored (480x600)`, asStored);
  line('  the same, photos at print size (imagesForPrint)', atPrintSize);
  console.log(
    `\n60 cards: ${(cards.ms / 1000).toFixed(3)} s (target <= ${TARGET_STREAM_SECONDS} s: ${met(cards.ms / 1000 <= TARGET_STREAM_SECONDS)}), ` +
      `${mb(cards.bytes)} MB (target <= ${TARGET_STREAM_MB} MB: ${met(cards.bytes / 1024 / 1024 <= TARGET_STREAM_MB)})`,
  );

  try {
    const context: ReportCardsContext = { quick, layout, stream: { model, images }, baselineMs: baseline.ms };
    for (const extra of extras) await extra(context);
  } finally {
    await closeDocumentPool();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await reportReportCards(process.argv.includes('--quick'));
