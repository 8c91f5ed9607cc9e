import { describe, expect, it } from 'vitest';
import { commentWarnings, fillEmpty, matchReportComment, matchSubjectComment, personalise } from './auto.js';

describe('automatic subject comments', () => {
  const autos = [
    { score: 'D1', comment: 'Excellent.' },
    { score: 'p7', comment: 'Fair; more effort.' },
    { score: '75-79.9', comment: 'Very good.' },
    { score: '80-100', comment: 'Outstanding.' },
  ];
  it('match the grade in any case first, then a band of totals with both ends included', () => {
    expect(matchSubjectComment(autos, { grade: 'd1', total: 85 })).toBe('Excellent.');
    expect(matchSubjectComment(autos, { grade: 'P7', total: 50 })).toBe('Fair; more effort.');
    expect(matchSubjectComment(autos, { grade: 'D2', total: 75 })).toBe('Very good.');
    expect(matchSubjectComment(autos, { grade: 'D2', total: 79.9 })).toBe('Very good.');
    expect(matchSubjectComment(autos, { grade: 'C3', total: 79.95 })).toBeNull();
    expect(matchSubjectComment(autos, { grade: null, total: 80 })).toBe('Outstanding.');
    expect(matchSubjectComment(autos, { grade: null, total: null })).toBeNull();
  });
});

describe('automatic report comments', () => {
  const autos = [
    { form: 'P7', remarktype_id: 'class', score: 4, upper: 12, comment: 'A first grade: well done, {name}.' },
    { form: 'P7', remarktype_id: 'class', score: 13, upper: 23, comment: 'Good.' },
    { form: 'P6', remarktype_id: 'class', score: 4, upper: 12, comment: 'P6 only.' },
    { form: 'P7', remarktype_id: 'head', score: 4, upper: 36, comment: 'Head.' },
  ];
  it('match the class and remark type, the value within [From, To] at both edges', () => {
    expect(matchReportComment(autos, { form: 'p7', remarktypeId: 'class', value: 12 })).toBe('A first grade: well done, {name}.');
    expect(matchReportComment(autos, { form: 'P7', remarktypeId: 'class', value: 13 })).toBe('Good.');
    expect(matchReportComment(autos, { form: 'P7', remarktypeId: 'class', value: 12.5 })).toBeNull();
    expect(matchReportComment(autos, { form: 'P7', remarktypeId: 'head', value: 30 })).toBe('Head.');
    expect(matchReportComment(autos, { form: 'P5', remarktypeId: 'class', value: 4 })).toBeNull();
    expect(matchReportComment(autos, { form: 'P7', remarktypeId: 'class', value: null })).toBeNull();
  });
});

describe('personalising a comment', () => {
  it('puts in the first name and the pronouns of the learner’s sex, capitalised where written so', () => {
    const text = '{name} works hard. {He} should keep {his} books neat; we are proud of {him}.';
    expect(personalise(text, { firstname: 'Amina', gender: 'F' })).toBe(
      'Amina works hard. She should keep her books neat; we are proud of her.',
    );
    expect(personalise(text, { firstname: 'Brian', gender: 'M' })).toBe(
      'Brian works hard. He should keep his books neat; we are proud of him.',
    );
    expect(personalise(text, { firstname: 'Alex', gender: null })).toBe(
      'Alex works hard. They should keep their books neat; we are proud of them.',
    );
  });
});

describe('warnings on a typed comment', () => {
  const classmates = [{ firstname: 'Amina' }, { firstname: 'Brian' }, { firstname: 'Carol' }];
  it('names another learner of the class, and pronouns of the other sex', () => {
    expect(commentWarnings('Brian has improved; he reads well.', { firstname: 'Amina', gender: 'F' }, classmates)).toEqual([
      { kind: 'otherLearner', name: 'Brian' },
      { kind: 'pronouns', words: ['he'] },
    ]);
    expect(commentWarnings('Amina has improved; she reads well.', { firstname: 'Amina', gender: 'F' }, classmates)).toEqual([]);
    expect(commentWarnings('Her handwriting is good.', { firstname: 'Brian', gender: 'M' }, classmates)).toEqual([
      { kind: 'pronouns', words: ['her'] },
    ]);
    // A word that merely contains a name is no name: "Carolina" is not Carol.
    expect(commentWarnings('Sang in the Carolina choir.', { firstname: 'Amina', gender: null }, classmates)).toEqual([]);
  });
});

describe('fill empty comments', () => {
  it('fills only what is empty or blank, never a typed comment, and counts what it filled', () => {
    const result = fillEmpty({ a: 'Typed by the teacher.', b: '  ', c: '' }, { a: 'Auto A', b: 'Auto B', c: null, d: 'Auto D' });
    expect(result).toEqual({ comments: { a: 'Typed by the teacher.', b: 'Auto B', c: '', d: 'Auto D' }, filled: 2 });
  });
});
