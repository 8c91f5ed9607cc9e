import { describe, expect, it } from 'vitest';
import { StatisticsQuerySchema } from '../endpoints/statistics.js';
import { REPORT_MESSAGES } from '../messages.js';
import {
  AGGREGATE_RANGE,
  aggpointTable,
  divisionTable,
  mgpTable,
  type StatLearner,
  type StatSubject,
  weightedAggTable,
} from './statistics.js';
import { statisticsTableCharts } from './statistics-charts.js';
import {
  OTHER_STATISTICS_CATEGORIES,
  PRIMARY_STATISTICS_CATEGORIES,
  previousClassTerm,
  previousForm,
  STATISTICS_CATEGORIES,
  type StatisticsCategory,
  statisticsCategoriesFor,
  statisticsRefusal,
  statisticsTables,
  type TitledStatTable,
} from './statistics-tables.js';

/*
 * The Mark Statistics dispatcher: spec §9's codes by school type, each dispatched to its pure
 * table (the same numbers as calling it directly), the level's refusals, unknown codes refused,
 * and the term a progress table compares with.
 */

const sub = (id: string, total: number | null | 'ABS', value: number | null = null): StatSubject => ({
  subject_id: id,
  subject: id,
  total: total === 'ABS' ? null : total,
  absent: total === 'ABS',
  grade: value === null ? null : `G${value}`,
  value,
  category: id === 'ENG' ? 'english' : 'mathematics',
});

const learner = (id: string, stream: string, subjects: StatSubject[], average: number | null, aggregate: number | null, division: string) =>
  ({
    id,
    name: id,
    stream,
    gender: null,
    subjects,
    total: average === null ? null : average * 2,
    average,
    aggregate,
    division,
  }) as StatLearner;

const CLASS: StatLearner[] = [
  learner('L1', 'A', [sub('ENG', 80, 2), sub('MTC', 70, 3)], 75, 5, 'I'),
  learner('L2', 'A', [sub('ENG', 60, 4), sub('MTC', 'ABS')], null, null, 'X'),
  learner('L3', 'B', [sub('ENG', 40, 8), sub('MTC', 50, 6)], 45, 14, 'II'),
];
const SUBJECTS = [
  { subject_id: 'ENG', subject: 'English' },
  { subject_id: 'MTC', subject: 'Mathematics' },
];
const input = { level: 'primary' as const, learners: CLASS, subjects: SUBJECTS };

describe('the statistics categories of spec §9', () => {
  it('offers a primary school its seven codes and the others their seventeen', () => {
    expect(statisticsCategoriesFor('primary')).toEqual([
      'division',
      'aggpoint',
      'mgp',
      'weightedagg',
      'classweightedagg',
      'departmentweightedagg',
      'progress',
    ]);
    expect(statisticsCategoriesFor('secondary')).toHaveLength(17);
    for (const code of PRIMARY_STATISTICS_CATEGORIES) expect(OTHER_STATISTICS_CATEGORIES).toContain(code);
  });

  it('answers every code with at least one titled table, the first of its own code', () => {
    for (const category of STATISTICS_CATEGORIES) {
      const level = ['alevel', 'asummary', 'paper'].includes(category) ? 'alevel' : 'primary';
      const tables = statisticsTables({ ...input, level, category, previous: { label: 'P6 III 2025', learners: CLASS } });
      expect(tables.length, category).toBeGreaterThan(0);
      for (const each of tables) expect(each.title, category).not.toBe('');
      // The PLE sheet's aggregate and division blocks are those tables themselves.
      expect(tables[0]?.table.category, category).toBe(category);
    }
  });

  it('dispatches to the pure tables: the same numbers as calling them', () => {
    const [division] = statisticsTables({ ...input, category: 'division' });
    expect(division?.table).toEqual(divisionTable(CLASS));
    expect(statisticsTables({ ...input, category: 'mgp' })[0]?.table).toEqual(mgpTable(CLASS, SUBJECTS));
    expect(statisticsTables({ ...input, category: 'aggpoint' })[0]?.table).toEqual(aggpointTable(CLASS, AGGREGATE_RANGE.primary));
    expect(statisticsTables({ ...input, level: 'olevel', category: 'aggpoint' })[0]?.table.columns[0]?.key).toBe('8');
  });

  it('weighs the indices by the weight set asked for', () => {
    const grade = statisticsTables({ ...input, category: 'weightedagg' })[0]?.table;
    const dcpf = statisticsTables({ ...input, category: 'weightedagg', weight: 'dcpf' })[0]?.table;
    expect(grade).toEqual(weightedAggTable(CLASS, SUBJECTS, 'grade'));
    expect(dcpf).toEqual(weightedAggTable(CLASS, SUBJECTS, 'dcpf'));
    // English: grade values 2, 4, 8: (7 + 5 + 1) / (3 * 8) by grade; (3 + 2 + 1) / (3 * 3) by D/C/P/F.
    expect(grade?.rows[0]?.cells.index?.value).toBeCloseTo((13 / 24) * 100, 9);
    expect(dcpf?.rows[0]?.cells.index?.value).toBeCloseTo((6 / 9) * 100, 9);
  });

  it('the PLE sheet of an O-level class counts its aggregates 8..72', () => {
    const tables = statisticsTables({ ...input, level: 'olevel', category: 'ple' });
    expect(tables.map((each) => each.key)).toEqual(['pleSubjects', 'pleAggregates', 'pleDivisions', 'pleMarks']);
    expect(tables[1]?.table.columns[0]?.key).toBe('8');
    expect(statisticsTables({ ...input, category: 'ple' })[1]?.table.columns[0]?.key).toBe('4');
  });

  it('refuses a code that is not a category', () => {
    expect(() => statisticsTables({ ...input, category: 'nonsense' as StatisticsCategory })).toThrow(RangeError);
    expect(StatisticsQuerySchema.safeParse({ form: 'P7', term: 'I', year: 2026, category: 'nonsense' }).error?.issues[0]).toMatchObject({
      path: ['category'],
      message: REPORT_MESSAGES.statisticsCategory,
    });
    expect(StatisticsQuerySchema.safeParse({ form: 'P7', term: 'I', year: 2026 }).error?.issues[0]?.message).toBe(
      REPORT_MESSAGES.statisticsCategory,
    );
    expect(
      StatisticsQuerySchema.safeParse({ form: 'P7', term: 'I', year: 2026, category: 'mgp', weight: 'heavy' }).error?.issues[0],
    ).toMatchObject({ path: ['weight'], message: REPORT_MESSAGES.statisticsWeight });
    expect(StatisticsQuerySchema.parse({ form: 'P7', term: 'I', year: 2026, category: 'mgp' })).toMatchObject({
      weight: 'grade',
      precision: 2,
    });
  });

  it("refuses what a class's level has not: A-level tables elsewhere, divisions in A level", () => {
    expect(statisticsRefusal('alevel', 'olevel')).toBe(REPORT_MESSAGES.statisticsAlevelOnly);
    expect(statisticsRefusal('paper', 'primary')).toBe(REPORT_MESSAGES.statisticsAlevelOnly);
    expect(statisticsRefusal('division', 'alevel')).toBe(REPORT_MESSAGES.statisticsNoDivisions);
    expect(statisticsRefusal('ple', 'alevel')).toBe(REPORT_MESSAGES.statisticsNoDivisions);
    expect(statisticsRefusal('aggpoint', 'alevel')).toBeNull();
    expect(statisticsRefusal('ple', 'olevel')).toBeNull();
    expect(statisticsRefusal('asummary', 'alevel')).toBeNull();
  });
});

describe('progress', () => {
  it('compares with the term before; before Term I, the class before in Term III of the year before', () => {
    expect(previousClassTerm('P7', 'III', 2026)).toEqual({ form: 'P7', term: 'II', year: 2026 });
    expect(previousClassTerm('P7', 'II', 2026)).toEqual({ form: 'P7', term: 'I', year: 2026 });
    expect(previousClassTerm('P7', 'I', 2026)).toEqual({ form: 'P6', term: 'III', year: 2025 });
    expect(previousForm('S.5')).toBe('S.4');
    expect(previousForm('P1')).toBe('P1');
    expect(previousForm('Nursery')).toBe('Nursery');
  });

  it('says when the term before has no marks, and keeps the current values', () => {
    const tables = statisticsTables({ ...input, category: 'progress', previous: { label: 'Term I 2026', learners: null } });
    expect(tables.map((each) => each.key)).toEqual(['progressAverage', 'progressAggregate', 'progressPosition', 'progressSubjects']);
    for (const each of tables) expect(each.note).toBe('Term I 2026 has no marks for this class: there is nothing to compare with.');
    const average = tables[0]?.table;
    expect(average?.rows.find((row) => row.key === 'L1')?.cells).toMatchObject({ previous: { value: null }, current: { value: 75 } });
  });

  it('compares the same learners: one who dropped, one who improved; an A-level class has no aggregate table', () => {
    const before = [
      learner('L1', 'A', [sub('ENG', 70, 3)], 80, 4, 'I'),
      learner('L3', 'B', [sub('ENG', 30, 9)], 40, 20, 'II'),
      learner('gone', 'B', [sub('ENG', 0, 9)], 0, 36, 'U'),
    ];
    const tables = statisticsTables({ ...input, category: 'progress', previous: { label: 'Term I 2026', learners: before } });
    const average = tables[0]?.table;
    expect(average?.rows.find((row) => row.key === 'L1')?.cells.trend?.value).toBe('Dropped');
    expect(average?.rows.find((row) => row.key === 'L3')?.cells.trend?.value).toBe('Improved');
    // English's mean then is of L1 and L3 only (50), not of a learner gone since.
    expect(tables[3]?.table.rows[0]?.cells.previous?.value).toBe(50);
    const alevel = statisticsTables({ ...input, level: 'alevel', category: 'progress', previous: { label: 'x', learners: before } });
    expect(alevel.map((each) => each.key)).not.toContain('progressAggregate');
  });
});

describe('the charts beside the tables', () => {
  it('draws from the tables: divisions per stream with % Division I, mean grade point weakest first, none for a list of learners', () => {
    const [division] = statisticsTables({ ...input, category: 'division' });
    const [bars] = statisticsTableCharts(division as TitledStatTable, 1);
    expect(bars?.kind).toBe('bar');
    expect(bars && 'categories' in bars ? bars.categories : []).toEqual(['A · 50.0% Div. I', 'B · 0.0% Div. I', 'Total · 33.3% Div. I']);
    const [mgp] = statisticsTables({ ...input, category: 'mgp' });
    const [means] = statisticsTableCharts(mgp as TitledStatTable, 2);
    // English 14 / 3, Mathematics 4.5: English is the weaker.
    expect(means && 'categories' in means ? means.categories : []).toEqual(['English', 'Mathematics']);
    const [average] = statisticsTables({ ...input, category: 'average' });
    expect(statisticsTableCharts(average as TitledStatTable, 2)).toEqual([]);
    const [aggpoint] = statisticsTables({ ...input, category: 'aggpoint' });
    const [histogram] = statisticsTableCharts(aggpoint as TitledStatTable, 2);
    expect(histogram?.kind).toBe('histogram');
  });
});
