import { describe, expect, it } from 'vitest';
import type { AnalysisModel } from '../../endpoints/analysis.js';
import {
  aggregateHistogram,
  analysisCharts,
  analysisChartsHtml,
  type BarChartModel,
  CHART_MAX_CATEGORIES,
  CHART_WORDS,
  type Chart,
  type ChartPrimitive,
  chartSvg,
  chartTable,
  classTrendChart,
  divisionChart,
  divisionsByClassChart,
  gradeDistributionChart,
  hatchMarks,
  layoutChart,
  meanGradePointChart,
  niceTicks,
  schoolAnalysisCharts,
  schoolAnalysisChartsHtml,
  seriesFill,
  sexesChart,
  trendLine,
} from './index.js';

/*
 * The charts' one layout, its SVG, and the builders (issue 28 point 6): bars proportional to
 * their values, sensible ticks, nothing drawn from nothing, labels cut to their room, loops
 * bounded, series told apart without colour, every text escaped.
 */

type Rect = Extract<ChartPrimitive, { type: 'rect' }>;
type Text = Extract<ChartPrimitive, { type: 'text' }>;
const rects = (items: ChartPrimitive[]) =>
  items.filter((item): item is Rect => item.type === 'rect' && item.stroke !== null && item.width !== 9);
const texts = (items: ChartPrimitive[]) => items.filter((item): item is Text => item.type === 'text').map((item) => item.text);

/** Every coordinate of every primitive a finite number (no NaN from an empty or flat chart). */
function allFinite(items: ChartPrimitive[]): boolean {
  const numbers = items.flatMap((item) =>
    Object.values(item).flatMap((value) => (typeof value === 'number' ? [value] : Array.isArray(value) ? value.flat() : [])),
  );
  return numbers.every((value) => typeof value !== 'number' || Number.isFinite(value));
}

const bars = (values: Array<number | null>, extra: Partial<Chart> = {}): Chart =>
  ({
    kind: 'bar',
    title: 'Learners',
    categoryLabel: 'Subject',
    categories: values.map((_, index) => `S${index + 1}`),
    series: [{ name: 'Learners', values }],
    ...extra,
  }) as Chart;

describe('niceTicks', () => {
  it('steps by 1, 2, 2.5 or 5 times a power of ten, covering the data', () => {
    expect(niceTicks(0, 37)).toEqual([0, 10, 20, 30, 40]);
    expect(niceTicks(3.2, 4.7)).toEqual([3, 3.5, 4, 4.5, 5]);
    expect(niceTicks(0, 100)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(niceTicks(-12, 30)).toEqual([-20, -10, 0, 10, 20, 30]);
  });

  it('counts in whole steps, and a flat or empty range still has an axis', () => {
    expect(niceTicks(0, 4, true)).toEqual([0, 1, 2, 3, 4]);
    expect(niceTicks(0, 3, true).every(Number.isInteger)).toBe(true);
    expect(niceTicks(0, 0, true)).toEqual([0, 1]);
    expect(niceTicks(5, 5).length).toBeGreaterThan(1);
    expect(niceTicks(Number.NaN, Number.POSITIVE_INFINITY).every(Number.isFinite)).toBe(true);
  });

  it('never gives more than 12 ticks', () => {
    for (const [lo, hi] of [
      [0, 1e9],
      [-1e-9, 1e-9],
      [0, 0.0001],
      [1, 1e15],
    ] as const) {
      const ticks = niceTicks(lo, hi);
      expect(ticks.length, `${lo}..${hi}`).toBeLessThanOrEqual(12);
      expect(ticks[0]).toBeLessThanOrEqual(lo);
      expect(ticks.at(-1)).toBeGreaterThanOrEqual(hi);
    }
  });
});

describe('layoutChart', () => {
  it('draws vertical bars proportional to their values, standing on one line', () => {
    const { items } = layoutChart(bars([10, 20, 40]), 400, 240);
    const drawn = rects(items);
    expect(drawn).toHaveLength(3);
    const [a, b, c] = drawn as [Rect, Rect, Rect];
    expect(b.height / a.height).toBeCloseTo(2, 6);
    expect(c.height / a.height).toBeCloseTo(4, 6);
    expect(new Set(drawn.map((rect) => (rect.y + rect.height).toFixed(6))).size).toBe(1);
    expect(a.x).toBeLessThan(b.x);
    // The values written over the bars, the title on top.
    expect(texts(items)).toEqual(expect.arrayContaining(['Learners', '10', '20', '40', 'S1', 'S3']));
    expect(allFinite(items)).toBe(true);
  });

  it('draws horizontal bars proportional, from the same left edge', () => {
    const { items } = layoutChart(bars([3, 6], { orientation: 'horizontal' }), 400, 200);
    const [a, b] = rects(items) as [Rect, Rect];
    expect(b.width / a.width).toBeCloseTo(2, 6);
    expect(a.x).toBeCloseTo(b.x, 6);
    expect(a.y).toBeLessThan(b.y);
  });

  it('stacks series: each segment its value, one after the other, ordered series dark to light', () => {
    const chart: Chart = {
      kind: 'bar',
      title: 'Grades',
      categoryLabel: 'Subject',
      categories: ['English'],
      series: [
        { name: 'D1', values: [2] },
        { name: 'D2', values: [1] },
        { name: 'F9', values: [3] },
      ],
      stacked: true,
      ordered: true,
      orientation: 'horizontal',
      integer: true,
    };
    const { items } = layoutChart(chart, 400, 160);
    const [d1, d2, f9] = rects(items) as [Rect, Rect, Rect];
    expect(d2.width / d1.width).toBeCloseTo(0.5, 6);
    expect(f9.width / d1.width).toBeCloseTo(1.5, 6);
    expect(d2.x).toBeCloseTo(d1.x + d1.width, 6);
    expect(f9.x).toBeCloseTo(d2.x + d2.width, 6);
    const grey = (rect: Rect) => Number.parseInt(rect.fill.grey.slice(1, 3), 16);
    expect(grey(d1)).toBeLessThan(grey(d2));
    expect(grey(d2)).toBeLessThan(grey(f9));
    // Neighbours differ by more than their grey: every other one hatched.
    expect([d1.fill.hatch, d2.fill.hatch, f9.fill.hatch]).toEqual([null, 'diagonal', null]);
  });

  it('tells unordered series apart by grey and hatching, not by colour', () => {
    const fills = Array.from({ length: 8 }, (_, index) => seriesFill(index, 8));
    expect(new Set(fills.map((fill) => `${fill.grey}/${fill.hatch}`)).size).toBe(8);
    for (const fill of fills) expect(fill.grey).toMatch(/^#([0-9a-f]{2})\1\1$/);
  });

  it('draws no bar for zeros, and nothing but a sentence for no data', () => {
    const zeros = layoutChart(bars([0, 0]), 300, 200);
    expect(rects(zeros.items)).toHaveLength(0);
    expect(allFinite(zeros.items)).toBe(true);
    expect(texts(zeros.items)).toContain('0');
    for (const chart of [bars([]), bars([null, null]), aggregateHistogram([]), trendLine({ title: 'Mean', terms: [], series: [] })]) {
      const { items } = layoutChart(chart, 300, 200);
      expect(rects(items)).toHaveLength(0);
      expect(texts(items)).toContain(CHART_WORDS.noData);
      expect(allFinite(items)).toBe(true);
    }
  });

  it('draws one category as one bar of bounded width, centred', () => {
    const { items } = layoutChart(bars([7]), 400, 240);
    const [bar] = rects(items) as [Rect];
    expect(bar.width).toBeLessThanOrEqual(40);
    const axis = items.find((item) => item.type === 'line' && item.stroke === '#333333') as Extract<ChartPrimitive, { type: 'line' }>;
    expect(bar.x + bar.width / 2).toBeCloseTo((axis.x1 + axis.x2) / 2, 6);
  });

  it('cuts long names to their room with an ellipsis', () => {
    const long = 'Religious Education and Christian Living in the Community '.repeat(4);
    const chart = bars([5, 6], { orientation: 'horizontal', categories: [long, 'Maths'] } as Partial<Chart>);
    const { items } = layoutChart(chart, 300, 120);
    const label = texts(items).find((text) => text.startsWith('Religious')) as string;
    expect(label.endsWith('…')).toBe(true);
    expect(label.length).toBeLessThan(60);
    expect(texts(items)).toContain('Maths');
    const title = layoutChart({ ...bars([1]), title: long }, 200, 120).items.find((item) => item.type === 'text') as Text;
    expect(title.text.endsWith('…')).toBe(true);
  });

  it('stays bounded however many categories and series', () => {
    const many = Array.from({ length: 5000 }, (_, index) => index);
    const chart: Chart = {
      kind: 'bar',
      title: 'Many',
      categoryLabel: 'X',
      categories: many.map(String),
      series: Array.from({ length: 50 }, (_, s) => ({ name: `S${s}`, values: many })),
    };
    const { items } = layoutChart(chart, 400, 300);
    expect(items.length).toBeLessThan(CHART_MAX_CATEGORIES * 12 * 3 + 200);
    expect(allFinite(items)).toBe(true);
  });

  it('turns the axis of a lower-is-better line so up is better, and breaks it where a term has none', () => {
    const chart = trendLine({
      title: 'Aggregate',
      terms: ['I 2025', 'II 2025', 'III 2025', 'I 2026'],
      series: [{ name: 'Amina', values: [12, 8, null, 6] }],
      lowerIsBetter: true,
    });
    const { items } = layoutChart(chart, 400, 220);
    const markers = items.filter((item) => item.type === 'marker') as Array<Extract<ChartPrimitive, { type: 'marker' }>>;
    expect(markers).toHaveLength(3);
    const [twelve, eight, six] = markers as [(typeof markers)[0], (typeof markers)[0], (typeof markers)[0]];
    expect(eight.y).toBeLessThan(twelve.y);
    expect(six.y).toBeLessThan(eight.y);
    // The gap breaks the line: one run of two points, the last point alone.
    const lines = items.filter((item) => item.type === 'polyline');
    expect(lines).toHaveLength(1);
    const upright = layoutChart({ ...chart, lowerIsBetter: false }, 400, 220).items.filter(
      (item) => item.type === 'marker',
    ) as typeof markers;
    expect((upright[1] as (typeof markers)[0]).y).toBeGreaterThan((upright[0] as (typeof markers)[0]).y);
  });

  it('draws several lines with distinct dashes and markers, named in the legend', () => {
    const chart = trendLine({
      title: 'Class mean',
      terms: ['I', 'II'],
      series: [
        { name: 'P7 East', values: [50, 55] },
        { name: 'P7 West', values: [52, 51] },
      ],
    });
    const { items } = layoutChart(chart, 400, 220);
    const lines = items.filter((item) => item.type === 'polyline') as Array<Extract<ChartPrimitive, { type: 'polyline' }>>;
    expect(lines).toHaveLength(2);
    expect(lines[0]?.dash).not.toEqual(lines[1]?.dash);
    expect(texts(items)).toEqual(expect.arrayContaining(['P7 East', 'P7 West']));
  });
});

describe('aggregateHistogram', () => {
  it('counts aggregates in bins from the lowest, absent learners left out, bars touching', () => {
    const chart = aggregateHistogram([4, 5, 9, 36, null, 12, 12]);
    const total = chart.bins.reduce((sum, bin) => sum + bin.count, 0);
    expect(total).toBe(6);
    expect(chart.bins[0]?.label).toBe('3-5');
    expect(chart.bins.length).toBeLessThanOrEqual(12);
    const { items } = layoutChart(chart, 400, 220);
    const drawn = rects(items).sort((a, b) => a.x - b.x);
    const width = (drawn[0] as Rect).width;
    const steps = drawn.slice(1).map((rect, index) => (rect.x - (drawn[index] as Rect).x) / width);
    // One bin's width apart, or whole bins apart where bins between are empty: bars touch.
    for (const step of steps) expect(Math.abs(step - Math.round(step))).toBeLessThan(1e-6);
    expect(steps.map(Math.round)).toContain(1);
    expect(aggregateHistogram([6, 7, 8]).bins.map((bin) => bin.label)).toEqual(['6', '7', '8']);
    expect(aggregateHistogram([4, 36], { binWidth: 8 }).bins.map((bin) => bin.label)).toEqual(['0-7', '8-15', '16-23', '24-31', '32-39']);
    // A wide range in at most 12 bins whatever the width asked.
    expect(aggregateHistogram([1, 1e6], { binWidth: 1 }).bins.length).toBeLessThanOrEqual(12);
  });
});

describe('chartTable', () => {
  it('writes the same numbers as a row per category', () => {
    const chart = bars([1.234, null], { decimals: 1 });
    expect(chartTable(chart)).toEqual({
      head: ['Subject', 'Learners'],
      rows: [
        ['S1', '1.2'],
        ['S2', '-'],
      ],
    });
  });
});

describe('hatchMarks', () => {
  it('covers a rectangle with a bounded number of strokes, dots inside it', () => {
    for (const hatch of ['diagonal', 'back', 'cross', 'horizontal', 'vertical'] as const) {
      const { lines } = hatchMarks(hatch, 10, 20, 50, 30);
      expect(lines.length, hatch).toBeGreaterThan(3);
      expect(lines.length, hatch).toBeLessThan(40);
    }
    const { dots } = hatchMarks('dots', 10, 20, 50, 30);
    expect(dots.length).toBe(60);
    expect(dots.every(([x, y]) => x > 10 && x < 60 && y > 20 && y < 50)).toBe(true);
    expect(hatchMarks(null, 0, 0, 10, 10)).toEqual({ lines: [], dots: [] });
    expect(hatchMarks('cross', 0, 0, 0, 10).lines).toEqual([]);
  });
});

/** A small XML check: tags balanced and properly nested, attributes quoted, no raw '<' or '&' in text. */
function wellFormed(xml: string): { tags: Map<string, number> } {
  const tags = new Map<string, number>();
  const stack: string[] = [];
  const pattern = /<(\/?)([a-zA-Z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let at = 0;
  for (let match = pattern.exec(xml); match; match = pattern.exec(xml)) {
    at = pattern.lastIndex;
    const [, closing, name, , selfClosing, text] = match;
    if (text !== undefined) {
      expect(text).not.toMatch(/&(?!(amp|lt|gt|quot|#39);)/);
      continue;
    }
    if (closing) expect(stack.pop()).toBe(name);
    else {
      tags.set(name as string, (tags.get(name as string) ?? 0) + 1);
      if (!selfClosing) stack.push(name as string);
    }
  }
  expect(at, xml.slice(at, at + 80)).toBe(xml.length);
  expect(stack).toEqual([]);
  return { tags };
}

describe('chartSvg', () => {
  it('is well-formed SVG with a rect per bar, patterns for hatched fills, and every text escaped', () => {
    const chart: Chart = {
      kind: 'bar',
      title: 'Boys & girls <script>',
      categoryLabel: 'Subject',
      categories: ['English', '"Maths" & <b>'],
      series: [
        { name: 'Boys', values: [50, 60] },
        { name: 'Girls', values: [55, 65] },
      ],
    };
    const svg = chartSvg(chart, { id: 'x' });
    const { tags } = wellFormed(svg);
    const drawing = layoutChart(chart);
    const drawnRects = drawing.items.filter((item) => item.type === 'rect').length;
    // The background, each rect primitive, and each pattern's tile.
    expect(tags.get('rect')).toBe(1 + drawnRects + (tags.get('pattern') ?? 0));
    expect(tags.get('pattern')).toBe(1);
    expect(svg).toContain('fill="url(#x-diagonal-ffffff-222222)"');
    expect(svg).not.toContain('<script>');
    expect(svg).not.toContain('<b>');
    expect(svg).toContain('Boys &amp; girls &lt;script&gt;');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 480 ')).toBe(true);
  });
});

const SEX = (meanMark: number | null) => ({ sat: meanMark === null ? 0 : 2, meanMark, meanGradePoint: null });
function analysisModel(): AnalysisModel {
  const row = (
    subject: string,
    meanGradePoint: number | null,
    grades: Record<string, number>,
    boys: number | null,
    girls: number | null,
  ) => ({
    subject_id: subject,
    subject,
    teacher: null,
    sat: Object.values(grades).reduce((sum, each) => sum + each, 0),
    absent: 0,
    grades,
    distinction: null,
    credit: null,
    pass: null,
    fail: null,
    meanMark: null,
    meanGradePoint,
    performanceIndex: null,
    position: null,
    boys: SEX(boys),
    girls: SEX(girls),
  });
  return {
    report: { school: 'S', form: 'P7', stream: null, term: 'I', year: 2026, level: 'primary', precision: 1, markTypes: ['EOT'] },
    grades: ['D1', 'D2', 'F9'],
    learners: 4,
    subjects: [
      row('English', 4, { D1: 1, D2: 1, F9: 1 }, 48.5, 85),
      row('Mathematics', 4.25, { D1: 2, D2: 0, F9: 2 }, 62.5, 45),
      row('Art', null, { D1: 0, D2: 0, F9: 0 }, null, null),
      row('Science', 2, { D1: 2, D2: 2, F9: 0 }, 80, 70),
    ],
    divisions: [
      { division: 'I', count: 1 },
      { division: 'II', count: 2 },
      { division: 'X', count: 1 },
    ],
    noMarkDivision: 'X',
    explain: {},
  };
}

describe('the analysis charts', () => {
  it('stack each subject’s grades, best first', () => {
    const chart = gradeDistributionChart(analysisModel());
    expect(chart).toMatchObject({ stacked: true, ordered: true, orientation: 'horizontal' });
    expect(chart.series.map((each) => each.name)).toEqual(['D1', 'D2', 'F9']);
    expect(chart.series[2]?.values).toEqual([1, 2, 0, 0]);
  });

  it('sort mean grade points weakest first (the highest: lower is better), a subject nobody sat last', () => {
    const chart = meanGradePointChart(analysisModel());
    expect(chart.categories).toEqual(['Mathematics', 'English', 'Science', 'Art']);
    expect(chart.series[0]?.values).toEqual([4.25, 4, 2, null]);
    expect(chart.note).toMatch(/lower is better/i);
    expect(chartTable(chart).rows[0]).toEqual(['Mathematics', '4.3']);
  });

  it('put boys beside girls per subject', () => {
    const chart = sexesChart(analysisModel());
    expect(chart.series.map((each) => each.name)).toEqual(['Boys', 'Girls']);
    expect(chart.series[1]?.values).toEqual([85, 45, null, 70]);
  });

  it('count learners per division with the share in Division I', () => {
    const chart = divisionChart(analysisModel());
    expect(chart?.series[0]?.values).toEqual([1, 2, 1]);
    // Of the learners with a result: the primary's last division (X, no mark) is not counted against Division I.
    expect(chart?.note).toBe('Division I: 33.3% of 3 learners with a result');
    // O level has no "no mark" division: every learner with a division counts.
    const olevel = { ...analysisModel(), noMarkDivision: null };
    olevel.report.level = 'olevel';
    expect(divisionChart(olevel)?.note).toBe('Division I: 25.0% of 4 learners with a result');
    expect(divisionChart({ ...analysisModel(), divisions: null })).toBeNull();
    expect(analysisCharts({ ...analysisModel(), divisions: null })).toHaveLength(3);
  });

  it('compare classes or streams by their divisions, each named with its % in Division I', () => {
    const chart = divisionsByClassChart(
      [
        {
          label: 'P7 East',
          divisions: [
            { division: 'I', count: 3 },
            { division: 'II', count: 1 },
          ],
          divisionOne: 75,
        },
        {
          label: 'P7 West',
          divisions: [
            { division: 'II', count: 2 },
            { division: 'U', count: 2 },
          ],
          divisionOne: 0,
        },
        { label: 'S5', divisions: null, divisionOne: null },
      ],
      1,
    );
    expect(chart.categories).toEqual(['P7 East · 75.0% Div. I', 'P7 West · 0.0% Div. I', 'S5']);
    expect(chart.series.map((each) => [each.name, each.values])).toEqual([
      ['I', [3, 0, null]],
      ['II', [1, 2, null]],
      ['U', [0, 2, null]],
    ]);
    expect(chart).toMatchObject({ stacked: true, ordered: true });
  });

  it('compare a whole school’s classes with divisions, none drawn when no class has any', () => {
    const school = {
      report: { school: 'S', term: 'I', year: 2026, precision: 1, markTypes: ['EOT'] },
      summary: [
        {
          form: 'P6',
          learners: 2,
          divisions: [
            { division: 'I', count: 1 },
            { division: 'II', count: 1 },
          ],
          divisionOne: 50,
          meanGradePoint: 3,
        },
        { form: 'S2', learners: 5, divisions: null, divisionOne: null, meanGradePoint: null },
      ],
      classes: [],
      leftOut: [],
    };
    const [chart] = schoolAnalysisCharts(school) as [BarChartModel];
    expect(chart.categories).toEqual(['P6 · 50.0% Div. I']);
    expect(schoolAnalysisChartsHtml(school)).toContain('aria-label="Divisions per class"');
    expect(schoolAnalysisCharts({ ...school, summary: [school.summary[1] as (typeof school.summary)[number]] })).toEqual([]);
  });

  it('preview as four figures, each an SVG with its table beside it', () => {
    const html = analysisChartsHtml(analysisModel());
    expect(html.match(/<figure /g)).toHaveLength(4);
    expect(html.match(/<svg /g)).toHaveLength(4);
    expect(html.match(/<table class="chart-table">/g)).toHaveLength(4);
    wellFormed(html);
  });
});

describe('the class trend across the year’s terms', () => {
  const point = (term: string, meanMark: number | null, divisionOne: number | null) => ({ term, year: 2026, meanMark, divisionOne });
  it('draws the class mean and the % Division I, a point per term', () => {
    const chart = classTrendChart({ ...analysisModel(), trend: [point('I', 55.5, 20), point('II', 61, 25)] });
    expect(chart?.categories).toEqual(['I 2026', 'II 2026']);
    expect(chart?.series.map((each) => [each.name, each.values])).toEqual([
      ['Class mean mark', [55.5, 61]],
      ['% Division I', [20, 25]],
    ]);
  });
  it('needs two terms, and has no Division I line without divisions', () => {
    expect(classTrendChart({ ...analysisModel(), trend: [point('I', 55, 20)] })).toBeNull();
    expect(classTrendChart(analysisModel())).toBeNull();
    const alevel = classTrendChart({ ...analysisModel(), divisions: null, trend: [point('I', 55, null), point('II', 60, null)] });
    expect(alevel?.series.map((each) => each.name)).toEqual(['Class mean mark']);
    expect(analysisCharts({ ...analysisModel(), trend: [point('I', 55, 20), point('II', 60, 30)] })).toHaveLength(5);
  });
});
