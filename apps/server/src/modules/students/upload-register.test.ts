import { describe, expect, it } from 'vitest';
import { type Cell, headerBelowTitles, type SheetRow } from '../../resources/spreadsheet.js';
import { columnLetter, findHeaderRow, headerKey, planColumns, readDate, recognise, splitName } from './upload-register.js';

/* The pure rules of reading a school's own register (issue 24 point 2): no database. */

const rowsOf = (...rows: Cell[][]): SheetRow[] => rows.map((cells, index) => ({ number: index + 1, cells }));

describe('headings', () => {
  it('compares headings ignoring case, punctuation and a part in brackets', () => {
    expect(headerKey("PUPIL'S NAME")).toBe('pupilsname');
    expect(headerKey('D.O.B')).toBe('dob');
    expect(headerKey('SEX (M/F)')).toBe('sex');
    expect(headerKey('  Tel. No. ')).toBe('telno');
  });

  it('knows the headings of Ugandan registers beside the template’s', () => {
    const fields = Object.fromEntries(
      [
        'NAME OF PUPIL',
        "PUPIL'S NAME",
        'NAMES',
        "Learner's name",
        'SEX',
        'Gender',
        'D.O.B',
        'DATE OF BIRTH (dd/mm/yyyy)',
        'LIN',
        'LIN No.',
        "PARENT'S NAME",
        'PARENT/GUARDIAN',
        "PARENT'S CONTACT",
        'Guardian Tel',
        'TEL',
        'Phone number',
        'CONTACT',
        'RESIDENCE',
        'Village',
        'Address',
        'S/N',
        'NO.',
        'ADM. NO',
        'studentid',
        'First name',
        'Surname',
        'Class',
        'Stream',
        'SECTION',
        'HOME DISTRICT',
        'RELIGION',
        '',
      ].map((heading) => [heading, recognise(heading)]),
    );
    expect(fields).toEqual({
      'NAME OF PUPIL': 'name',
      "PUPIL'S NAME": 'name',
      NAMES: 'name',
      "Learner's name": 'name',
      SEX: 'gender',
      Gender: 'gender',
      'D.O.B': 'dob',
      'DATE OF BIRTH (dd/mm/yyyy)': 'dob',
      LIN: 'lin',
      'LIN No.': 'lin',
      "PARENT'S NAME": 'ignore',
      'PARENT/GUARDIAN': 'ignore',
      "PARENT'S CONTACT": 'phone',
      'Guardian Tel': 'phone',
      TEL: 'phone',
      'Phone number': 'phone',
      CONTACT: 'phone',
      RESIDENCE: 'address',
      Village: 'address',
      Address: 'address',
      'S/N': 'ignore',
      'NO.': 'ignore',
      'ADM. NO': 'studentid',
      studentid: 'studentid',
      'First name': 'firstname',
      Surname: 'lastname',
      Class: 'form',
      Stream: 'stream',
      SECTION: 'category',
      'HOME DISTRICT': null,
      RELIGION: null,
      '': null,
    });
  });

  it('finds the header row below title rows and blank rows, the row naming the most fields', () => {
    const rows = rowsOf(
      ['ST. JUDE PRIMARY SCHOOL, GULU'],
      ['CLASS LIST P.5 2026'],
      ['NAMES OF PUPILS'],
      ['S/N', 'NAME OF PUPIL', 'SEX', 'D.O.B', 'RELIGION'],
      [1, 'OKELLO Brian', 'M', '14/03/2015', 'Catholic'],
    );
    expect(findHeaderRow(rows, recognise)).toBe(3);
    // A heading the school mapped counts too.
    const mapped = rowsOf(['Mustard'], ['Jina', 'Jinsia'], ['Sarah', 'F']);
    expect(findHeaderRow(mapped, recognise)).toBe(-1);
    const school = new Map([
      ['Jina', 'name'],
      ['Jinsia', 'gender'],
    ] as const);
    expect(findHeaderRow(mapped, (heading) => school.get(heading as 'Jina') ?? null)).toBe(1);
    // Learners' rows are never headers: numbers and dates are not headings.
    expect(findHeaderRow(rowsOf([1, 2], ['Name', 'Sex']), recognise)).toBe(1);
  });

  it('plans each column: the chosen field, then the remembered one, then the known one; a field twice goes to the first', () => {
    const header = ['S/N', 'NAME OF PUPIL', 'CONTACT', 'TEL', 'HOME DISTRICT', 'RELIGION'];
    const plan = planColumns(header, new Map([['religion', 'ignore']]), new Map([['homedistrict', 'address']]));
    expect(plan.columns.map((column) => [column.header, column.field, column.source])).toEqual([
      ['S/N', 'ignore', 'known'],
      ['NAME OF PUPIL', 'name', 'known'],
      ['CONTACT', 'phone', 'known'],
      ['TEL', 'ignore', 'known'],
      ['HOME DISTRICT', 'address', 'chosen'],
      ['RELIGION', 'ignore', 'remembered'],
    ]);
    expect([...plan.fields]).toEqual([
      ['name', 1],
      ['phone', 2],
      ['address', 4],
    ]);
    expect(plan.repeated).toEqual([]);
    expect(
      planColumns(
        header,
        new Map(),
        new Map([
          ['homedistrict', 'lin'],
          ['religion', 'lin'],
        ]),
      ).repeated,
    ).toEqual(['lin']);
  });

  it('finds a fee journal’s header below title rows of one or two cells, else row 1', () => {
    expect(headerBelowTitles(rowsOf(['SCHOOL'], ['FEES', 'TERM I'], ['Student', 'Name', 'Class'], ['A1', 'X', 'P4']))).toBe(2);
    expect(headerBelowTitles(rowsOf(['Student', 'Name', 'Class'], ['A1', 'X', 'P4']))).toBe(0);
    // A first row of three cells with a number is a learner's: row 1 stays the header.
    expect(headerBelowTitles(rowsOf(['Student', 'Amount'], ['A1', 'X', 5000]))).toBe(-1);
  });

  it('names columns by letter', () => {
    expect([0, 3, 25, 26, 27, 51, 52, 701, 702].map(columnLetter)).toEqual(['A', 'D', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA']);
  });
});

describe('one name column', () => {
  it('reads the surname first, as registers write it', () => {
    expect(splitName('OKELLO Brian Peter')).toEqual({ lastname: 'OKELLO', firstname: 'Brian', othername: 'Peter' });
    expect(splitName('Okello Brian')).toEqual({ lastname: 'Okello', firstname: 'Brian', othername: null });
    expect(splitName('NAMULI GRACE ACHIENG')).toEqual({ lastname: 'NAMULI', firstname: 'GRACE', othername: 'ACHIENG' });
    expect(splitName('  KATO,  Moses   Ssewanyana Junior ')).toEqual({
      lastname: 'KATO',
      firstname: 'Moses',
      othername: 'Ssewanyana Junior',
    });
  });

  it('takes the surname from the end when only it is in capitals', () => {
    expect(splitName('Sarah NAKATO')).toEqual({ lastname: 'NAKATO', firstname: 'Sarah', othername: null });
    expect(splitName('Sarah Jane NAKATO')).toEqual({ lastname: 'NAKATO', firstname: 'Sarah', othername: 'Jane' });
    expect(splitName('Ñusta ÖZİL')).toEqual({ lastname: 'ÖZİL', firstname: 'Ñusta', othername: null });
  });

  it('leaves the first name missing for a single word, and everything for a blank', () => {
    expect(splitName('ALONE')).toEqual({ lastname: 'ALONE', firstname: null, othername: null });
    expect(splitName('   ')).toEqual({ lastname: null, firstname: null, othername: null });
    expect(splitName(null)).toEqual({ lastname: null, firstname: null, othername: null });
  });
});

describe('dates', () => {
  const today = new Date(Date.UTC(2026, 10, 25));

  it('reads dd/mm/yyyy and d/m/yy, day first, with / - or .', () => {
    expect(readDate('14/03/2015', today)).toBe('2015-03-14');
    expect(readDate('3/7/16', today)).toBe('2016-07-03');
    expect(readDate('03-07-2016', today)).toBe('2016-07-03');
    expect(readDate('3.7.2016', today)).toBe('2016-07-03');
    expect(readDate(' 29/02/2016 ', today)).toBe('2016-02-29');
    // A two-digit year after this year is the last century's.
    expect(readDate('1/1/26', today)).toBe('2026-01-01');
    expect(readDate('1/1/27', today)).toBe('1927-01-01');
    expect(readDate('2015-03-14', today)).toBe('2015-03-14');
  });

  it('reads date cells and Excel serial numbers', () => {
    expect(readDate(new Date(Date.UTC(2014, 10, 2)))).toBe('2014-11-02');
    expect(readDate(42077)).toBe('2015-03-14');
    expect(readDate(42077.75)).toBe('2015-03-14');
  });

  it('answers blank as no date and anything else as not a date', () => {
    expect(readDate(null)).toBeNull();
    expect(readDate('  ')).toBeNull();
    for (const cell of [
      '31/02/2015',
      '14/13/2015',
      '2015/03/14',
      'March 2015',
      '14/03',
      '0/1/2015',
      '2015-02-30',
      true,
      2015,
      1e20,
      Number.NaN,
      new Date(Number.NaN),
    ]) {
      expect(readDate(cell as Cell, today), String(cell)).toBeUndefined();
    }
  });
});
