/*
 * A chart's definition (issue 28 point 6): plain data, no functions, so the same definition is
 * drawn as SVG in a preview and as vector graphics in a PDF worker. The numbers are the tables';
 * a chart never computes a result of its own.
 */

/** One series: a name (shown in the legend and the table) and a value per category, null for none. */
export interface ChartSeries {
  name: string;
  values: ReadonlyArray<number | null>;
}

interface ChartBase {
  title: string;
  /** A line under the title: what the numbers are and which way is better ("lower is better"). */
  note?: string;
  /** The categories' heading in the table beside the chart ("Subject", "Term"). */
  categoryLabel: string;
  /** Decimals of the values shown (labels, table); 0 unless given. */
  decimals?: number;
  /** Counts: the value axis's ticks are whole numbers. */
  integer?: boolean;
  /** The value axis's top when it is known (100 for a percent); the data's otherwise. */
  max?: number;
}

/** Bars per category: one series, several side by side (grouped) or stacked. */
export interface BarChartModel extends ChartBase {
  kind: 'bar';
  categories: readonly string[];
  series: readonly ChartSeries[];
  stacked?: boolean;
  /** Vertical bars (the default) or horizontal (long category names, a sorted list). */
  orientation?: 'vertical' | 'horizontal';
  /** The series are ordered (grades best to worst): filled by a grey ramp, dark to light. */
  ordered?: boolean;
}

/** Lines across categories (terms on x), several series; `lowerIsBetter` turns the axis so up is better. */
export interface LineChartModel extends ChartBase {
  kind: 'line';
  categories: readonly string[];
  series: readonly ChartSeries[];
  lowerIsBetter?: boolean;
}

/** Counts of values in consecutive bins, bars touching. */
export interface HistogramChartModel extends ChartBase {
  kind: 'histogram';
  /** The bins in order: a label ("4-7") and how many values fell in it. */
  bins: ReadonlyArray<{ label: string; count: number }>;
  /** The counts' name in the table ("Learners"). */
  valueLabel: string;
}

export type Chart = BarChartModel | LineChartModel | HistogramChartModel;

/** Hatching drawn over a fill, so series differ in black and white, never by colour alone. */
export type ChartHatch = 'diagonal' | 'back' | 'cross' | 'horizontal' | 'vertical' | 'dots';

/** How an area is filled: a grey level, hatching over it, and the hatching's ink. */
export interface ChartFill {
  grey: string;
  hatch: ChartHatch | null;
  ink: string;
}

/*
 * The drawing primitives one layout gives both renderers. Coordinates are in the chart's own
 * units (a PDF's points; the SVG's viewBox), y down. A text's y is its baseline.
 */
export type ChartPrimitive =
  | { type: 'rect'; x: number; y: number; width: number; height: number; fill: ChartFill; stroke: string | null }
  | { type: 'line'; x1: number; y1: number; x2: number; y2: number; stroke: string; width: number; dash: readonly number[] | null }
  | {
      type: 'polyline';
      points: ReadonlyArray<readonly [number, number]>;
      stroke: string;
      width: number;
      dash: readonly number[] | null;
    }
  | { type: 'marker'; x: number; y: number; shape: ChartMarker; size: number; filled: boolean }
  | {
      type: 'text';
      x: number;
      y: number;
      text: string;
      size: number;
      anchor: 'start' | 'middle' | 'end';
      bold: boolean;
      colour: string;
    };

/** A line series's point marker: a shape per series, so lines differ in black and white. */
export type ChartMarker = 'circle' | 'square' | 'triangle' | 'diamond';

/** A chart laid out in a box of `width` by `height`. */
export interface ChartDrawing {
  width: number;
  height: number;
  /** What the chart says in words (the SVG's accessible name). */
  title: string;
  items: ChartPrimitive[];
}

/** The data table beside a chart: the same numbers, as text. */
export interface ChartTable {
  head: string[];
  rows: string[][];
}
