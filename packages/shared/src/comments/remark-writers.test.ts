import { describe, expect, it } from 'vitest';
import { isHeadTeacherRemark, namesHeadTeacher } from './remark-writers.js';

describe('whose remark a remark type is (issue 23 item 8)', () => {
  it('knows the head teacher’s remark by the words schools use for the head', () => {
    for (const label of [
      "Head teacher's comment",
      "HEAD TEACHER'S REMARKS",
      'Headteacher remarks',
      'Head-teacher',
      "Headmaster's remarks",
      'Head Mistress comment',
      "Head's comment",
      "HM's remarks",
      "Principal's remarks",
      "Deputy head teacher's comment",
    ])
      expect(namesHeadTeacher(label), label).toBe(true);
  });

  it('leaves the class teacher’s remarks and the class values to the class teacher', () => {
    for (const label of ["Class teacher's comment", 'Class Teacher Remarks', 'Conduct', 'Skills and values', 'Punctuality', 'Headway'])
      expect(namesHeadTeacher(label), label).toBe(false);
  });

  it('makes a sub category the head teacher’s when its parent is', () => {
    const head = { id: 'h', label: "Head teacher's comment", parent_id: null };
    const promotion = { id: 'p', label: 'Promotion', parent_id: 'h' };
    const values = { id: 'v', label: 'Skills and values', parent_id: null };
    const conduct = { id: 'c', label: 'Conduct', parent_id: 'v' };
    const all = new Map([head, promotion, values, conduct].map((type) => [type.id, type]));
    expect(isHeadTeacherRemark(promotion, all)).toBe(true);
    expect(isHeadTeacherRemark(conduct, all)).toBe(false);
  });
});
