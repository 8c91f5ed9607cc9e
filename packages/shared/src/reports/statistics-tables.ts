import type { Term } from '../calendar.js';
import { REPORT_MESSAGES } from '../messages.js';
import type { ReportLevel } from './model.js';
import {
  AGGREGATE_RANGE,
  aggpointTable,
  alevelTable,
  asummaryTable,
  averageTable,
  caverageTable,
  classWeightedAggTable,
  dcpfTable,
  departmentWeightedAggTable,
  divisionTable,
  mgpTable,
  paperTable,
  pleSheet,
  progressSubjectsTable,
  progressTable,
  type StatLearner,
  type StatSubjectName,
  type StatTable,
  scategoryTable,
  subjectMeanTable,
  tdcpfTable,
  WEIGHT_SETS,
  type WeightSetName,
  weightedAggTable,
} from './statistics.js';

/*
 * The Mark Statistics screen's categories (spec §9; issue 28 point 2) dispatched to the pure
 * tables of statistics.ts: which codes a school is offered, which a class's level can answer,
 * the term a progress table compares with, and the titled tables of one category. Pure.
 */

/** Spec §9: the statistics categories of a primary school, in the spec's order. */
export const PRIMARY_STATISTICS_CATEGORIES = [
  'division',
  'aggpoint',
  'mgp',
  'weightedagg',
  'classweightedagg',
  'departmentweightedagg',
  'progress',
] as const;

/** Spec §9: the statistics categories of the other schools (secondary), in the spec's order. */
export const OTHER_STATISTICS_CATEGORIES = [
  'scategory',
  'average',
  'division',
  'caverage',
  'mgp',
  'ple',
  'dcpf',
  'tdcpf',
  'alevel',
  'asummary',
  'subjectmean',
  'paper',
  'aggpoint',
  'progress',
  'weightedagg',
  'classweightedagg',
  'departmentweightedagg',
] as const;

/** Every statistics category code (the primary list is within the others'). */
export const STATISTICS_CATEGORIES = OTHER_STATISTICS_CATEGORIES;
export type StatisticsCategory = (typeof STATISTICS_CATEGORIES)[number];

export const isStatisticsCategory = (value: unknown): value is StatisticsCategory =>
  typeof value === 'string' && (STATISTICS_CATEGORIES as readonly string[]).includes(value);

/** The weight sets of the indices, by name (the screen's "weight" field). */
export const WEIGHT_SET_NAMES = Object.keys(WEIGHT_SETS) as WeightSetName[];
export const DEFAULT_WEIGHT_SET: WeightSetName = 'grade';

/** The codes the screen offers a school: spec §9's list of its type. */
export function statisticsCategoriesFor(schooltype: string | null | undefined): readonly StatisticsCategory[] {
  return schooltype === 'primary' ? PRIMARY_STATISTICS_CATEGORIES : OTHER_STATISTICS_CATEGORIES;
}

/** The categories of A-level results (letters, points, papers): only an A-level class has them. */
const ALEVEL_ONLY: readonly StatisticsCategory[] = ['alevel', 'asummary', 'paper'];
/** The categories built on aggregates and divisions: an A-level class has points instead. */
const DIVISIONS_ONLY: readonly StatisticsCategory[] = ['division', 'classweightedagg', 'ple'];

/**
 * Why a class of this level has no such table (a message of the catalogue), or null when it has:
 * the A-level tables need an A-level class (S5, S6); the division tables a class with divisions.
 */
export function statisticsRefusal(category: StatisticsCategory, level: ReportLevel) {
  if (ALEVEL_ONLY.includes(category) && level !== 'alevel') return REPORT_MESSAGES.statisticsAlevelOnly;
  if (DIVISIONS_ONLY.includes(category) && (level === 'alevel' || level === 'plain')) return REPORT_MESSAGES.statisticsNoDivisions;
  return null;
}

/** The class before: the number at the end of the class's name less one ("P7" -> "P6", "S.5" -> "S.4"); a first class is itself. */
export function previousForm(form: string): string {
  const match = /^(.*?)(\d+)(\D*)$/.exec(form);
  if (!match) return form;
  const number = Number(match[2]);
  return number <= 1 ? form : `${match[1]}${number - 1}${match[3]}`;
}

/**
 * The term a progress table compares with: the term before in the same class; before Term I, the
 * learners' Term III of the year before in the class before ("P7" I 2026 -> "P6" III 2025).
 */
export function previousClassTerm(form: string, term: Term, year: number): { form: string; term: Term; year: number } {
  if (term === 'III') return { form, term: 'II', year };
  if (term === 'II') return { form, term: 'I', year };
  return { form: previousForm(form), term: 'III', year: year - 1 };
}

/** The tables' titles (a school document, in English as the cards are). */
export const STATISTICS_WORDS = {
  title: 'MARK STATISTICS',
  term: 'TERM',
  allStreams: 'All streams',
  allClasses: 'All classes',
  leftOut: 'Classes not in these statistics',
  weight: 'Weight set',
  markTypes: 'Mark types',
  row: '',
  tables: {
    division: 'Learners per division',
    divisionBySex: 'Learners per division, girls and boys',
    aggpoint: 'Learners per aggregate',
    aggpointPoints: 'Learners per points (of 20)',
    mgp: 'Mean grade point per subject (lower is better)',
    weightedagg: 'Performance index per subject',
    classweightedagg: 'Performance index per stream (from divisions)',
    departmentweightedagg: 'Performance index per department',
    scategory: 'Mean grade point per subject category (lower is better)',
    average: "Learners' averages and positions",
    caverage: 'Class averages',
    pleSubjects: 'Subjects',
    pleAggregates: 'Learners per aggregate',
    pleDivisions: 'Learners per division',
    pleMarks: 'Mark list',
    dcpf: 'Distinction, credit, pass and fail per subject',
    tdcpf: 'Cumulative % per subject',
    alevel: 'A-level subjects',
    asummary: 'Principal passes',
    subjectmean: 'Mean mark per subject',
    paper: 'Papers',
    progressAverage: 'Progress: average (higher is better)',
    progressAggregate: 'Progress: aggregate (lower is better)',
    progressPosition: 'Progress: position (lower is better)',
    progressSubjects: 'Progress: mean mark per subject',
  },
} as const;

/** A table with its title and, where something must be said about it, a note. */
export interface TitledStatTable {
  key: string;
  title: string;
  note?: string;
  table: StatTable;
}

/** What the tables of one category read: the class's graded learners (those printed) and what describes them. */
export interface StatisticsInput {
  category: StatisticsCategory;
  level: ReportLevel;
  learners: ReadonlyArray<StatLearner>;
  /** The subjects in the school's order. */
  subjects: ReadonlyArray<StatSubjectName>;
  /** The subject teachers' initials by subject id. */
  teachers?: ReadonlyMap<string, string>;
  weight?: WeightSetName;
  /** Progress: the learners of the term compared with, and that term's name ("P6 III 2025"); null learners when it has no marks. */
  previous?: { label: string; learners: ReadonlyArray<StatLearner> | null };
}

/** The range of aggregates of a level (A level counts points). */
const rangeOf = (level: ReportLevel) =>
  level === 'alevel' ? AGGREGATE_RANGE.alevel : level === 'olevel' ? AGGREGATE_RANGE.olevel : AGGREGATE_RANGE.primary;

const T = STATISTICS_WORDS.tables;

/**
 * The titled tables of one category over the learners given: each category's pure function of
 * statistics.ts, nothing computed here. Refuses (throws) a code that is not a category; the
 * caller refuses first what the class's level cannot answer (statisticsRefusal).
 */
export function statisticsTables(input: StatisticsInput): TitledStatTable[] {
  const { category, level, learners, subjects, teachers } = input;
  const weight = input.weight ?? DEFAULT_WEIGHT_SET;
  const one = (key: string, title: string, table: StatTable): TitledStatTable[] => [{ key, title, table }];
  switch (category) {
    case 'division':
      return [
        { key: 'division', title: T.division, table: divisionTable(learners) },
        { key: 'divisionBySex', title: T.divisionBySex, table: divisionTable(learners, { bySex: true }) },
      ];
    case 'aggpoint':
      return level === 'alevel'
        ? one('aggpoint', T.aggpointPoints, aggpointTable(learners, rangeOf(level), 'points'))
        : one('aggpoint', T.aggpoint, aggpointTable(learners, rangeOf(level)));
    case 'mgp':
      return one('mgp', T.mgp, mgpTable(learners, subjects, teachers));
    case 'weightedagg':
      return one('weightedagg', T.weightedagg, weightedAggTable(learners, subjects, weight));
    case 'classweightedagg':
      return one('classweightedagg', T.classweightedagg, classWeightedAggTable(learners));
    case 'departmentweightedagg':
      return one('departmentweightedagg', T.departmentweightedagg, departmentWeightedAggTable(learners, subjects, weight));
    case 'scategory':
      return one('scategory', T.scategory, scategoryTable(learners, subjects));
    case 'average':
      return one('average', T.average, averageTable(learners, subjects));
    case 'caverage':
      return one('caverage', T.caverage, caverageTable(learners, subjects));
    case 'ple': {
      const sheet = pleSheet(learners, subjects, teachers, rangeOf(level));
      return [
        { key: 'pleSubjects', title: T.pleSubjects, table: sheet.blocks.subjects },
        { key: 'pleAggregates', title: T.pleAggregates, table: sheet.blocks.aggregates },
        { key: 'pleDivisions', title: T.pleDivisions, table: sheet.blocks.divisions },
        { key: 'pleMarks', title: T.pleMarks, table: sheet.blocks.marks },
      ];
    }
    case 'dcpf':
      return one('dcpf', T.dcpf, dcpfTable(learners, subjects, { byStream: new Set(learners.map((each) => each.stream)).size > 1 }));
    case 'tdcpf':
      return one('tdcpf', T.tdcpf, tdcpfTable(learners, subjects));
    case 'alevel':
      return one('alevel', T.alevel, alevelTable(learners, subjects));
    case 'asummary':
      return one('asummary', T.asummary, asummaryTable(learners));
    case 'subjectmean':
      return one('subjectmean', T.subjectmean, subjectMeanTable(learners, subjects));
    case 'paper':
      return one('paper', T.paper, paperTable(learners, subjects));
    case 'progress':
      return progressTables(input);
    default:
      throw new RangeError(`${String(category)} is not a statistics category`);
  }
}

/** Progress: the average, the aggregate (not A level), the position and each subject's mean, against the term before. */
function progressTables({ level, learners, subjects, previous }: StatisticsInput): TitledStatTable[] {
  const before = previous?.learners ?? [];
  const note = previous
    ? previous.learners === null
      ? `${previous.label} has no marks for this class: there is nothing to compare with.`
      : `Compared with ${previous.label}.`
    : undefined;
  // The same learners in both terms: a subject's mean then is of those printed now.
  const printed = new Set(learners.map((learner) => learner.id));
  const then = before.filter((learner) => printed.has(learner.id));
  const tables: TitledStatTable[] = [
    { key: 'progressAverage', title: T.progressAverage, table: progressTable(then, learners, 'average') },
    ...(level === 'alevel'
      ? []
      : [{ key: 'progressAggregate', title: T.progressAggregate, table: progressTable(then, learners, 'aggregate') }]),
    { key: 'progressPosition', title: T.progressPosition, table: progressTable(then, learners, 'position') },
    { key: 'progressSubjects', title: T.progressSubjects, table: progressSubjectsTable(then, learners, subjects) },
  ];
  return note ? tables.map((table) => ({ ...table, note })) : tables;
}
