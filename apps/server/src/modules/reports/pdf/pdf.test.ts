import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { DEFAULT_REPORT_LAYOUT, REPORT_WORDS, type ReportLayout, type ReportModel, ReportModelSchema } from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentWorkerEntry } from '../../../documents/pool.js';
import { drawReportPdf, type ReportImages } from './draw.js';
import { FIXTURE_LOGO_URL, FIXTURE_SAME_PHOTO_URL, fixtureImages, fixtureLogo, fixturePhoto, reportFixture } from './fixture.js';
import { FONT_FILES, fontsFolder } from './fonts.js';
import { closeReportPdfPool, renderReportPdf } from './index.js';

/*
 * The report card PDF (issue 15 points 4 and 6): drawn in the worker pool from a model made by
 * hand, then read back with poppler's tools as a person's PDF reader would: the text of every
 * card, the pages, the fonts embedded, the images embedded once, and the event loop free while
 * a school's worth of cards is drawn.
 */

const run = promisify(execFile);
const folder = mkdtempSync(path.join(tmpdir(), 'mustard-report-pdf-'));
let files = 0;

beforeAll(async () => {
  // poppler-utils (pdftotext, pdfinfo, pdffonts, pdfimages) reads the files back as a reader would.
  await run('pdfinfo', ['-v']).catch(() => {
    throw new Error('These tests read PDFs back with poppler-utils: apt-get install poppler-utils');
  });
});

afterAll(async () => {
  await closeReportPdfPool();
  rmSync(folder, { recursive: true, force: true });
});

async function saved(pdf: Buffer): Promise<string> {
  const file = path.join(folder, `cards-${++files}.pdf`);
  writeFileSync(file, pdf);
  return file;
}

/** Each page's text (pdftotext keeps the table's rows on one line with -layout). */
async function pagesOf(pdf: Buffer): Promise<string[]> {
  const { stdout } = await run('pdftotext', ['-layout', '-enc', 'UTF-8', await saved(pdf), '-'], { maxBuffer: 64 * 1024 * 1024 });
  return stdout.split('\f').slice(0, -1);
}

async function pageCount(pdf: Buffer): Promise<number> {
  const { stdout } = await run('pdfinfo', [await saved(pdf)]);
  return Number(/^Pages:\s+(\d+)/m.exec(stdout)?.[1]);
}

/** The image objects the file holds, as "type object" ("image 8", "smask 8"): each once however many pages show it. */
async function imageObjects(pdf: Buffer): Promise<Set<string>> {
  const { stdout } = await run('pdfimages', ['-list', await saved(pdf)], { maxBuffer: 16 * 1024 * 1024 });
  const rows = stdout.trim().split('\n').slice(2);
  // Columns: page num type width height color comp bpc enc interp object ID ...
  return new Set(
    rows.map((row) => {
      const cells = row.trim().split(/\s+/);
      return `${cells[2]} ${cells[10]}`;
    }),
  );
}

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const mark = (value: number | 'ABS' | null | undefined) =>
  value === 'ABS' ? 'ABS' : value === null || value === undefined ? '-' : String(value);

async function render(model: ReportModel, layout: ReportLayout = DEFAULT_REPORT_LAYOUT, images?: ReportImages) {
  const progress: Array<[number, number]> = [];
  const pdf = await renderReportPdf({ model, layout, images: images ?? (await fixtureImages(model)) }, (done, total) =>
    progress.push([done, total]),
  );
  return { pdf, progress };
}

describe('the fixture', () => {
  it('is a valid report model with different Ugandan names', () => {
    const model = reportFixture({ learners: 120, streams: ['East', 'West'] });
    expect(ReportModelSchema.safeParse(model).success).toBe(true);
    expect(new Set(model.learners.map((learner) => learner.fullname)).size).toBe(120);
    expect(ReportModelSchema.safeParse(reportFixture({ learners: 5, level: 'alevel' })).success).toBe(true);
  });
});

describe('a P7 class printed through the worker pool', () => {
  it('gives one A4 page a learner, with every name, mark and division in its text', async () => {
    const model = reportFixture({ learners: 30, streams: ['Blue'] });
    const { pdf, progress } = await render(model);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await pageCount(pdf)).toBe(30);
    const { stdout } = await run('pdfinfo', [await saved(pdf)]);
    expect(stdout).toMatch(/Page size:\s+595\.28 x 841\.89 pts \(A4\)/);

    const pages = await pagesOf(pdf);
    expect(pages).toHaveLength(30);
    model.learners.forEach((learner, index) => {
      const page = pages[index] as string;
      expect(page).toContain('Mustard Hill Primary School');
      expect(page).toContain('END OF TERM — TERM III 2025');
      expect(page).toMatch(new RegExp(`Name:\\s+${literal(learner.fullname)}`));
      expect(page).toContain(learner.studentid);
      expect(page).toMatch(new RegExp(`Division:\\s+${literal(learner.division as string)}\\b`));
      expect(page).toMatch(new RegExp(`Aggregate:\\s+${learner.aggregate ?? '-'}\\b`));
      // The first subject's row: BOT, MOT, EOT, total and grade in the table's order.
      const english = learner.subjects[0];
      if (!english) throw new Error('no subject');
      const row = [english.marks.BOT, english.marks.MOT, english.marks.EOT, english.total].map(mark).join('\\s+');
      expect(page).toMatch(new RegExp(`English\\s+${row}\\s+${english.grade}`));
      // A class of one stream: the position in the class, none in the stream (issue 24 point 3).
      expect(page).toMatch(new RegExp(`Position in class:\\s+${learner.position.class} out of ${learner.position.of}`));
      expect(page).not.toContain('Position in stream');
      expect(page).toMatch(/Class teacher's signature\s+Head teacher's signature/);
      expect(page).toMatch(new RegExp(`LIN:\\s+${learner.lin}`));
    });
    expect(progress).toEqual(model.learners.map((_, index) => [index + 1, 30]));
  });

  it('embeds its two fonts as subsets, and no other', async () => {
    const { pdf } = await render(reportFixture({ learners: 3 }));
    const { stdout } = await run('pdffonts', [await saved(pdf)]);
    const fonts = stdout.trim().split('\n').slice(2);
    expect(fonts).toHaveLength(2);
    for (const name of ['DejaVuSans', 'DejaVuSans-Bold']) {
      // name, type (CID TrueType), encoding, then emb sub uni: yes yes yes.
      expect(fonts.some((line) => new RegExp(`^[A-Z]{6}\\+${name}\\s+CID TrueType\\s+Identity-H\\s+yes\\s+yes\\s+yes`).test(line))).toBe(
        true,
      );
    }
  });

  it('embeds a photo shown on 60 cards once', async () => {
    const one = await render(reportFixture({ learners: 1, photos: 'same' }));
    const sixty = await render(reportFixture({ learners: 60, photos: 'same' }));
    // The logo (an image and its transparency mask) and the one photo.
    expect(await imageObjects(sixty.pdf)).toEqual(await imageObjects(one.pdf));
    expect((await imageObjects(sixty.pdf)).size).toBe(3);
    const photo = (await fixturePhoto(1)).length;
    expect(photo).toBeGreaterThan(20_000);
    // 59 more cards cost their text, far less than a photo each.
    expect(sixty.pdf.length - one.pdf.length).toBeLessThan(59 * photo * 0.2);
    // Each learner's own photo is embedded, once each.
    const own = await render(reportFixture({ learners: 4, photos: 'each' }));
    expect((await imageObjects(own.pdf)).size).toBe(2 + 4);
  });
});

describe('an S6 class', () => {
  it('shows each paper, the points and the total points', async () => {
    const model = reportFixture({ learners: 8, level: 'alevel', streams: ['Arts', 'Sciences'] });
    const { pdf } = await render(model);
    const pages = await pagesOf(pdf);
    expect(pages).toHaveLength(8);
    model.learners.forEach((learner, index) => {
      const page = pages[index] as string;
      expect(page).toContain(learner.fullname);
      expect(page).toMatch(new RegExp(`Total points:\\s+${learner.points}\\b`));
      expect(page).not.toContain('Division');
      const physics = learner.subjects[0];
      const [first] = physics?.papers ?? [];
      if (!physics || !first) throw new Error('no paper');
      expect(page).toMatch(new RegExp(`Physics\\s+I: ${first.mark} ${first.grade}, II: `));
      expect(page).toMatch(new RegExp(`\\s${physics.total}\\s+${physics.grade}\\s+${physics.points}\\s`));
    });
  });
});

describe('the layout', () => {
  const model = reportFixture({ learners: 2, photos: 'same' });

  it('draws only the sections it names, in its order, with its columns', async () => {
    const layout: ReportLayout = {
      ...DEFAULT_REPORT_LAYOUT,
      sections: ['learner', 'subjects', 'header'],
      columns: ['grade', 'total'],
      showPhoto: false,
      showPositions: false,
    };
    const pdf = await drawReportPdf(model, layout, await fixtureImages(model));
    const [page] = await pagesOf(pdf);
    expect(page).toBeDefined();
    const text = page as string;
    expect(text.indexOf('Name:')).toBeLessThan(text.indexOf('Mustard Hill Primary School'));
    expect(text).toMatch(/Subject\s+Grade\s+Total/);
    expect(text).not.toMatch(/BOT|Comment|Initials|Position|Days attended|remarks|Grading key|Next term/);
    // The logo alone: no photo.
    expect((await imageObjects(pdf)).size).toBe(2);
  });

  it('puts the marks where the layout orders them, as the preview does', async () => {
    const layout: ReportLayout = { ...DEFAULT_REPORT_LAYOUT, columns: ['total', 'marks', 'grade'] };
    const [page] = await pagesOf(await drawReportPdf(model, layout, new Map()));
    expect(page).toMatch(/Subject\s+Total\s+BOT\s+MOT\s+EOT\s+Grade/);
    const alevel = reportFixture({ learners: 1, level: 'alevel' });
    const [paper] = await pagesOf(await drawReportPdf(alevel, layout, new Map()));
    expect(paper).toMatch(new RegExp(`Subject\\s+Total\\s+${REPORT_WORDS.paper}\\s+Grade`));
    expect(paper).not.toMatch(/BOT|Points/);
  });

  it('leaves a ruled line for remarks not yet written, and prints those written', async () => {
    const [learner] = model.learners;
    if (!learner) throw new Error('no learner');
    const written = {
      ...model,
      learners: [
        {
          ...learner,
          remarks: [
            { remarktype_id: null, label: "Class teacher's remarks", text: 'A polite and careful pupil.' },
            { remarktype_id: null, label: "Head teacher's remarks", text: '' },
          ],
        },
      ],
    };
    const pdf = await drawReportPdf(written, DEFAULT_REPORT_LAYOUT, new Map());
    const [page] = await pagesOf(pdf);
    expect(page).toMatch(/Class teacher's remarks:\s+A polite and careful pupil\./);
    expect(page).toMatch(/Head teacher's remarks:\s*\n/);
  });

  it('carries a card too long for one page on to the next, the table header repeated', async () => {
    const [learner] = model.learners;
    const [subject] = learner?.subjects ?? [];
    if (!learner || !subject) throw new Error('no learner');
    const subjects = Array.from({ length: 60 }, (_, index) => ({ ...subject, subject: `Subject number ${index + 1}` }));
    const long = { ...model, learners: [{ ...learner, subjects }, learner] };
    const pdf = await drawReportPdf(long, DEFAULT_REPORT_LAYOUT, new Map());
    const pages = await pagesOf(pdf);
    expect(pages).toHaveLength(3);
    expect(pages[1]).toMatch(/Subject\s+BOT\s+MOT\s+EOT\s+Total/);
    expect(pages[1]).toContain('Subject number 60');
    expect(pages[2]).toContain(learner.fullname);
  });

  it('leaves out an image it cannot read rather than failing the class', async () => {
    const images = new Map<string, Uint8Array>([
      [FIXTURE_LOGO_URL, Buffer.from('RIFF....WEBPVP8 not an image pdfkit reads')],
      [FIXTURE_SAME_PHOTO_URL, await fixtureLogo()],
    ]);
    const pdf = await drawReportPdf(model, DEFAULT_REPORT_LAYOUT, images);
    expect(await pageCount(pdf)).toBe(2);
    expect((await imageObjects(pdf)).size).toBe(2);
  });

  it('makes a valid file of a class with no learner', async () => {
    const pdf = await drawReportPdf({ ...model, learners: [] }, DEFAULT_REPORT_LAYOUT, new Map());
    expect(await pageCount(pdf)).toBe(1);
  });
});

describe('the worker pool', () => {
  it('keeps the event loop free while 300 cards are drawn', async () => {
    const model = reportFixture({ learners: 300, streams: ['East', 'West', 'North', 'South', 'Central'] });
    const images = await fixtureImages(model);
    // Warm the pool up first: a worker's first start loads and compiles its code.
    await renderReportPdf({ model: { ...model, learners: model.learners.slice(0, 1) }, layout: DEFAULT_REPORT_LAYOUT, images });

    let last = performance.now();
    let longest = 0;
    let ticks = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
      ticks++;
    }, 5);
    const started = performance.now();
    let done = 0;
    const pdf = await renderReportPdf({ model, layout: DEFAULT_REPORT_LAYOUT, images }, (count) => {
      done = count;
    });
    const elapsed = performance.now() - started;
    clearInterval(timer);
    expect(done).toBe(300);
    expect(await pageCount(pdf)).toBe(300);
    // Drawn on the event loop, 300 cards would hold it for the whole render (most of a second,
    // one synchronous stretch); in the pool the timer keeps ticking (about 25 ms at worst here,
    // with the machine busy). Relative bounds, so a loaded CI machine does not fail it.
    expect(elapsed).toBeGreaterThan(200);
    expect(longest).toBeLessThan(Math.max(100, elapsed / 4));
    expect(ticks).toBeGreaterThan(elapsed / 5 / 10);
  });

  it('starts again after being closed', async () => {
    await closeReportPdfPool();
    const { pdf, progress } = await render(reportFixture({ learners: 2 }));
    expect(await pageCount(pdf)).toBe(2);
    expect(progress).toEqual([
      [1, 2],
      [2, 2],
    ]);
  });

  it('fails the render, not the process, when the progress callback throws', async () => {
    const model = reportFixture({ learners: 3 });
    await expect(
      renderReportPdf({ model, layout: DEFAULT_REPORT_LAYOUT, images: new Map() }, () => {
        throw new Error('callback failed');
      }),
    ).rejects.toThrow('callback failed');
  });

  it('runs worker.ts with tsx from the sources and worker.js without it from a build', () => {
    const here = new URL('../../../documents/pool.ts', import.meta.url).href;
    const source = documentWorkerEntry(here);
    expect(source.filename).toBe(fileURLToPath(new URL('../../../documents/worker.ts', import.meta.url)));
    expect(source.execArgv?.[0]).toBe('--import');
    expect(source.execArgv?.[1]).toMatch(/^file:\/\/.*\/tsx\/dist\/loader\.mjs$/);
    const built = pathToFileURL('/srv/mustard/apps/server/dist/documents/pool.js').href;
    expect(documentWorkerEntry(built)).toEqual({ filename: '/srv/mustard/apps/server/dist/documents/worker.js' });
  });
});

describe('the fonts', () => {
  it('come from the repository, from the sources and from a build at another depth', () => {
    const server = fileURLToPath(new URL('../../../../', import.meta.url));
    const fonts = path.join(server, 'assets', 'fonts');
    expect(fontsFolder()).toBe(fonts);
    expect(fontsFolder(path.join(server, 'dist', 'src', 'modules', 'reports', 'pdf'))).toBe(fonts);
    expect(FONT_FILES.regular).toBe('DejaVuSans.ttf');
  });
});
