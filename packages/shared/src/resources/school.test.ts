import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { DEFAULT_GRADE_BANDS } from '../constants.js';
import { firstErrors } from '../schemas/register.js';
import { listQuerySchema } from './definition.js';
import {
  aLevelScores,
  autoReportComments,
  type GradeBand,
  GradeSetSchema,
  gradeSetProblems,
  grades,
  markTypes,
  proportions,
  studentCategories,
  subjects,
} from './school.js';

/** The first message per field path of a failed parse, or {} when it passes. */
const errorsOf = (schema: z.ZodType, input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? {} : firstErrors(result.error);
};

const SUBJECT_ID = '0190a2a4-7d1f-7c1e-9a6b-3f1e2d4c5b6a';
const REMARK_TYPE_ID = '0190a2a4-7d1f-7c1e-9a6b-3f1e2d4c5b6b';

const bandsOf = (type: keyof typeof DEFAULT_GRADE_BANDS): GradeBand[] =>
  DEFAULT_GRADE_BANDS[type].map(([grade, lower, upper]) => ({ grade, lower, upper }));

/** The default bands with some replaced (by grade) or removed (null). */
const defaultWith = (changes: Record<string, [number, number] | null>): GradeBand[] =>
  bandsOf('default').flatMap((band) => {
    if (!(band.grade in changes)) return [band];
    const change = changes[band.grade];
    return change ? [{ grade: band.grade, lower: change[0], upper: change[1] }] : [];
  });

/** A grade set body from bands: bounds as maps keyed by grade. */
const gradeSetOf = (bands: GradeBand[], extra: Record<string, unknown> = {}) => ({
  form: 'P7',
  term: 'I',
  year: 2026,
  subject_id: SUBJECT_ID,
  lower: Object.fromEntries(bands.map((band) => [band.grade, band.lower])),
  upper: Object.fromEntries(bands.map((band) => [band.grade, band.upper])),
  ...extra,
});

describe('gradeSetProblems', () => {
  it('says a bound left empty is missing, rather than reading it as 0', () => {
    const bands = DEFAULT_GRADE_BANDS.default.map(([grade, lower, upper]) => ({ grade, lower, upper }));
    const emptied = bands.map((band) => (band.grade === 'F9' ? { ...band, lower: Number.NaN } : band));
    expect(gradeSetProblems(emptied)).toEqual([{ kind: 'missing', grade: 'F9', params: { grade: 'F9' } }]);
  });

  it.each([['default'], ['lower']] as const)('the %s bands have no problems', (type) => {
    expect(gradeSetProblems(bandsOf(type))).toEqual([]);
  });

  it('an empty set is empty', () => {
    expect(gradeSetProblems([])).toEqual([{ kind: 'empty', grade: '', params: {} }]);
  });

  it('a band with lower above upper is reversed', () => {
    const problems = gradeSetProblems(defaultWith({ D2: [79, 75] }));
    expect(problems).toContainEqual({ kind: 'reversed', grade: 'D2', params: { grade: 'D2' } });
    expect(problems.filter((problem) => problem.kind === 'reversed')).toHaveLength(1);
  });

  it('two bands sharing marks overlap', () => {
    // D2 75-80 and D1 80-100 both hold 80.
    expect(gradeSetProblems(defaultWith({ D2: [75, 80] }))).toEqual([
      { kind: 'overlap', grade: 'D1', params: { grade: 'D1', other: 'D2' } },
    ]);
  });

  it('a band reaching down into the band below overlaps it', () => {
    // C3 70-74 and D2 72-79 both hold 72 to 74.
    const problems = gradeSetProblems(defaultWith({ D2: [72, 79] }));
    expect(problems).toEqual([{ kind: 'overlap', grade: 'D2', params: { grade: 'D2', other: 'C3' } }]);
  });

  it('every band inside a wide band is reported as an overlap', () => {
    // A covers everything, so B and C each share marks with it. Fails today: see the report
    // (gradeSetProblems compares each band only with the one sorted just before it).
    const problems = gradeSetProblems([
      { grade: 'A', lower: 0, upper: 100 },
      { grade: 'B', lower: 40, upper: 50 },
      { grade: 'C', lower: 60, upper: 70 },
    ]);
    expect(problems.map((problem) => [problem.kind, problem.grade])).toEqual([
      ['overlap', 'B'],
      ['overlap', 'C'],
    ]);
  });

  it('marks no band covers are a gap', () => {
    // D1 80-100, D2 70-78, then the default bands from 69 down: 79 is uncovered.
    expect(gradeSetProblems(defaultWith({ D2: [70, 78], C3: null }))).toEqual([{ kind: 'gap', grade: 'D1', params: { from: 79, to: 79 } }]);
  });

  it('a set not reaching 100 has a gap at the top', () => {
    expect(gradeSetProblems([{ grade: 'A', lower: 0, upper: 90 }])).toEqual([{ kind: 'gap', grade: 'A', params: { from: 91, to: 100 } }]);
  });

  it('a set not starting at 0 has a gap at the bottom', () => {
    expect(gradeSetProblems(defaultWith({ F9: [10, 34] }))).toEqual([{ kind: 'gap', grade: 'F9', params: { from: 0, to: 9 } }]);
  });

  it('the order of the bands does not matter', () => {
    expect(gradeSetProblems(bandsOf('default').reverse())).toEqual([]);
  });
});

describe('GradeSetSchema', () => {
  it('the subject id used here is a valid uuid', () => {
    expect(GradeSetSchema.shape.subject_id.safeParse(SUBJECT_ID).success).toBe(true);
  });

  it('accepts a set built from the default bands', () => {
    const result = GradeSetSchema.safeParse(gradeSetOf(bandsOf('default')));
    expect(result.error?.issues).toBeUndefined();
    expect(result.data?.lower.D1).toBe(80);
    expect(result.data?.upper.F9).toBe(34);
  });

  it('accepts a set built from the lower bands and a random uuid', () => {
    expect(GradeSetSchema.safeParse(gradeSetOf(bandsOf('lower'), { subject_id: crypto.randomUUID() })).success).toBe(true);
  });

  it('refuses an overlapping set at the grade that overlaps', () => {
    const result = GradeSetSchema.safeParse(gradeSetOf(defaultWith({ D2: [75, 80] })));
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.message, issue.path])).toEqual([['Two grades share some marks', ['lower', 'D1']]]);
  });

  it('refuses a set with a gap', () => {
    const result = GradeSetSchema.safeParse(gradeSetOf(defaultWith({ D2: [70, 78], C3: null })));
    expect(result.error && firstErrors(result.error)).toEqual({ 'lower.D1': 'Some marks from 0 to 100 have no grade' });
  });

  it('refuses an empty set', () => {
    const result = GradeSetSchema.safeParse(gradeSetOf([]));
    expect(result.error && firstErrors(result.error)).toEqual({ 'lower.': 'Add at least one grade' });
  });

  it('a grade without an upper bound is reversed', () => {
    const set = gradeSetOf(bandsOf('default'));
    delete (set.upper as Record<string, number>).F9;
    expect(errorsOf(GradeSetSchema, set)['lower.F9']).toBe('A lower bound is above its upper bound');
  });

  it.each([
    [{ form: undefined }, 'form', 'Please select a class'],
    [{ form: '  ' }, 'form', 'Please select a class'],
    [{ term: 'IV' }, 'term', 'Please select a term'],
    [{ term: undefined }, 'term', 'Please select a term'],
    [{ year: 1990 }, 'year', 'Enter a year between 2000 and 2100'],
    [{ year: 2101 }, 'year', 'Enter a year between 2000 and 2100'],
    [{ year: 'soon' }, 'year', 'Enter a year between 2000 and 2100'],
    [{ subject_id: 'maths' }, 'subject_id', 'Please select a subject'],
    [{ subject_id: undefined }, 'subject_id', 'Please select a subject'],
  ])('%j -> %s "%s"', (change, field, message) => {
    expect(errorsOf(GradeSetSchema, gradeSetOf(bandsOf('default'), change))[field]).toBe(message);
  });

  it('coerces a year given as text', () => {
    expect(GradeSetSchema.safeParse(gradeSetOf(bandsOf('default'), { year: '2026' })).data?.year).toBe(2026);
  });
});

describe('studentCategories.input', () => {
  it.each([
    ['', 'Please enter the category name'],
    ['   ', 'Please enter the category name'],
    ['Ab', 'The name is too short'],
    ['a'.repeat(26), 'The name is too long'],
  ])('name %j -> "%s"', (name, message) => {
    expect(errorsOf(studentCategories.input, { name })).toEqual({ name: message });
  });

  it('a missing name is required', () => {
    expect(errorsOf(studentCategories.input, {})).toEqual({ name: 'Please enter the category name' });
  });

  it('accepts a valid name, trimmed, and a blank remark becomes null', () => {
    expect(studentCategories.input.parse({ name: ' Day scholars ', remarks: '' })).toEqual({ name: 'Day scholars', remarks: null });
    expect(studentCategories.input.parse({ name: 'Day scholars' })).toEqual({ name: 'Day scholars', remarks: null });
    expect(studentCategories.input.parse({ name: 'a'.repeat(25), remarks: ' Near ' })).toEqual({ name: 'a'.repeat(25), remarks: 'Near' });
  });

  it('refuses unknown fields', () => {
    expect(studentCategories.input.safeParse({ name: 'Day scholars', colour: 'red' }).success).toBe(false);
  });
});

describe('subjects.input', () => {
  const valid = { name: 'English', category: 'english' };

  it('a missing or unknown category is refused', () => {
    expect(errorsOf(subjects.input, { name: 'English' })).toEqual({ category: 'Please select a category' });
    expect(errorsOf(subjects.input, { ...valid, category: 'art' })).toEqual({ category: 'Please select a category' });
  });

  it('a missing name is required', () => {
    expect(errorsOf(subjects.input, { category: 'english' })).toEqual({ name: 'Please enter the name' });
  });

  it.each([
    ['', null],
    [undefined, null],
    ['3', 3],
    [3, 3],
  ])('position %j -> %j', (position, expected) => {
    expect(subjects.input.parse({ ...valid, position }).position).toBe(expected);
  });

  it.each([['2.5'], ['-1']])('position %j -> "Enter a whole number"', (position) => {
    expect(errorsOf(subjects.input, { ...valid, position })).toEqual({ position: 'Enter a whole number' });
  });

  it.each([['x'], ['B']])('position %j, no number at all -> "Please enter a number", never 0', (position) => {
    expect(errorsOf(subjects.input, { ...valid, position })).toEqual({ position: 'Please enter a number' });
  });

  it('an empty number is never 0: blank or spaces are refused where a number is required, null where optional', () => {
    expect(errorsOf(aLevelScores.input, { total: '', score: 'B', papercount: ' ' })).toEqual({
      total: 'Please enter a number',
      score: 'Please enter a number',
      papercount: 'Please enter a number',
    });
    expect(aLevelScores.input.parse({ total: '12', score: 0, papercount: '3' })).toEqual({ total: 12, score: 0, papercount: 3 });
    expect(subjects.input.parse({ ...valid, position: '' }).position).toBeNull();
    expect(
      errorsOf(proportions.input, {
        form: 'P4',
        term: 'I',
        year: '',
        subject_id: '0190a1b2-0000-7000-8000-000000000000',
        marktype_id: '0190a1b2-0000-7000-8000-000000000000',
        percentage: '',
      }),
    ).toMatchObject({
      year: 'Enter a year between 2000 and 2100',
      percentage: 'Enter a percentage from 0 to 100',
    });
    expect(markTypes.input.parse({ label: 'BOT', category: 'test', outof: '' }).outof).toBe(100);
  });

  it('defaults: not multiple papers, active, blank optionals null', () => {
    expect(subjects.input.parse({ ...valid, olevelcategory: '', abbreviation: '' })).toEqual({
      name: 'English',
      category: 'english',
      abbreviation: null,
      olevelcategory: null,
      position: null,
      weeklylabel: null,
      multiple_paper_forms: null,
      multiple_papers: false,
      active: true,
    });
  });
});

describe('bounds the wrong way round', () => {
  it('grades.input: lower above upper is refused at lower', () => {
    const result = grades.input.safeParse({ form: 'P7', term: 'I', year: 2026, subject_id: SUBJECT_ID, grade: 'D1', lower: 80, upper: 70 });
    expect(result.error?.issues.map((issue) => [issue.message, issue.path])).toEqual([
      ['The lower bound must not be above the upper bound', ['lower']],
    ]);
  });

  it('grades.input: equal bounds are accepted', () => {
    expect(
      grades.input.safeParse({ form: 'P7', term: 'I', year: 2026, subject_id: SUBJECT_ID, grade: 'D1', lower: 80, upper: 80 }).success,
    ).toBe(true);
  });

  it('autoReportComments.input: From above To is refused at score', () => {
    const result = autoReportComments.input.safeParse({ form: 'P7', remarktype_id: REMARK_TYPE_ID, score: 10, upper: 5, comment: 'Good' });
    expect(result.error?.issues.map((issue) => [issue.message, issue.path])).toEqual([
      ['The lower bound must not be above the upper bound', ['score']],
    ]);
  });

  it('autoReportComments.input: From below To is accepted', () => {
    expect(
      autoReportComments.input.safeParse({ form: 'P7', remarktype_id: REMARK_TYPE_ID, score: '5', upper: '10', comment: 'Good' }).data,
    ).toEqual({
      form: 'P7',
      remarktype_id: REMARK_TYPE_ID,
      score: 5,
      upper: 10,
      comment: 'Good',
    });
  });
});

describe('listQuerySchema', () => {
  it('subjects: defaults to page 1 of 25, no spreadsheet', () => {
    expect(listQuerySchema(subjects).parse({})).toEqual({ page: 1, per_page: 25, excel: false });
  });

  it('student categories: 10 a page', () => {
    expect(listQuerySchema(studentCategories).parse({}).per_page).toBe(10);
  });

  it.each([
    ['1', true],
    ['true', true],
    ['0', false],
    ['false', false],
    [undefined, false],
  ])('excel %j -> %j', (excel, expected) => {
    expect(listQuerySchema(subjects).parse({ excel }).excel).toBe(expected);
  });

  it('an unknown excel value is refused', () => {
    expect(listQuerySchema(subjects).safeParse({ excel: 'yes' }).success).toBe(false);
  });

  it('coerces page and per_page from the query string', () => {
    expect(listQuerySchema(subjects).parse({ page: '2', per_page: '50', search: ' eng ' })).toEqual({
      page: 2,
      per_page: 50,
      search: 'eng',
      excel: false,
    });
  });

  it.each([['0'], ['-1'], ['1.5'], ['x']])('page %j is refused', (page) => {
    expect(listQuerySchema(subjects).safeParse({ page }).success).toBe(false);
  });

  it('keeps the resource filters', () => {
    expect(listQuerySchema(subjects).parse({ active: 'true' }).active).toBe('true');
    expect(listQuerySchema(subjects).safeParse({ active: 'yes' }).success).toBe(false);
  });
});
