import { describe, expect, it } from 'vitest';
import { defineAbilityFor } from './abilities.js';
import { type Assignments, entryReach, mayEnter, mayOpen, streamsToEnter } from './assignments.js';

const role = (...permissions: Array<[action: string, subject: string]>) =>
  defineAbilityFor({ roles: [{ name: 'r', permissions: permissions.map(([action, subject_class]) => ({ action, subject_class })) }] });

const teacher = role(['create', 'mark']);
const maths = 'maths-id';
const english = 'english-id';
const held: Assignments = {
  subjects: [
    { subject_id: maths, form: 'P5', stream: 'A', term: 'I', year: 2026 },
    { subject_id: english, form: 'S2', stream: null, term: 'I', year: 2026 },
  ],
  classes: [{ form: 'P5', stream: 'A', term: 'I', year: 2026 }],
};
const at = (form: string, stream: string | null, subject_id?: string, term = 'I', year = 2026) => ({
  form,
  stream,
  subject_id,
  term,
  year,
});

describe('how far roles reach', () => {
  it('an administrator and a head teacher (manage on mark and remark) enter everything everywhere', () => {
    const all = { marks: 'all', subjectComments: 'all', reportComments: 'all' };
    expect(entryReach(defineAbilityFor({ is_admin: true }))).toEqual(all);
    expect(entryReach(role(['manage', 'mark'], ['manage', 'remark']))).toEqual(all);
  });

  it('create on mark alone: every entry only where assigned', () => {
    expect(entryReach(teacher)).toEqual({ marks: 'assigned', subjectComments: 'assigned', reportComments: 'assigned' });
  });

  it('manage on remark lifts the limit on comments, not on marks', () => {
    expect(entryReach(role(['create', 'mark'], ['manage', 'remark']))).toEqual({
      marks: 'assigned',
      subjectComments: 'all',
      reportComments: 'all',
    });
  });

  it('manage on mark lifts every limit', () => {
    expect(entryReach(role(['manage', 'mark']))).toEqual({ marks: 'all', subjectComments: 'all', reportComments: 'all' });
  });

  it('create on remark alone: comments where assigned, no marks', () => {
    expect(entryReach(role(['create', 'remark']))).toEqual({ marks: 'none', subjectComments: 'assigned', reportComments: 'assigned' });
  });

  it('a bursar (students only) enters nothing, assigned or not', () => {
    const bursar = role(['manage', 'student']);
    expect(entryReach(bursar)).toEqual({ marks: 'none', subjectComments: 'none', reportComments: 'none' });
    expect(mayEnter(bursar, held, 'marks', at('P5', 'A', maths))).toBe(false);
  });
});

describe('what assignments grant a teacher', () => {
  it('marks and subject comments for the subject, class, stream, term and year assigned', () => {
    expect(mayEnter(teacher, held, 'marks', at('P5', 'A', maths))).toBe(true);
    expect(mayEnter(teacher, held, 'subjectComments', at('P5', 'A', maths))).toBe(true);
  });

  it('not for another subject, class, stream, term or year', () => {
    expect(mayEnter(teacher, held, 'marks', at('P5', 'A', english))).toBe(false);
    expect(mayEnter(teacher, held, 'marks', at('P6', 'A', maths))).toBe(false);
    expect(mayEnter(teacher, held, 'marks', at('P5', 'B', maths))).toBe(false);
    expect(mayEnter(teacher, held, 'marks', at('P5', 'A', maths, 'II'))).toBe(false);
    expect(mayEnter(teacher, held, 'marks', at('P5', 'A', maths, 'I', 2025))).toBe(false);
  });

  it('an assignment to a stream does not cover the whole class', () => {
    expect(mayEnter(teacher, held, 'marks', at('P5', null, maths))).toBe(false);
  });

  it('an assignment without a stream covers every stream of the class, and the whole class', () => {
    expect(mayEnter(teacher, held, 'marks', at('S2', 'East', english))).toBe(true);
    expect(mayEnter(teacher, held, 'marks', at('S2', 'West', english))).toBe(true);
    expect(mayEnter(teacher, held, 'marks', at('S2', null, english))).toBe(true);
  });

  it('class and stream match whatever their case and spaces', () => {
    expect(mayEnter(teacher, held, 'marks', at(' p5 ', 'a', maths))).toBe(true);
  });

  it('report comments only for the classes they are class teacher of, not those they teach a subject in', () => {
    expect(mayEnter(teacher, held, 'reportComments', at('P5', 'A'))).toBe(true);
    expect(mayEnter(teacher, held, 'reportComments', at('S2', 'East'))).toBe(false);
    expect(mayEnter(teacher, held, 'reportComments', at('P5', 'A', undefined, 'II'))).toBe(false);
  });

  it('nothing without assignments; everything once the limit is lifted', () => {
    const none: Assignments = { subjects: [], classes: [] };
    expect(mayEnter(teacher, none, 'marks', at('P5', 'A', maths))).toBe(false);
    expect(mayEnter(role(['manage', 'mark']), none, 'marks', at('P7', null, english))).toBe(true);
    expect(mayEnter(role(['create', 'mark'], ['manage', 'remark']), none, 'reportComments', at('P7', null))).toBe(true);
  });
});

describe('opening a class without a stream (issue 23 item 18)', () => {
  const both: Assignments = {
    subjects: [
      { subject_id: maths, form: 'P5', stream: 'East', term: 'I', year: 2026 },
      { subject_id: maths, form: 'p5 ', stream: 'West', term: 'I', year: 2026 },
      { subject_id: maths, form: 'P5', stream: ' east', term: 'I', year: 2026 },
      { subject_id: maths, form: 'P5', stream: 'North', term: 'II', year: 2026 },
      { subject_id: english, form: 'P5', stream: 'North', term: 'I', year: 2026 },
    ],
    classes: [],
  };

  it('a teacher of both streams opens every stream he teaches, each once, in this term and subject only', () => {
    expect(streamsToEnter(teacher, both, 'marks', at('P5', null, maths))).toEqual(['East', 'West']);
    expect(mayOpen(['East', 'West'], null)).toBe(true);
  });

  it('a teacher of one stream opens that stream alone; another stream stays closed', () => {
    const streams = streamsToEnter(teacher, held, 'marks', at('P5', null, maths));
    expect(streams).toEqual(['A']);
    expect(mayOpen(streams, null)).toBe(true);
    expect(mayOpen(streams, 'a')).toBe(true);
    expect(mayOpen(streams, 'B')).toBe(false);
  });

  it('an assignment without a stream, or a role that lifts the limit, opens every stream', () => {
    expect(streamsToEnter(teacher, held, 'marks', at('S2', null, english))).toBe('all');
    expect(streamsToEnter(role(['manage', 'mark']), { subjects: [], classes: [] }, 'marks', at('P7', null, maths))).toBe('all');
    expect(mayOpen('all', null)).toBe(true);
  });

  it('report comments: the streams of the class they are class teacher of', () => {
    const tutor: Assignments = {
      subjects: [],
      classes: [
        { form: 'P5', stream: 'East', term: 'I', year: 2026 },
        { form: 'P5', stream: 'West', term: 'I', year: 2026 },
      ],
    };
    expect(streamsToEnter(teacher, tutor, 'reportComments', at('P5', null))).toEqual(['East', 'West']);
    expect(streamsToEnter(teacher, held, 'reportComments', at('P5', null))).toEqual(['A']);
    expect(streamsToEnter(teacher, held, 'reportComments', at('S2', null))).toEqual([]);
  });

  it('no stream of the class taught, or no right to enter: nothing opens', () => {
    expect(streamsToEnter(teacher, held, 'marks', at('P6', null, maths))).toEqual([]);
    expect(streamsToEnter(role(['manage', 'student']), held, 'marks', at('P5', null, maths))).toEqual([]);
    expect(mayOpen([], null)).toBe(false);
  });
});
