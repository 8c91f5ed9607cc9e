import type { Term } from '../calendar.js';
import { shownMarkTypeIds } from '../endpoints/fields.js';
import type { ReportType, TerminalReportQuery } from './model.js';

/*
 * What a report covers (issue 25 point 1): every report's query, whatever its fields, maps to
 * one ReportScope, and the grading-inputs loader reads a scope, so a new report kind declares
 * its mapping rather than its own queries. Many classes and terms at once: a whole school's
 * term is every class in one term; one learner's history is that learner in every class and
 * term they have marks in (no classes or terms named).
 */

export interface ReportScope {
  /** The classes (forms) covered; none named with `learners` given: wherever those learners have marks. */
  classes: string[];
  /** The streams printed; none: every stream (positions are the whole class's either way). */
  streams: string[];
  /** The terms covered, each of a year; none named with `learners` given: every term of their marks. */
  terms: Array<{ term: Term; year: number }>;
  /** The mark types graded; none: those of the report type's categories that have marks. */
  markTypeIds: string[];
  /** The report type: which mark types, subject comments and remarks it takes. */
  category: ReportType;
  /** Only these learners are printed (one learner's card, one learner's page); none: all. */
  learners: string[];
  /** Only learners of this student category are printed. */
  studentCategory: string | null;
}

/** What a class report's query has: one class (a stream, a category), one term, the mark types. */
interface ClassReportQuery {
  form: string;
  stream?: string | null | undefined;
  studentcategory_id?: string | null | undefined;
  term: Term;
  year: number;
  category: ReportType;
  marktype_id?: string | undefined;
  marktype_ids?: string[] | undefined;
  'marktype_ids[]'?: string[] | undefined;
}

/** The scope of a report of one class and term: the terminal report, the mark sheet, the comments screens. */
export function classReportScope(query: ClassReportQuery & { student_id?: string | undefined }): ReportScope {
  return {
    classes: [query.form],
    streams: query.stream ? [query.stream] : [],
    terms: [{ term: query.term, year: query.year }],
    markTypeIds: shownMarkTypeIds(query),
    category: query.category,
    learners: query.student_id ? [query.student_id] : [],
    studentCategory: query.studentcategory_id ?? null,
  };
}

/** The terminal report's scope: one class and stream, or one learner of it. */
export const terminalReportScope = (query: TerminalReportQuery): ReportScope => classReportScope(query);

/** A whole school's term: every class named, one term (the loader's benchmark, a school's batch of cards). */
export const schoolTermScope = (classes: string[], term: Term, year: number, category: ReportType = 'exam'): ReportScope => ({
  classes,
  streams: [],
  terms: [{ term, year }],
  markTypeIds: [],
  category,
  learners: [],
  studentCategory: null,
});

/**
 * A class's report, or with no class named a whole school's term (issue 28 point 7: the analysis
 * and statistics of "all classes"): the pipeline reads every class with marks in it, in one pass.
 */
export function classOrSchoolScope(query: Omit<ClassReportQuery, 'form'> & { form?: string | undefined }): ReportScope {
  if (query.form) return classReportScope({ ...query, form: query.form });
  return { ...schoolTermScope([], query.term, query.year, query.category), markTypeIds: shownMarkTypeIds(query) };
}

/** One learner's whole history: every class and term they have marks in, every mark type (the learner's page). */
export const learnerHistoryScope = (learnerId: string): ReportScope => ({
  classes: [],
  streams: [],
  terms: [],
  markTypeIds: [],
  category: 'exam',
  learners: [learnerId],
  studentCategory: null,
});
