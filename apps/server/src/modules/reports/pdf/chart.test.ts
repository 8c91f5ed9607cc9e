import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { aggregateHistogram, type Chart, chartSvg, layoutChart, trendLine } from '@mustard/shared';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { openPdf } from '../../../documents/pdf.js';
import { chartFigureHeight, drawChart, drawChartFigure } from './chart.js';

/*
 * Charts drawn into a PDF from the one layout (issue 28 point 6), read back as a person's reader
 * would: pdftotext finds the titles, the axes' and bars' labels and the table beside; pdfimages
 * finds no picture (vector graphics, real text). The preview's SVG of the same chart parsed by
 * a strict XML parser.
 */

const run = promisify(execFile);

async function readBack(bytes: Buffer): Promise<{ text: string; images: string }> {
  const folder = await mkdtemp(path.join(tmpdir(), 'chart-'));
  try {
    const file = path.join(folder, 'chart.pdf');
    await writeFile(file, bytes);
    const text = (await run('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'])).stdout;
    const images = (await run('pdfimages', ['-list', file])).stdout;
    return { text, images };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

const SEXES: Chart = {
  kind: 'bar',
  title: 'Boys and girls: mean mark per subject',
  note: 'Higher is better',
  categoryLabel: 'Subject',
  categories: ['English', 'Mathematics', 'Social Studies'],
  series: [
    { name: 'Boys', values: [48.5, 62.25, null] },
    { name: 'Girls', values: [85, 44, 70] },
  ],
  orientation: 'horizontal',
  decimals: 1,
};
const GRADES: Chart = {
  kind: 'bar',
  title: 'Grade distribution per subject',
  categoryLabel: 'Subject',
  categories: ['English', 'Science'],
  series: ['D1', 'D2', 'C3', 'F9'].map((name, index) => ({ name, values: [index + 1, 4 - index] })),
  stacked: true,
  ordered: true,
  orientation: 'horizontal',
  integer: true,
};
const TREND = trendLine({
  title: 'Class mean across terms',
  terms: ['I 2025', 'II 2025', 'III 2025'],
  series: [
    { name: 'P7', values: [51.5, null, 58.25] },
    { name: 'P7 West', values: [50, 52, 53] },
    { name: 'P6', values: [40, 42, 41] },
    { name: 'P5', values: [45, 44, 47] },
  ],
  decimals: 1,
});
const HISTOGRAM = aggregateHistogram([4, 6, 9, 12, 12, 30, null], { title: 'Aggregates of P7' });

describe('drawChart', () => {
  it('draws the charts as vector graphics whose words pdftotext reads back', async () => {
    const { doc, bytes } = openPdf({ orientation: 'landscape', margin: 32, title: 'Charts', school: 'Test School' });
    doc.addPage();
    drawChart(doc, SEXES, 32, 32, 380);
    drawChart(doc, GRADES, 430, 32, 380);
    drawChart(doc, TREND, 32, 300, 380, 240);
    drawChart(doc, HISTOGRAM, 430, 300, 380, 240);
    doc.addPage();
    const height = drawChartFigure(doc, SEXES, 32, 32, 760);
    expect(height).toBe(chartFigureHeight(SEXES, 760));
    doc.end();
    const { text, images } = await readBack(await bytes);
    for (const words of [
      'Boys and girls: mean mark per subject',
      'Higher is better',
      'Grade distribution per subject',
      'Class mean across terms',
      'Aggregates of P7',
      'Social Studies',
      'Mathematics',
      'Girls',
      'III 2025',
      'P7 West',
      '12-14',
      '85.0',
      '62.3',
    ])
      expect(text, words).toContain(words);
    // The table beside the chart: a row per subject, '-' where boys have no mark.
    const pages = text.split('\f');
    expect(pages[1]).toMatch(/Social Studies\s+-\s+70\.0/);
    // No picture: bars, hatching and text are the PDF's own vector graphics and fonts.
    expect(images.trim().split('\n').length).toBe(2);
  });

  it('writes the same chart as well-formed SVG, a rect element per rect primitive', () => {
    for (const chart of [SEXES, GRADES, TREND, HISTOGRAM]) {
      const svg = chartSvg(chart, { id: 'c' });
      const parser = new SaxesParser({ xmlns: true });
      const counts = new Map<string, number>();
      parser.on('opentag', (tag) => counts.set(tag.local, (counts.get(tag.local) ?? 0) + 1));
      parser.write(svg).close();
      const drawing = layoutChart(chart);
      // A square marker is a rect too.
      const expected = drawing.items.filter((item) => item.type === 'rect' || (item.type === 'marker' && item.shape === 'square')).length;
      expect(counts.get('svg'), chart.title).toBe(1);
      expect(counts.get('rect'), chart.title).toBe(1 + expected + (counts.get('pattern') ?? 0));
      expect(counts.get('text'), chart.title).toBe(drawing.items.filter((item) => item.type === 'text').length);
    }
  });
});
