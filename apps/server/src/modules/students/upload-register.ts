import { IGNORE_COLUMN, STUDENT_UPLOAD_FIELDS, type StudentUploadField, type StudentUploadTarget } from '@mustard/shared';
import type { Cell, SheetRow } from '../../resources/spreadsheet.js';
import { UPLOAD_COLUMNS } from './upload-columns.js';

/*
 * A school's own register, read as it is (issue 24 point 2). Pure rules, tested alone
 * (upload-register.test.ts):
 *
 * - Headings are compared as `headerKey` makes them: lower case, a part in brackets left out,
 *   letters and digits only ("PUPIL'S NAME" → "pupilsname", "SEX (M/F)" → "sex", "D.O.B" → "dob").
 * - A heading is known by the template's names and their aliases (upload-columns.ts), the
 *   headings Ugandan registers use (REGISTER_HEADINGS), then by what it says ("… contact …" is a
 *   phone, a parent's or guardian's name has no field and is left out): `recognise`.
 * - The header row is the row, among the first HEADER_SEARCH_ROWS, with the most headings the
 *   upload knows (the school's remembered ones included); title rows above it ("ST. JUDE
 *   PRIMARY SCHOOL", "CLASS LIST P.5 2026") are passed by: `findHeaderRow`.
 * - One name column is split: "SURNAME First Other" (surname first, as registers write it), or
 *   "First Other SURNAME" when only the last word is in capitals: `splitName`.
 * - Dates: a date cell, Excel's serial number, YYYY-MM-DD, dd/mm/yyyy and d/m/yy (also with
 *   - or . between): `readDate`.
 */

/** How far down a sheet the header row is looked for. */
export const HEADER_SEARCH_ROWS = 20;

/** "PUPIL'S NAME (IN FULL)" → "pupilsname": lower case, bracketed parts left out, letters and digits only. */
export function headerKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/\([^)]*\)/g, '')
    .replace(/[^a-z0-9]/g, '');
}

/** Headings of Ugandan class registers, by the field they fill (as headerKey writes them). */
const REGISTER_HEADINGS: ReadonlyArray<[StudentUploadTarget, ReadonlyArray<string>]> = [
  [
    'name',
    [
      'name',
      'names',
      'fullname',
      'fullnames',
      'nameofpupil',
      'namesofpupils',
      'nameofpupils',
      'pupilsname',
      'pupilsnames',
      'pupilname',
      'nameofstudent',
      'studentsname',
      'studentname',
      'studentnames',
      'nameoflearner',
      'learnersname',
      'learnername',
      'learnersnames',
      'nameofchild',
      'childsname',
      'nameofcandidate',
      'candidatesname',
      'candidatename',
    ],
  ],
  ['studentid', ['admno', 'admissionnumber', 'regno', 'registrationno', 'registrationnumber', 'pupilno', 'pupilid', 'idno', 'learnerno']],
  ['firstname', ['firstnames', 'givennames', 'christianname']],
  ['gender', ['gender', 'sex', 'mf']],
  ['dob', ['dob', 'dateofbirth', 'birthdate', 'dateofbirthddmmyyyy', 'dobddmmyyyy']],
  ['lin', ['lin', 'linno', 'linnumber', 'learnersidentificationnumber']],
  ['form', ['class', 'form', 'grade']],
  ['category', ['section', 'dayboarding', 'dayboarder', 'boardingday', 'residencestatus']],
  ['address', ['residence', 'placeofresidence', 'village', 'homeaddress', 'home', 'address', 'location', 'addresses']],
  [
    'phone',
    [
      'tel',
      'telno',
      'telephone',
      'telephoneno',
      'phone',
      'phoneno',
      'phonenumber',
      'contact',
      'contacts',
      'mobile',
      'mobileno',
      'contactno',
    ],
  ],
  // Columns every register has that the product does not keep: the row's serial number.
  [IGNORE_COLUMN, ['no', 'sn', 'sno', 'serialno', 'serialnumber', 'number', 'sr', 'srno']],
];

const KNOWN: ReadonlyMap<string, StudentUploadTarget> = new Map([
  ...UPLOAD_COLUMNS.flatMap((column) => [column.key, ...column.aliases].map((name) => [headerKey(name), column.key] as const)),
  ...REGISTER_HEADINGS.flatMap(([field, names]) => names.map((name) => [name, field] as const)),
]);

const PARENT = /parent|guardian|father|mother|sponsor/;
const PHONE = /contact|phone|tel|mobile/;

/**
 * The field a heading fills, or `ignore` for one the product keeps nothing of (a serial number,
 * a parent's name), or null when the upload does not know it (the person maps it).
 */
export function recognise(heading: string): StudentUploadTarget | null {
  const key = headerKey(heading);
  if (key === '') return null;
  const known = KNOWN.get(key);
  if (known) return known;
  // A parent's or guardian's e-mail is where the cards go; their phone is the learner's contact.
  if (PARENT.test(key) && /email/.test(key)) return 'guardian_email';
  if (PHONE.test(key)) return 'phone';
  // A parent's or guardian's name: the product keeps no parent's name.
  if (PARENT.test(key)) return IGNORE_COLUMN;
  if (/name/.test(key) && /pupil|student|learner|child|candidate/.test(key)) return 'name';
  if (/residence|village|address/.test(key)) return 'address';
  if (/birth/.test(key)) return 'dob';
  return null;
}

/** A cell as heading text. */
export function headingText(cell: Cell | undefined): string {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? '' : cell.toISOString().slice(0, 10);
  return String(cell).trim();
}

/**
 * The index (in `rows`) of the header row: among the first HEADER_SEARCH_ROWS rows, the one with
 * the most distinct fields it names (`fieldOf`: a heading's field, null when unknown), the
 * earliest of equals; -1 when no row names any.
 */
export function findHeaderRow(rows: ReadonlyArray<SheetRow>, fieldOf: (heading: string) => StudentUploadTarget | null): number {
  let best = -1;
  let bestScore = 0;
  rows.slice(0, HEADER_SEARCH_ROWS).forEach((row, index) => {
    const fields = new Set<StudentUploadTarget>();
    for (const cell of row.cells) {
      // A heading is text: a row of numbers and dates is a learner, never the header.
      if (typeof cell !== 'string') continue;
      const field = fieldOf(cell);
      if (field !== null && field !== IGNORE_COLUMN) fields.add(field);
    }
    if (fields.size > bestScore) {
      bestScore = fields.size;
      best = index;
    }
  });
  return best;
}

export interface SplitName {
  lastname: string | null;
  firstname: string | null;
  othername: string | null;
}

const isCapitals = (word: string) => /\p{Lu}/u.test(word) && word === word.toUpperCase() && word !== word.toLowerCase();

/**
 * One name cell into the learner's names. Ugandan registers write the surname first:
 * "OKELLO Brian Peter" and "Okello Brian Peter" are surname Okello/OKELLO, first name Brian,
 * other name Peter. When the first word is not in capitals but the last is ("Brian OKELLO"),
 * the capitals are the surname. Commas count as spaces ("OKELLO, Brian"). A name of one word is
 * a surname alone (the first name is then missing).
 */
export function splitName(text: string | null): SplitName {
  const words = (text ?? '')
    .replace(/,/g, ' ')
    .split(/\s+/)
    .filter((word) => word !== '');
  if (words.length === 0) return { lastname: null, firstname: null, othername: null };
  const first = words[0] as string;
  const last = words[words.length - 1] as string;
  if (words.length > 1 && !isCapitals(first) && isCapitals(last)) {
    const given = words.slice(0, -1);
    return { lastname: last, firstname: given[0] ?? null, othername: given.slice(1).join(' ') || null };
  }
  return { lastname: first, firstname: words[1] ?? null, othername: words.slice(2).join(' ') || null };
}

/** Days from Excel's day 0 to 1970-01-01. */
const EXCEL_EPOCH_DAYS = 25569;
/** Serial numbers below this (1910-01-01) are not taken for dates: a year typed as 2015 is an error, not 1905. */
const SMALLEST_DATE_SERIAL = 3653;
/** Excel's last day, 9999-12-31. */
const LARGEST_DATE_SERIAL = 2_958_465;

function isoDate(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1000 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return date.toISOString().slice(0, 10);
}

/**
 * A date cell as YYYY-MM-DD: null when blank, undefined when it is not a date. Read: a date cell;
 * Excel's serial number (a date cell whose format the reader did not know); text YYYY-MM-DD;
 * text dd/mm/yyyy or d/m/yy (day first, as Uganda writes dates; / - or . between). A two-digit
 * year is this century's when it is not after this year, else the last century's (a date of
 * birth: 15 is 2015, 98 is 1998). `today` is for tests.
 */
export function readDate(cell: Cell | undefined, today = new Date()): string | null | undefined {
  if (cell === null || cell === undefined) return null;
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? undefined : cell.toISOString().slice(0, 10);
  if (typeof cell === 'number') {
    const serial = Math.floor(cell);
    if (!Number.isFinite(cell) || serial < SMALLEST_DATE_SERIAL || serial > LARGEST_DATE_SERIAL) return undefined;
    return new Date((serial - EXCEL_EPOCH_DAYS) * 86_400_000).toISOString().slice(0, 10);
  }
  if (typeof cell !== 'string') return undefined;
  const text = cell.trim();
  if (text === '') return null;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  if (iso) return isoDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const dayFirst = /^(\d{1,2})\s*[/.-]\s*(\d{1,2})\s*[/.-]\s*(\d{4}|\d{2})$/.exec(text);
  if (!dayFirst) return undefined;
  let year = Number(dayFirst[3]);
  if ((dayFirst[3] as string).length === 2) {
    const thisYear = today.getUTCFullYear() % 100;
    const century = today.getUTCFullYear() - thisYear;
    year += year <= thisYear ? century : century - 100;
  }
  return isoDate(year, Number(dayFirst[2]), Number(dayFirst[1]));
}

/** Column A is 0: "A", …, "Z", "AA", … */
export function columnLetter(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

export type ColumnSource = 'known' | 'remembered' | 'chosen' | 'unrecognised';

export interface ColumnPlan {
  index: number;
  header: string;
  key: string;
  /** The field the column fills: null when nobody knows it (then it is left out), `ignore` when left out on purpose. */
  field: StudentUploadTarget | null;
  source: ColumnSource;
}

/**
 * Each headed column of the header row with its field: the mapping sent (`chosen`) first, then
 * the school's remembered one, then a heading the upload knows. Both maps are keyed by
 * headerKey. A field two columns would fill goes to the first; the later one is left out
 * (`repeated` names the fields a chosen mapping gave twice, which the upload refuses).
 */
export function planColumns(
  header: ReadonlyArray<string>,
  remembered: ReadonlyMap<string, StudentUploadTarget>,
  chosen: ReadonlyMap<string, StudentUploadTarget>,
): { columns: ColumnPlan[]; fields: Map<StudentUploadField, number>; repeated: StudentUploadField[] } {
  const columns: ColumnPlan[] = [];
  const fields = new Map<StudentUploadField, number>();
  const chosenFields = new Set<StudentUploadField>();
  const repeated: StudentUploadField[] = [];
  header.forEach((text, index) => {
    const key = headerKey(text);
    if (key === '') return;
    let field: StudentUploadTarget | null;
    let source: ColumnSource;
    if (chosen.has(key)) {
      field = chosen.get(key) ?? null;
      source = 'chosen';
    } else if (remembered.has(key)) {
      field = remembered.get(key) ?? null;
      source = 'remembered';
    } else {
      field = recognise(text);
      source = field === null ? 'unrecognised' : 'known';
    }
    if (field !== null && field !== IGNORE_COLUMN) {
      if (source === 'chosen') {
        if (chosenFields.has(field) && !repeated.includes(field)) repeated.push(field);
        chosenFields.add(field);
      }
      if (fields.has(field)) field = IGNORE_COLUMN;
      else fields.set(field, index);
    }
    columns.push({ index, header: text, key, field, source });
  });
  return { columns, fields, repeated };
}

/** Whether a text names a field a column may fill. */
export function isUploadField(value: string): value is StudentUploadField {
  return (STUDENT_UPLOAD_FIELDS as ReadonlyArray<string>).includes(value);
}
