import { z } from 'zod';
import { REPORT_MESSAGES as M } from '../messages.js';
import { ExplanationSchema, REPORT_LEVELS, TerminalReportQuerySchema } from '../reports/model.js';
import type { WeightSetName } from '../reports/statistics.js';
import { DEFAULT_WEIGHT_SET, isStatisticsCategory, STATISTICS_CATEGORIES, WEIGHT_SET_NAMES } from '../reports/statistics-tables.js';
import { typedNumber } from '../schemas/common.js';
import { defineEndpoint } from './definition.js';
import { flag, wholeSchoolOrClass } from './fields.js';
import { ReportPreviewSchema } from './reports.js';

// The categories' dispatcher and charts travel with the contract (one export line in index.ts).
export * from '../reports/statistics-charts.js';
export * from '../reports/statistics-tables.js';

/** The decimals the statistics show when the query names none. */
export const DEFAULT_STATISTICS_PRECISION = 2;

/**
 * The Mark Statistics filter (spec §2 "Mark Statistics", §9; issue 28 point 2): the class,
 * stream, term, year and mark types of the report filter, the statistics category (a code of
 * spec §9), the weight set of the indices and the decimals shown (0..4, display only). `json=1`
 * the model, `html=1` the preview, `excel=1` the workbook, otherwise the PDF.
 */
export const StatisticsQuerySchema = TerminalReportQuerySchema.pick({
  form: true,
  stream: true,
  term: true,
  year: true,
  marktype_id: true,
  'marktype_ids[]': true,
  marktype_ids: true,
  json: true,
  html: true,
}).extend({
  /** The class; none (absent or blank): every class of the school with marks that term (issue 28 point 7). */
  form: wholeSchoolOrClass,
  /** A token the web makes up to follow a whole school's PDF as it is drawn (the progress endpoint). */
  progress: TerminalReportQuerySchema.shape.progress,
  category: z.custom<(typeof STATISTICS_CATEGORIES)[number]>(isStatisticsCategory, { error: M.statisticsCategory }),
  weight: z
    .preprocess(
      (value) => (value === '' || value === undefined ? DEFAULT_WEIGHT_SET : value),
      z.custom<WeightSetName>((value) => typeof value === 'string' && (WEIGHT_SET_NAMES as string[]).includes(value), {
        error: M.statisticsWeight,
      }),
    )
    .transform((value) => value as WeightSetName),
  precision: typedNumber(
    z.number({ error: M.analysisPrecision }).int(M.analysisPrecision).min(0, M.analysisPrecision).max(4, M.analysisPrecision).optional(),
  ).transform((value) => value ?? DEFAULT_STATISTICS_PRECISION),
  excel: flag,
  pdf: flag,
});
export type StatisticsQuery = z.output<typeof StatisticsQuerySchema>;

const StatCellSchema = z.object({ value: z.union([z.number(), z.string(), z.null()]), explain: ExplanationSchema.optional() });

/** One table: named columns, rows of cells by column key (numbers unrounded, each with its reason where one fits). */
export const StatTableSchema = z.object({
  category: z.string(),
  columns: z.array(z.object({ key: z.string(), label: z.string() })),
  rows: z.array(z.object({ key: z.string(), label: z.string(), cells: z.record(z.string(), StatCellSchema) })),
  /** Why the table is empty, when it is. */
  empty: z.string().optional(),
});

/** The statistics model: the category's titled tables of the class as graded for its cards. */
export const StatisticsModelSchema = z.object({
  report: z.object({
    school: z.string(),
    form: z.string(),
    stream: z.string().nullable(),
    term: z.string(),
    year: z.number(),
    level: z.enum(REPORT_LEVELS),
    category: z.enum(STATISTICS_CATEGORIES),
    weight: z.string(),
    precision: z.number(),
    markTypes: z.array(z.string()),
    /** Progress: the class and term compared with. */
    previous: z.object({ form: z.string(), term: z.string(), year: z.number() }).nullable(),
  }),
  tables: z.array(z.object({ key: z.string(), title: z.string(), note: z.string().optional(), table: StatTableSchema })),
});
export type StatisticsModel = z.output<typeof StatisticsModelSchema>;

/** A whole school's term in one category (issue 28 point 7): each class's statistics as alone, and the classes left out. */
export const SchoolStatisticsModelSchema = z.object({
  report: z.object({
    school: z.string(),
    term: z.string(),
    year: z.number(),
    category: z.enum(STATISTICS_CATEGORIES),
    weight: z.string(),
    precision: z.number(),
  }),
  classes: z.array(StatisticsModelSchema),
  /** Classes with marks that term not in the statistics, each with the reason. */
  leftOut: z.array(z.object({ form: z.string(), reason: z.string() })),
});
export type SchoolStatisticsModel = z.output<typeof SchoolStatisticsModelSchema>;

const namePart = (value: string) => value.replace(/[^A-Za-z0-9_-]+/g, '_');

/** `otherstats-<class>-<stream>-<year>-<term>` (spec §9); a whole class is "all", the whole school's classes "all" too. */
export function statisticsFileName(report: { form?: string; stream?: string | null; year: number; term: string }): string {
  if (report.form === undefined) return `otherstats-all-${report.year}-${report.term}`;
  return `otherstats-${namePart(report.form)}-${namePart(report.stream ?? 'all')}-${report.year}-${report.term}`;
}

/**
 * A class's mark statistics in one category (issue 28 point 2): `json=1` the model, `html=1` the
 * preview, `excel=1` `otherstats-<class>-<stream>-<year>-<term>.xlsx`, otherwise the PDF. No class:
 * the whole school's classes, `otherstats-all-<year>-<term>`.
 */
export const statisticsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/otherstatistics',
  access: 'member',
  query: StatisticsQuerySchema,
  response: z.union([StatisticsModelSchema, SchoolStatisticsModelSchema, ReportPreviewSchema]),
  download: true,
});
