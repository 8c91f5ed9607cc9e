import { z } from 'zod';
import { REPORT_MESSAGES as M } from '../messages.js';
import { text } from '../schemas/common.js';

/*
 * A school's report card layout (issue 15 point 5): which sections a card shows and in what
 * order, which columns its subject table has, the lines under the school's name, and whether
 * photos and positions appear. Data with a default that reads like a good Ugandan report card;
 * both renderers (HTML preview, PDF) draw from it, so the preview is what prints.
 */

/** The label a report prints when the person gives none (spec §9). */
export const DEFAULT_REPORT_LABEL = 'END OF TERM';

/** A card's sections, each drawn once in the layout's order. */
export const REPORT_SECTIONS = [
  'header',
  'learner',
  'subjects',
  'summary',
  'attendance',
  'remarks',
  'gradeKey',
  'nextTerm',
  'footers',
  'signatures',
] as const;
export type ReportSection = (typeof REPORT_SECTIONS)[number];

/** The columns the subject table may show, after the subject's name. */
export const SUBJECT_COLUMNS = ['marks', 'total', 'grade', 'points', 'comment', 'initials'] as const;
export type SubjectColumn = (typeof SUBJECT_COLUMNS)[number];

/**
 * What the mark type columns show (issue 24 point 3): each mark as entered (`raw`, the default:
 * what the teacher wrote, under BOT, MOT, EOT) or the part it adds to the total (`weighted`,
 * headed with its proportion, "BOT 20%").
 */
export const MARK_VALUES = ['raw', 'weighted'] as const;
export type MarkValues = (typeof MARK_VALUES)[number];

export const MAX_HEADER_LINES = 4;
const MAX_LINE = 120;
export const MAX_REPORT_LABEL = 60;

const unique = <T>(list: readonly T[]) => new Set(list).size === list.length;

export const ReportLayoutSchema = z.object({
  sections: z
    .array(z.enum(REPORT_SECTIONS, M.unknownSection), M.sectionsEmpty)
    .min(1, M.sectionsEmpty)
    .refine((list) => list.includes('subjects'), M.subjectsRequired)
    .refine(unique, M.sectionRepeated),
  columns: z.array(z.enum(SUBJECT_COLUMNS, M.unknownColumn), M.unknownColumn).refine(unique, M.columnRepeated),
  /** Lines under the school's name: the motto first, then e.g. "P.O. Box 123, Kampala". */
  headerLines: z.array(text().trim().max(MAX_LINE, M.lineTooLong), M.lineTooLong).max(MAX_HEADER_LINES, M.tooManyLines),
  showPhoto: z.boolean(M.yesOrNo),
  showPositions: z.boolean(M.yesOrNo),
  /** The report's title line when the person prints without one (END OF TERM). */
  label: text().trim().min(1, M.labelRequired).max(MAX_REPORT_LABEL, M.labelTooLong),
  /** Raw marks or weighted parts under the mark types (added after schools saved layouts: theirs take the default). */
  markValues: z.enum(MARK_VALUES, M.markValuesUnknown).default('raw'),
});
export type ReportLayout = z.infer<typeof ReportLayoutSchema>;

export const DEFAULT_REPORT_LAYOUT: ReportLayout = {
  sections: ['header', 'learner', 'subjects', 'summary', 'attendance', 'remarks', 'gradeKey', 'nextTerm', 'footers', 'signatures'],
  columns: ['marks', 'total', 'grade', 'points', 'comment', 'initials'],
  headerLines: [],
  showPhoto: true,
  showPositions: true,
  label: DEFAULT_REPORT_LABEL,
  markValues: 'raw',
};
