import { z } from 'zod';
import { REPORT_LEVELS, TerminalReportQuerySchema } from '../reports/model.js';
import { defineEndpoint } from './definition.js';
import { flag } from './fields.js';
import { ReportPreviewSchema } from './reports.js';

// The sheet's pure means and grading travel with its contract (one export line in index.ts).
export * from '../reports/avg-marksheet.js';

/**
 * The average mark sheet's filter (spec §2 "Average marksheet"; issue 28 point 5): a class, a
 * stream (none: the whole class) and a year. `json=1` the model, `html=1` the preview,
 * `excel=1` the workbook, otherwise the PDF.
 */
export const AvgMarksheetQuerySchema = TerminalReportQuerySchema.pick({
  form: true,
  stream: true,
  year: true,
  json: true,
  html: true,
}).extend({
  excel: flag,
  pdf: flag,
});
export type AvgMarksheetQuery = z.output<typeof AvgMarksheetQuerySchema>;

/**
 * A learner's mean in one paper (A level): the mean over the terms taken, how many, and the
 * paper's grade (D1..F9); null and 0 terms for a paper sat but never marked (ABS every term).
 */
const AvgPaperSchema = z.object({ paper: z.string(), mean: z.number().nullable(), terms: z.number(), grade: z.string().nullable() });

/**
 * A learner's mean in one subject: the mean over the terms taken, how many, and its grade. At A
 * level the mean of its papers' means, the most terms any paper has, the principal's letter (a
 * subsidiary's paper grade), its points, and each paper's mean graded.
 */
const AvgSubjectSchema = z.object({
  mean: z.number().nullable(),
  terms: z.number(),
  grade: z.string().nullable(),
  points: z.number().nullable().optional(),
  papers: z.array(AvgPaperSchema).optional(),
});

/** The average mark sheet's model: each learner's means (unrounded), graded by the one grader. */
export const AvgMarksheetModelSchema = z.object({
  report: z.object({
    school: z.string(),
    form: z.string(),
    stream: z.string().nullable(),
    year: z.number(),
    level: z.enum(REPORT_LEVELS),
    /** The terms of the year with marks, in order. */
    terms: z.array(z.string()),
    /** The term whose grade sets grade the means: the year's last term that has them. */
    gradeSetTerm: z.string(),
  }),
  /** The subjects shown; at A level with the papers any learner has a mean in, in order. */
  subjects: z.array(
    z.object({ subject_id: z.string(), subject: z.string(), code: z.string().nullable(), papers: z.array(z.string()).optional() }),
  ),
  learners: z.array(
    z.object({
      id: z.string(),
      studentid: z.string(),
      name: z.string(),
      stream: z.string().nullable(),
      /** By subject id: the learner's mean there (subjects without a mark in any term are absent). */
      subjects: z.record(z.string(), AvgSubjectSchema),
      total: z.number().nullable(),
      average: z.number().nullable(),
      aggregate: z.number().nullable(),
      division: z.string().nullable(),
      /** A level: the total points of the graded means (null at other levels). */
      points: z.number().nullable(),
      /** The position in the class (ties share a rank), null when not ranked. */
      position: z.number().nullable(),
    }),
  ),
  /** How the numbers are computed. */
  explain: z.record(z.string(), z.string()),
});
export type AvgMarksheetModel = z.output<typeof AvgMarksheetModelSchema>;

/** The sheet's words (a school document, in English as the cards are). */
export const AVG_MARKSHEET_WORDS = {
  title: 'AVERAGE MARK SHEET',
  class: 'Class',
  stream: 'Stream',
  year: 'Year',
  terms: 'Terms',
  gradeSet: 'Grade sets of term',
  allStreams: 'All streams',
  number: 'No.',
  studentId: 'Student ID',
  name: 'Name',
  total: 'Total',
  average: 'Avg',
  aggregate: 'Agg',
  division: 'Div',
  points: 'Points',
  subjectPoints: 'Pts',
  paper: 'P',
  position: 'Pos',
} as const;

const namePart = (value: string) => value.replace(/[^A-Za-z0-9_-]+/g, '_');

/** The file name: `avgmarksheet-<class>-<stream>-<year>` (the stream `all` for the whole class). */
export function avgMarksheetFileName(report: { form: string; stream: string | null; year: number }): string {
  return `avgmarksheet-${namePart(report.form)}-${namePart(report.stream ?? 'all')}-${report.year}`;
}

/**
 * A class's average mark sheet for a year (issue 28 point 5): `json=1` the model, `html=1`
 * `{ html }` for the web's frame, `excel=1` the workbook `avgmarksheet-<class>-<stream>-<year>.xlsx`.
 */
export const avgMarksheetEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/marks/avgmarksheet',
  access: { action: 'manage', subject: 'mark' },
  query: AvgMarksheetQuerySchema,
  response: z.union([AvgMarksheetModelSchema, ReportPreviewSchema]),
  download: true,
});
