import { z } from 'zod';
import { REPORT_MESSAGES as M } from '../messages.js';
import { REPORT_LEVELS, TerminalReportQuerySchema } from '../reports/model.js';
import { NcAnalysisSchema } from '../reports/nc-analysis.js';
import { typedNumber } from '../schemas/common.js';
import { defineEndpoint } from './definition.js';
import { flag, wholeSchoolOrClass } from './fields.js';
import { ReportPreviewSchema } from './reports.js';

/** The decimals the analysis shows when the query names none. */
export const DEFAULT_ANALYSIS_PRECISION = 2;

/**
 * The Result Analysis filter (spec §2 "Result Analysis"; issue 28 point 1): the class, stream,
 * term, year and mark type of the Terminal Reports filter, and the decimals shown (0..4, display
 * only). `json=1` answers the model, `html=1` the preview.
 */
export const AnalysisQuerySchema = TerminalReportQuerySchema.pick({
  form: true,
  stream: true,
  term: true,
  year: true,
  category: true,
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
  precision: typedNumber(
    z.number({ error: M.analysisPrecision }).int(M.analysisPrecision).min(0, M.analysisPrecision).max(4, M.analysisPrecision).optional(),
  ).transform((value) => value ?? DEFAULT_ANALYSIS_PRECISION),
  excel: flag,
  pdf: flag,
});
export type AnalysisQuery = z.output<typeof AnalysisQuerySchema>;

const SexMeansSchema = z.object({ sat: z.number(), meanMark: z.number().nullable(), meanGradePoint: z.number().nullable() });

/** The analysis model: numbers unrounded (precision is the renderer's), each row named. */
export const AnalysisModelSchema = z.object({
  report: z.object({
    school: z.string(),
    form: z.string(),
    stream: z.string().nullable(),
    term: z.string(),
    year: z.number(),
    level: z.enum(REPORT_LEVELS),
    precision: z.number(),
    markTypes: z.array(z.string()),
  }),
  grades: z.array(z.string()),
  learners: z.number(),
  subjects: z.array(
    z.object({
      subject_id: z.string(),
      subject: z.string(),
      teacher: z.string().nullable(),
      sat: z.number(),
      absent: z.number(),
      grades: z.record(z.string(), z.number()),
      distinction: z.number().nullable(),
      credit: z.number().nullable(),
      pass: z.number().nullable(),
      fail: z.number().nullable(),
      meanMark: z.number().nullable(),
      meanGradePoint: z.number().nullable(),
      performanceIndex: z.number().nullable(),
      position: z.number().nullable(),
      boys: SexMeansSchema,
      girls: SexMeansSchema,
    }),
  ),
  divisions: z.array(z.object({ division: z.string(), count: z.number() })).nullable(),
  /** The division of learners without a result (a primary class's X), not counted against Division I; null where none. */
  noMarkDivision: z.string().nullable().optional(),
  /**
   * The class's trend over the year's terms so far (a class analysed alone, old curriculum): each
   * term's mean of the subjects' mean marks and share in Division I, as that term's analysis has them.
   */
  trend: z
    .array(z.object({ term: z.string(), year: z.number(), meanMark: z.number().nullable(), divisionOne: z.number().nullable() }))
    .nullable()
    .optional(),
  /**
   * A class on the new curriculum that year: its analysis of grades A..E and identifiers
   * (reports/nc-analysis.ts), and then `grades` and `subjects` are empty and `divisions` null.
   * Absent (or null) for a class on the old curriculum.
   */
  newCurriculum: NcAnalysisSchema.nullable().optional(),
  /** How each column is computed (statistics.md), by column name. */
  explain: z.record(z.string(), z.string()),
});
export type AnalysisModel = z.output<typeof AnalysisModelSchema>;

/**
 * A whole school's term (issue 28 point 7): a summary row per class (learners, divisions, % of
 * Division I), then each class's analysis as it is alone; the classes left out and why.
 */
export const SchoolAnalysisModelSchema = z.object({
  report: z.object({
    school: z.string(),
    term: z.string(),
    year: z.number(),
    precision: z.number(),
    markTypes: z.array(z.string()),
  }),
  summary: z.array(
    z.object({
      form: z.string(),
      learners: z.number(),
      divisions: z.array(z.object({ division: z.string(), count: z.number() })).nullable(),
      /** % of the class's learners with a division who are in Division I; null without divisions. */
      divisionOne: z.number().nullable(),
      /** The mean of the subjects' mean grade points (lower is better). */
      meanGradePoint: z.number().nullable(),
    }),
  ),
  classes: z.array(AnalysisModelSchema),
  /** Classes with marks that term not analysed here, each with the reason. */
  leftOut: z.array(z.object({ form: z.string(), reason: z.string() })),
});
export type SchoolAnalysisModel = z.output<typeof SchoolAnalysisModelSchema>;

/** The analysis's words (a school document, in the school's language as the cards are). */
export const ANALYSIS_WORDS = {
  title: 'RESULT ANALYSIS',
  subject: 'Subject',
  sat: 'Sat',
  absent: 'ABS',
  distinction: '% Dist.',
  credit: '% Credit+',
  pass: '% Pass+',
  fail: '% Fail',
  meanMark: 'Mean mark',
  meanGradePoint: 'Mean GP',
  performanceIndex: 'Index %',
  position: 'Pos.',
  teacher: 'Teacher',
  boys: 'Boys',
  girls: 'Girls',
  sexes: 'Boys and girls',
  division: 'Division',
  learners: 'Learners',
  divisions: 'Division summary',
  term: 'TERM',
  allStreams: 'All streams',
  allClasses: 'All classes',
  class: 'Class',
  divisionOne: '% Div. I',
  leftOut: 'Classes not analysed here',
} as const;

/** A number shown with the query's decimals (display only), '-' without one. */
export const analysisNumber = (value: number | null, precision: number) => (value === null ? '-' : value.toFixed(precision));

/**
 * A class's result analysis (issue 28 point 1): `json=1` the model, `html=1` the preview, `excel=1`
 * the workbook `analysis-<class>-<stream>-<year>-<term>.xlsx`, otherwise the PDF of that name.
 */
export const analysisEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/analysis',
  access: 'member',
  query: AnalysisQuerySchema,
  response: z.union([AnalysisModelSchema, SchoolAnalysisModelSchema, ReportPreviewSchema]),
  download: true,
});
