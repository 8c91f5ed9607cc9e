import type { ReportType, StatisticsCategory, Term, WeightSetName } from '@mustard/shared';

/*
 * Every field a report filter may ask (spec §2 "Comments and reports", §7 "Reports"), each
 * declared once: its value, where it starts and how it goes into an endpoint's query. A page
 * names the fields it asks (`ReportPageDeclaration.fields`); nothing else about them is written
 * again. Pure: the unit tests read it without a browser.
 */

/** The values of every field; a page's filter holds them all and sends the ones it declares. */
export interface FilterValues {
  form: string | null;
  stream: string;
  studentcategory_id: string | null;
  term: Term;
  year: number;
  /** The report type ("Report Type" on Terminal Reports, "Category" on the mark sheet). */
  category: ReportType;
  marktype_ids: string[];
  /** One mark type (the new-curriculum card's summative exam). */
  marktype_id: string | null;
  /** One learner of the class (none: the whole class). */
  student_id: string | null;
  subject_id: string | null;
  remarktype_id: string | null;
  /** The title the cards print. */
  label: string;
  /** Display raw marks. */
  rawmark: boolean;
  /** Seperate mark types (the spec's spelling). */
  separate: boolean;
  /** Display Long text. */
  ta: boolean;
  /** New-curriculum card: Summary (formative, summative, total, grade and descriptor per subject). */
  summary: boolean;
  /** New-curriculum card: Show Topics (a row per competency). */
  topics: boolean;
  /** New-curriculum card: Disable Formative (an exam-only card). */
  noformative: boolean;
  /** New-curriculum card: Show comments (the remarks on competency and generic skills, the report remarks). */
  comments: boolean;
  /** The decimals a table shows (display only; the result analysis). */
  precision: number;
  /** The statistics category of Mark Statistics (spec §9; sent as `category`). */
  statistic: StatisticsCategory;
  /** The weight set of the statistics' indices. */
  weight: WeightSetName;
}

export type FieldName = keyof FilterValues;

/** The report options: boxes in the row under the fields. */
export const OPTION_NAMES = ['rawmark', 'separate', 'ta', 'summary', 'topics', 'noformative', 'comments'] as const;
export type OptionName = (typeof OPTION_NAMES)[number];

/** The fields of the filter's grid. */
export type GridFieldName = Exclude<FieldName, OptionName>;

/** Where every field starts (the term and year then move to the school's current term once its calendar is known). */
export function startValues(current: { term: Term; year: number }, page: Partial<FilterValues> = {}): FilterValues {
  return {
    form: null,
    stream: '',
    studentcategory_id: null,
    term: current.term,
    year: current.year,
    category: 'exam',
    marktype_ids: [],
    marktype_id: null,
    student_id: null,
    subject_id: null,
    remarktype_id: null,
    label: '',
    rawmark: false,
    separate: false,
    ta: false,
    summary: false,
    topics: false,
    noformative: false,
    comments: false,
    precision: 2,
    statistic: 'division',
    weight: 'grade',
    ...page,
  };
}

/** What a field's value is in a query: a flag as '1' or '0', an id not chosen as '' (the contract says whether one is needed). */
type QueryValue = string | number | undefined;

const id = (value: string | null): QueryValue => value ?? '';
const flag = (value: boolean): QueryValue => (value ? '1' : '0');

/** How each field goes into a query, and the query names it fills. */
const TO_QUERY: { [Name in FieldName]: (value: FilterValues[Name]) => QueryValue } = {
  form: id,
  stream: (value) => value.trim() || undefined,
  studentcategory_id: id,
  term: (value) => value,
  year: (value) => value,
  category: (value) => value,
  // The mark types as one list (the contract reads `a,b` as well as `marktype_ids[]`); none: all of them.
  marktype_ids: (value) => (value.length > 0 ? value.join(',') : undefined),
  marktype_id: id,
  student_id: id,
  subject_id: id,
  remarktype_id: id,
  label: (value) => value.trim() || undefined,
  rawmark: flag,
  separate: flag,
  ta: flag,
  summary: flag,
  topics: flag,
  noformative: flag,
  comments: flag,
  precision: (value) => value,
  statistic: (value) => value,
  weight: (value) => value,
};

/** The query name of a field whose name differs from it: the statistics category is the contract's `category`. */
export const QUERY_NAMES: Partial<Record<FieldName, string>> = { statistic: 'category' };

/** The query name a field's value goes under (and a 422 names it by). */
export const queryName = (name: FieldName): string => QUERY_NAMES[name] ?? name;

/** The query of the fields a page declares, from the filter's values: nothing of a field the page does not ask. */
export function queryOf(fields: readonly FieldName[], values: FilterValues): Record<string, string | number | undefined> {
  const query: Record<string, string | number | undefined> = {};
  for (const name of fields) query[queryName(name)] = (TO_QUERY[name] as (value: FilterValues[typeof name]) => QueryValue)(values[name]);
  return query;
}

/** What depends on a field: a new class or stream is another list of learners, so the learner chosen goes. */
const CLEARS: Partial<Record<FieldName, Partial<FilterValues>>> = {
  form: { student_id: null },
  stream: { student_id: null },
};

/** The filter after the person changed `fields`: with what depends on a changed field cleared. */
export function changeValues(values: FilterValues, fields: Partial<FilterValues>): FilterValues {
  let cleared: Partial<FilterValues> = {};
  for (const name of Object.keys(fields) as FieldName[]) if (fields[name] !== values[name]) cleared = { ...cleared, ...CLEARS[name] };
  return { ...values, ...cleared, ...fields };
}

/** The locale key of each report type (the spec's values have a space and a dash): `reportFilter.types.<key>`. */
export const TYPE_KEYS: Record<ReportType, string> = {
  assesment: 'assesment',
  exam: 'exam',
  'mid term': 'midTerm',
  custom: 'custom',
  'pre-primary': 'prePrimary',
};
