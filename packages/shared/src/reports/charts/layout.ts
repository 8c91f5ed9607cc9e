import type {
  BarChartModel,
  Chart,
  ChartDrawing,
  ChartFill,
  ChartMarker,
  ChartPrimitive,
  ChartSeries,
  ChartTable,
  HistogramChartModel,
  LineChartModel,
} from './model.js';

/*
 * The one layout of every chart (issue 28 point 6): a chart and a box in, the drawing primitives
 * out (chartSvg draws them as SVG, the server's drawChart into a PDF). Pure and bounded: at most
 * CHART_MAX_CATEGORIES categories and CHART_MAX_SERIES series are drawn (the table beside the
 * chart has every row), and an axis has at most a dozen ticks.
 *
 * Black and white first: each series has a grey level and a hatching (or, for lines, a dash and
 * a marker shape), numbers are written on the bars where they fit, and the legend names each.
 * Text widths are estimated (CHAR_EM of the size a character), so labels are cut the same way
 * in both renderers.
 */

export const CHART_MAX_CATEGORIES = 60;
export const CHART_MAX_SERIES = 12;
/** The width a chart is laid out at unless given (points; the SVG scales to its frame). */
export const CHART_WIDTH = 480;

/** An average character's width, in ems (DejaVu Sans, a little generous). */
const CHAR_EM = 0.62;
const PAD = 6;
const TITLE = 11;
const NOTE = 8.5;
const FONT = 9;
const VALUE_FONT = 8;
const INK = '#111111';
const MUTED = '#555555';
const GRID = '#cccccc';
const AXIS = '#333333';
const OUTLINE = '#222222';
const WHITE: ChartFill = { grey: '#ffffff', hatch: null, ink: INK };

/** The fills of unordered series, in turn: grey levels and hatchings that differ in print. */
const SERIES_FILLS: readonly ChartFill[] = [
  { grey: '#404040', hatch: null, ink: '#ffffff' },
  { grey: '#ffffff', hatch: 'diagonal', ink: '#222222' },
  { grey: '#a8a8a8', hatch: null, ink: '#222222' },
  { grey: '#ffffff', hatch: 'cross', ink: '#222222' },
  { grey: '#dcdcdc', hatch: 'horizontal', ink: '#222222' },
  { grey: '#767676', hatch: 'back', ink: '#ffffff' },
  { grey: '#ffffff', hatch: 'dots', ink: '#222222' },
  { grey: '#ffffff', hatch: 'vertical', ink: '#222222' },
];
/** A line series's look, in turn: dash, grey and marker. */
const LINE_STYLES: ReadonlyArray<{ dash: number[] | null; stroke: string; marker: ChartMarker; filled: boolean }> = [
  { dash: null, stroke: '#111111', marker: 'circle', filled: true },
  { dash: [5, 3], stroke: '#444444', marker: 'square', filled: false },
  { dash: [1.5, 2], stroke: '#111111', marker: 'triangle', filled: true },
  { dash: [7, 2, 1.5, 2], stroke: '#444444', marker: 'diamond', filled: false },
];

const hex = (level: number) => {
  const part = Math.round(Math.min(255, Math.max(0, level)))
    .toString(16)
    .padStart(2, '0');
  return `#${part}${part}${part}`;
};
const lightness = (grey: string) => Number.parseInt(grey.slice(1, 3), 16) || 0;

/**
 * The fill of series `index` of `count`: ordered series (grades best to worst) on a grey ramp,
 * dark to light, every other one hatched so neighbours differ; others from SERIES_FILLS in turn.
 */
export function seriesFill(index: number, count: number, ordered = false): ChartFill {
  if (!ordered) return SERIES_FILLS[index % SERIES_FILLS.length] ?? WHITE;
  const level = 0x30 + (count <= 1 ? 0 : index / (count - 1)) * (0xf4 - 0x30);
  return { grey: hex(level), hatch: index % 2 === 1 ? 'diagonal' : null, ink: level < 0x90 ? '#ffffff' : '#222222' };
}

/** A line series's look (dash, grey, marker), by index. */
export const lineStyle = (index: number) =>
  LINE_STYLES[index % LINE_STYLES.length] ?? { dash: null, stroke: INK, marker: 'circle', filled: true };

/** The estimated width of a text at a size. */
export const chartTextWidth = (text: string, size: number) => Array.from(text).length * size * CHAR_EM;

/** A text cut to fit a width, with an ellipsis ('' when not even one character fits). */
export function fitChartText(text: string, size: number, width: number): string {
  const chars = Array.from(text);
  if (chars.length * size * CHAR_EM <= width) return text;
  const keep = Math.floor(width / (size * CHAR_EM)) - 1;
  return keep < 1 ? '' : `${chars.slice(0, keep).join('').trimEnd()}…`;
}

/** Round away a float's noise (0.1 + 0.2). */
const clean = (value: number) => Number(value.toFixed(10));

/**
 * An axis's ticks: round steps (1, 2, 2.5 or 5 times a power of ten; whole steps for counts)
 * from at or below `min` to at or above `max`, about `target` of them, never more than 12.
 */
export function niceTicks(min: number, max: number, integer = false, target = 5): number[] {
  let lo = Number.isFinite(min) ? min : 0;
  let hi = Number.isFinite(max) ? max : lo + 1;
  if (hi < lo) [lo, hi] = [hi, lo];
  if (hi === lo) hi = lo + (integer ? 1 : Math.max(1, Math.abs(lo) * 0.1));
  const raw = (hi - lo) / target;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const factors = integer ? [1, 2, 5, 10] : [1, 2, 2.5, 5, 10];
  let step = (factors.find((factor) => factor * magnitude >= raw) ?? 10) * magnitude;
  if (integer) step = Math.max(1, Math.round(step));
  const start = clean(Math.floor(lo / step) * step);
  const count = Math.min(11, Math.ceil(clean((hi - start) / step)));
  return Array.from({ length: count + 1 }, (_, index) => clean(start + index * step));
}

/** Decimals a tick needs to be written exactly (at most 4). */
function tickDecimals(ticks: readonly number[]): number {
  const step = ticks.length > 1 ? Math.abs((ticks[1] ?? 0) - (ticks[0] ?? 0)) : 1;
  for (let decimals = 0; decimals < 4; decimals++) if (Math.abs(Number(step.toFixed(decimals)) - step) < 1e-9) return decimals;
  return 4;
}

/** A value as the chart writes it ('-' for none). */
export const chartNumber = (value: number | null | undefined, decimals = 0) =>
  value === null || value === undefined || !Number.isFinite(value) ? '-' : value.toFixed(decimals);

const seriesOf = (chart: Chart): readonly ChartSeries[] =>
  chart.kind === 'histogram' ? [{ name: chart.valueLabel, values: chart.bins.map((bin) => bin.count) }] : chart.series;
const categoriesOf = (chart: Chart): readonly string[] =>
  chart.kind === 'histogram' ? chart.bins.map((bin) => bin.label) : chart.categories;

/** The chart's numbers as the table beside it: a row per category, a column per series. */
export function chartTable(chart: Chart): ChartTable {
  const series = seriesOf(chart);
  const decimals = chart.decimals ?? 0;
  return {
    head: [chart.categoryLabel, ...series.map((each) => each.name)],
    rows: categoriesOf(chart).map((category, index) => [category, ...series.map((each) => chartNumber(each.values[index], decimals))]),
  };
}

/** Rows of the legend: each item's swatch and name, wrapped to the width. */
function legendRows(names: readonly string[], width: number) {
  const rows: Array<Array<{ index: number; name: string; width: number }>> = [[]];
  let used = 0;
  names.forEach((full, index) => {
    const name = fitChartText(full, FONT, 140);
    const itemWidth = 12 + chartTextWidth(name, FONT) + 12;
    if (used > 0 && used + itemWidth > width) {
      rows.push([]);
      used = 0;
    }
    rows.at(-1)?.push({ index, name, width: itemWidth });
    used += itemWidth;
  });
  return rows;
}

/**
 * A sensible height for a chart at a width: horizontal bars get a band per category (so names
 * stay readable however many subjects), others a fixed proportion.
 */
export function chartHeight(chart: Chart, width = CHART_WIDTH): number {
  const series = Math.min(CHART_MAX_SERIES, seriesOf(chart).length);
  const head =
    PAD +
    TITLE +
    6 +
    (chart.note ? NOTE + 4 : 0) +
    (series > 1
      ? legendRows(
          seriesOf(chart).map((each) => each.name),
          width - 2 * PAD,
        ).length *
        (FONT + 6)
      : 0);
  if (chart.kind === 'bar' && chart.orientation === 'horizontal') {
    const categories = Math.max(1, Math.min(CHART_MAX_CATEGORIES, chart.categories.length));
    const band = chart.stacked ? 18 : Math.max(18, series * 10 + 6);
    return Math.ceil(head + 8 + categories * band + FONT + 8 + PAD);
  }
  return Math.round(Math.max(head + 120, width * 0.5));
}

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The title, note and legend at the top; the y below them. */
function heading(chart: Chart, width: number, items: ChartPrimitive[]): number {
  let y = PAD + TITLE;
  items.push({
    type: 'text',
    x: PAD,
    y,
    text: fitChartText(chart.title, TITLE, width - 2 * PAD),
    size: TITLE,
    anchor: 'start',
    bold: true,
    colour: INK,
  });
  y += 4;
  if (chart.note) {
    y += NOTE;
    items.push({
      type: 'text',
      x: PAD,
      y,
      text: fitChartText(chart.note, NOTE, width - 2 * PAD),
      size: NOTE,
      anchor: 'start',
      bold: false,
      colour: MUTED,
    });
    y += 4;
  }
  const series = seriesOf(chart).slice(0, CHART_MAX_SERIES);
  if (series.length > 1) {
    y += 2;
    for (const row of legendRows(
      series.map((each) => each.name),
      width - 2 * PAD,
    )) {
      let x = PAD;
      for (const item of row) {
        if (chart.kind === 'line') {
          const style = lineStyle(item.index);
          items.push({
            type: 'line',
            x1: x,
            y1: y + FONT / 2,
            x2: x + 10,
            y2: y + FONT / 2,
            stroke: style.stroke,
            width: 1.2,
            dash: style.dash,
          });
          items.push({ type: 'marker', x: x + 5, y: y + FONT / 2, shape: style.marker, size: 3, filled: style.filled });
        } else {
          const fill = seriesFill(item.index, series.length, chart.kind === 'bar' && chart.ordered);
          items.push({ type: 'rect', x, y: y + 0.5, width: 9, height: 9, fill, stroke: OUTLINE });
        }
        items.push({ type: 'text', x: x + 12, y: y + FONT, text: item.name, size: FONT, anchor: 'start', bold: false, colour: INK });
        x += item.width;
      }
      y += FONT + 6;
    }
  }
  return y;
}

/** The value axis: a function from value to position along it, and its ticks. */
function valueScale(ticks: readonly number[], from: number, to: number, reversed = false) {
  const lo = ticks[0] ?? 0;
  const hi = ticks.at(-1) ?? 1;
  const span = hi - lo || 1;
  return (value: number) => {
    const share = (value - lo) / span;
    return reversed ? to + share * (from - to) : from + share * (to - from);
  };
}

/** A number written on or beside a bar, on a white patch when the fill is hatched. */
function barLabel(items: ChartPrimitive[], text: string, x: number, y: number, anchor: 'start' | 'middle' | 'end', fill: ChartFill | null) {
  const width = chartTextWidth(text, VALUE_FONT);
  if (fill?.hatch) {
    const left = anchor === 'start' ? x : anchor === 'end' ? x - width : x - width / 2;
    items.push({
      type: 'rect',
      x: left - 2,
      y: y - VALUE_FONT * 0.85,
      width: width + 4,
      height: VALUE_FONT * 1.15,
      fill: WHITE,
      stroke: null,
    });
  }
  const colour = fill && !fill.hatch && lightness(fill.grey) < 0x90 ? '#ffffff' : INK;
  items.push({ type: 'text', x, y, text, size: VALUE_FONT, anchor, bold: false, colour });
}

function valueTicks(chart: Chart, lo: number, hi: number) {
  return niceTicks(lo, hi, chart.integer ?? false);
}

/** Bars and histograms. */
function layoutBars(chart: BarChartModel | HistogramChartModel, width: number, height: number, items: ChartPrimitive[], top: number) {
  const categories = categoriesOf(chart).slice(0, CHART_MAX_CATEGORIES);
  const series = seriesOf(chart).slice(0, CHART_MAX_SERIES);
  const stacked = chart.kind === 'bar' && (chart.stacked ?? false) && series.length > 1;
  const horizontal = chart.kind === 'bar' && chart.orientation === 'horizontal';
  const ordered = chart.kind === 'bar' && (chart.ordered ?? false);
  const decimals = chart.decimals ?? 0;
  const value = (each: ChartSeries, index: number) => {
    const raw = each.values[index];
    return raw === null || raw === undefined || !Number.isFinite(raw) ? null : raw;
  };
  let lo = 0;
  let hi = chart.max ?? 0;
  categories.forEach((_, index) => {
    if (stacked)
      hi = Math.max(
        hi,
        series.reduce((sum, each) => sum + Math.max(0, value(each, index) ?? 0), 0),
      );
    else
      for (const each of series) {
        const v = value(each, index);
        if (v !== null) [lo, hi] = [Math.min(lo, v), Math.max(hi, v)];
      }
  });
  const ticks = valueTicks(chart, lo, hi);
  const tickText = ticks.map((tick) => tick.toFixed(tickDecimals(ticks)));
  const longestValue = Math.max(
    ...series.flatMap((each) => each.values.map((v) => chartTextWidth(chartNumber(v, decimals), VALUE_FONT))),
    0,
  );
  const box: Box = horizontal
    ? {
        left: PAD + Math.min(width * 0.35, Math.max(...categories.map((label) => chartTextWidth(label, FONT)), 10)) + 4,
        top: top + 4,
        right: width - PAD - (stacked ? 4 : longestValue + 4),
        bottom: height - PAD - FONT - 6,
      }
    : {
        left: PAD + Math.max(...tickText.map((text) => chartTextWidth(text, FONT))) + 4,
        top: top + VALUE_FONT + 6,
        right: width - PAD,
        bottom: height - PAD - FONT - 6,
      };
  const along = horizontal ? box.bottom - box.top : box.right - box.left;
  const band = along / Math.max(1, categories.length);
  // The value axis runs up (vertical) or right (horizontal) from the lowest tick.
  const scale = horizontal ? valueScale(ticks, box.left, box.right) : valueScale(ticks, box.bottom, box.top);
  const zero = scale(Math.max(ticks[0] ?? 0, Math.min(0, ticks.at(-1) ?? 0)));

  // Grid and value ticks.
  ticks.forEach((tick, index) => {
    const at = scale(tick);
    const text = tickText[index] ?? '';
    if (horizontal) {
      items.push({ type: 'line', x1: at, y1: box.top, x2: at, y2: box.bottom, stroke: GRID, width: 0.5, dash: null });
      items.push({ type: 'text', x: at, y: box.bottom + FONT + 3, text, size: FONT, anchor: 'middle', bold: false, colour: MUTED });
    } else {
      items.push({ type: 'line', x1: box.left, y1: at, x2: box.right, y2: at, stroke: GRID, width: 0.5, dash: null });
      items.push({ type: 'text', x: box.left - 3, y: at + FONT * 0.35, text, size: FONT, anchor: 'end', bold: false, colour: MUTED });
    }
  });

  const gap = 0.3;
  const group = chart.kind === 'histogram' ? band : Math.min(band * (1 - gap), stacked ? 40 : series.length * (horizontal ? 12 : 28));
  const thickness = stacked ? group : group / Math.max(1, series.length);
  categories.forEach((category, index) => {
    const start = (horizontal ? box.top : box.left) + band * index + (band - group) / 2;
    // The category's name under (vertical) or left of (horizontal) its bars.
    const centre = (horizontal ? box.top : box.left) + band * index + band / 2;
    if (horizontal)
      items.push({
        type: 'text',
        x: box.left - 4,
        y: centre + FONT * 0.35,
        text: fitChartText(category, FONT, box.left - PAD - 4),
        size: FONT,
        anchor: 'end',
        bold: false,
        colour: INK,
      });
    else
      items.push({
        type: 'text',
        x: centre,
        y: box.bottom + FONT + 3,
        text: fitChartText(category, FONT, band - 2),
        size: FONT,
        anchor: 'middle',
        bold: false,
        colour: INK,
      });
    let stackedAt = 0;
    series.forEach((each, s) => {
      const v = value(each, index);
      if (v === null) return;
      const fill = seriesFill(s, series.length, ordered);
      const from = stacked ? stackedAt : 0;
      const to = stacked ? stackedAt + Math.max(0, v) : v;
      if (stacked) stackedAt = to;
      const a = stacked ? scale(from) : zero;
      const b = scale(to);
      const offset = stacked ? start : start + thickness * s;
      const length = Math.abs(b - a);
      if (length > 0)
        items.push(
          horizontal
            ? { type: 'rect', x: Math.min(a, b), y: offset, width: length, height: thickness, fill, stroke: OUTLINE }
            : { type: 'rect', x: offset, y: Math.min(a, b), width: thickness, height: length, fill, stroke: OUTLINE },
        );
      const text = chartNumber(v, decimals);
      const size = chartTextWidth(text, VALUE_FONT);
      if (stacked) {
        // Inside its segment when it fits there; the table beside has every number.
        const fits = horizontal ? length >= size + 3 && thickness >= VALUE_FONT + 1 : length >= VALUE_FONT + 2 && thickness >= size + 2;
        if (fits && v > 0)
          barLabel(
            items,
            text,
            horizontal ? (a + b) / 2 : offset + thickness / 2,
            horizontal ? offset + thickness / 2 + VALUE_FONT * 0.35 : (a + b) / 2 + VALUE_FONT * 0.35,
            'middle',
            fill,
          );
      } else if (horizontal) {
        if (thickness >= VALUE_FONT - 1)
          barLabel(items, text, v < 0 ? b - 2 : b + 2, offset + thickness / 2 + VALUE_FONT * 0.35, v < 0 ? 'end' : 'start', null);
      } else if (size <= thickness + 6 || (series.length === 1 && size <= band)) {
        barLabel(items, text, offset + thickness / 2, v < 0 ? b + VALUE_FONT + 2 : b - 2, 'middle', null);
      }
    });
  });
  // The zero line over the bars' feet.
  if (horizontal) items.push({ type: 'line', x1: zero, y1: box.top, x2: zero, y2: box.bottom, stroke: AXIS, width: 0.8, dash: null });
  else items.push({ type: 'line', x1: box.left, y1: zero, x2: box.right, y2: zero, stroke: AXIS, width: 0.8, dash: null });
}

/** Lines across categories; with `lowerIsBetter` the axis runs downwards, so up is better. */
function layoutLines(chart: LineChartModel, width: number, height: number, items: ChartPrimitive[], top: number) {
  const categories = chart.categories.slice(0, CHART_MAX_CATEGORIES);
  const series = chart.series.slice(0, CHART_MAX_SERIES);
  const decimals = chart.decimals ?? 0;
  const values = series.flatMap((each) =>
    each.values.slice(0, categories.length).filter((v): v is number => v !== null && Number.isFinite(v)),
  );
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (chart.max !== undefined) [lo, hi] = [Math.min(lo, 0), Math.max(hi, chart.max)];
  const ticks = valueTicks(chart, lo, hi);
  const tickText = ticks.map((tick) => tick.toFixed(tickDecimals(ticks)));
  const box: Box = {
    left: PAD + Math.max(...tickText.map((text) => chartTextWidth(text, FONT))) + 4,
    top: top + VALUE_FONT + 8,
    right: width - PAD,
    bottom: height - PAD - FONT - 6,
  };
  const reversed = chart.lowerIsBetter ?? false;
  const scale = valueScale(ticks, box.bottom, box.top, reversed);
  ticks.forEach((tick, index) => {
    const at = scale(tick);
    items.push({ type: 'line', x1: box.left, y1: at, x2: box.right, y2: at, stroke: GRID, width: 0.5, dash: null });
    items.push({
      type: 'text',
      x: box.left - 3,
      y: at + FONT * 0.35,
      text: tickText[index] ?? '',
      size: FONT,
      anchor: 'end',
      bold: false,
      colour: MUTED,
    });
  });
  items.push({ type: 'line', x1: box.left, y1: box.top, x2: box.left, y2: box.bottom, stroke: AXIS, width: 0.8, dash: null });
  items.push({ type: 'line', x1: box.left, y1: box.bottom, x2: box.right, y2: box.bottom, stroke: AXIS, width: 0.8, dash: null });
  const band = (box.right - box.left) / Math.max(1, categories.length);
  const x = (index: number) => box.left + band * index + band / 2;
  categories.forEach((category, index) => {
    items.push({
      type: 'text',
      x: x(index),
      y: box.bottom + FONT + 3,
      text: fitChartText(category, FONT, band - 2),
      size: FONT,
      anchor: 'middle',
      bold: false,
      colour: INK,
    });
  });
  series.forEach((each, s) => {
    const style = lineStyle(s);
    // A gap (no value that term) breaks the line; each run drawn, each point marked.
    let run: Array<readonly [number, number]> = [];
    const flush = () => {
      if (run.length > 1) items.push({ type: 'polyline', points: run, stroke: style.stroke, width: 1.4, dash: style.dash });
      run = [];
    };
    categories.forEach((_, index) => {
      const v = each.values[index];
      if (v === null || v === undefined || !Number.isFinite(v)) flush();
      else run.push([x(index), scale(v)]);
    });
    flush();
    categories.forEach((_, index) => {
      const v = each.values[index];
      if (v === null || v === undefined || !Number.isFinite(v)) return;
      items.push({ type: 'marker', x: x(index), y: scale(v), shape: style.marker, size: 3, filled: style.filled });
      if (series.length === 1) {
        const text = chartNumber(v, decimals);
        if (chartTextWidth(text, VALUE_FONT) <= band) barLabel(items, text, x(index), scale(v) - 6, 'middle', null);
      }
    });
  });
}

/** Whether a chart has anything to draw: a category with a value. */
export function chartHasData(chart: Chart): boolean {
  const categories = categoriesOf(chart).length;
  return categories > 0 && seriesOf(chart).some((each) => each.values.slice(0, categories).some((v) => v !== null && Number.isFinite(v)));
}

/** The words a chart writes of its own. */
export const CHART_WORDS = { noData: 'Nothing to draw: no results' } as const;

/** A chart laid out in a box of `width` by `height` (its own units: a PDF's points, the SVG's viewBox). */
export function layoutChart(chart: Chart, width = CHART_WIDTH, height = chartHeight(chart, width)): ChartDrawing {
  const items: ChartPrimitive[] = [];
  const top = heading(chart, width, items);
  if (!chartHasData(chart))
    items.push({
      type: 'text',
      x: width / 2,
      y: (top + height) / 2,
      text: fitChartText(CHART_WORDS.noData, FONT, width - 2 * PAD),
      size: FONT,
      anchor: 'middle',
      bold: false,
      colour: MUTED,
    });
  else if (chart.kind === 'line') layoutLines(chart, width, height, items, top);
  else layoutBars(chart, width, height, items, top);
  return { width, height, title: chart.title, items };
}

/** The hatching's spacing (the SVG's pattern tile, the PDF's lines). */
export const HATCH_SPACING = 5;

/**
 * A hatching's strokes over a rectangle, on the page's grid (so neighbours line up as the SVG's
 * pattern tiles do): segments to draw clipped to the rectangle, and dots. For the PDF; bounded by
 * the rectangle's size.
 */
export function hatchMarks(
  hatch: ChartFill['hatch'],
  x: number,
  y: number,
  width: number,
  height: number,
): { lines: Array<[number, number, number, number]>; dots: Array<[number, number]> } {
  const lines: Array<[number, number, number, number]> = [];
  const dots: Array<[number, number]> = [];
  const s = HATCH_SPACING;
  const right = x + width;
  const bottom = y + height;
  if (!hatch || width <= 0 || height <= 0) return { lines, dots };
  if (hatch === 'horizontal') for (let at = Math.floor(y / s) * s + s / 2; at < bottom; at += s) if (at > y) lines.push([x, at, right, at]);
  if (hatch === 'vertical') for (let at = Math.floor(x / s) * s + s / 2; at < right; at += s) if (at > x) lines.push([at, y, at, bottom]);
  if (hatch === 'dots')
    for (let cy = Math.floor(y / s) * s + s / 2; cy < bottom; cy += s)
      for (let cx = Math.floor(x / s) * s + s / 2; cx < right; cx += s) if (cy > y && cx > x) dots.push([cx, cy]);
  // Lines x + y = c (rising, "diagonal") and x - y = c (falling, "back"), c on the grid.
  if (hatch === 'diagonal' || hatch === 'cross')
    for (let c = Math.floor((x + y) / s) * s; c <= right + bottom; c += s) lines.push([c - bottom, bottom, c - y, y]);
  if (hatch === 'back' || hatch === 'cross')
    for (let c = Math.floor((x - bottom) / s) * s; c <= right - y; c += s) lines.push([c + y, y, c + bottom, bottom]);
  return { lines, dots };
}
