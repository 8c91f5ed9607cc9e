import type { ChartSeries, HistogramChartModel, LineChartModel } from './model.js';

/*
 * Charts any report can build from its own tables (issue 28 point 6): the aggregate histogram
 * and a trend across terms. The words are a school document's (English, as the cards').
 */

/** The most bins an aggregate histogram has (a wider bin beyond that). */
export const HISTOGRAM_MAX_BINS = 12;

export interface AggregateHistogramOptions {
  title?: string;
  note?: string;
  /** The bins' width in aggregate points; chosen for at most HISTOGRAM_MAX_BINS bins unless given. */
  binWidth?: number;
  categoryLabel?: string;
  valueLabel?: string;
}

/**
 * Learners per band of aggregates (whole numbers; lower is better), bins from the lowest
 * aggregate to the highest. Absent learners (null) are left out, never counted as 0.
 */
export function aggregateHistogram(aggregates: ReadonlyArray<number | null>, options: AggregateHistogramOptions = {}): HistogramChartModel {
  const values = aggregates.filter((value): value is number => value !== null && Number.isFinite(value));
  const base = {
    kind: 'histogram' as const,
    title: options.title ?? 'Aggregates',
    note: options.note ?? 'Learners per band of aggregates (lower is better)',
    categoryLabel: options.categoryLabel ?? 'Aggregate',
    valueLabel: options.valueLabel ?? 'Learners',
    integer: true,
  };
  if (values.length === 0) return { ...base, bins: [] };
  const low = Math.floor(Math.min(...values));
  const high = Math.floor(Math.max(...values));
  const span = high - low + 1;
  const fewest = Math.ceil(span / HISTOGRAM_MAX_BINS);
  const width = Math.max(fewest, Math.floor(options.binWidth ?? fewest), 1);
  const start = width === 1 ? low : Math.floor(low / width) * width;
  const count = Math.floor((high - start) / width) + 1;
  const bins = Array.from({ length: count }, (_, index) => {
    const from = start + index * width;
    return { label: width === 1 ? String(from) : `${from}-${from + width - 1}`, count: 0 };
  });
  for (const value of values) {
    const bin = bins[Math.floor((Math.floor(value) - start) / width)];
    if (bin) bin.count += 1;
  }
  return { ...base, bins };
}

export interface TrendLineOptions {
  title: string;
  note?: string;
  /** The terms in order, as shown ("I 2025", "II 2025"). */
  terms: readonly string[];
  /** One value per term for each series (null where there is none: the line breaks). */
  series: readonly ChartSeries[];
  /** Grades and aggregates: the axis turns so that up is better. */
  lowerIsBetter?: boolean;
  decimals?: number;
  /** The axis's top when known (100 for a percent). */
  max?: number;
  categoryLabel?: string;
}

/** The note of a lower-is-better trend unless it has its own. */
export const CHART_LOWER_BETTER_NOTE = 'Lower is better: the axis is turned so that up is better';

/** A trend across terms (a class's mean, % Division I, a learner's own): terms on x, values on y. */
export function trendLine(options: TrendLineOptions): LineChartModel {
  return {
    kind: 'line',
    title: options.title,
    ...(options.note || options.lowerIsBetter ? { note: options.note ?? CHART_LOWER_BETTER_NOTE } : {}),
    categoryLabel: options.categoryLabel ?? 'Term',
    categories: options.terms,
    series: options.series,
    ...(options.lowerIsBetter ? { lowerIsBetter: true } : {}),
    ...(options.decimals !== undefined ? { decimals: options.decimals } : {}),
    ...(options.max !== undefined ? { max: options.max } : {}),
  };
}
