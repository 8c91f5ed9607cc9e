import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { TerminalReportQuerySchema } from '../reports/model.js';
import { MarksListQuerySchema, MarkTargetsListQuerySchema } from '../resources/marks.js';
import { grades, proportions, publishMarks } from '../resources/school.js';
import { subjectPapers, subjectTeachers } from '../resources/staff.js';
import { ProfileQuerySchema } from '../schemas/auth.js';
import { StatementQuerySchema } from '../schemas/fees.js';
import {
  AttendanceRequestSchema,
  MarkHistoryQuerySchema,
  MarksDeleteSchema,
  MarksGridQuerySchema,
  MarksSaveSchema,
  MarkTargetRequestSchema,
} from '../schemas/marks.js';
import { StudentListQuerySchema } from '../schemas/students.js';
import { IdParamsSchema } from './fields.js';
import { MarkCommentsQuerySchema, MarkCommentsSaveSchema } from './mark-comments.js';
import { MarksheetQuerySchema } from './marksheet.js';
import { RemarksDeleteSchema, RemarksQuerySchema } from './remarks.js';

/*
 * Issue 23 item 5: an id in capitals names the record its small letters name, on every contract
 * (one home: fields.ts). Each contract that takes a mark type, subject, learner or other id is
 * given it in capitals and must answer it as stored, in small letters.
 */

const markType = '0193f2a4-7b1c-7d2e-8f3a-4b5c6d7e8f9a';
const subject = '0193f2a4-7b1c-7d2e-8f3a-4b5c6d7e8fab';
const learner = '0193f2a4-7b1c-7d2e-8f3a-4b5c6d7e8fbc';
const other = '0193f2a4-7b1c-7d2e-8f3a-4b5c6d7e8fcd';
const up = (id: string) => id.toUpperCase();
const place = { form: 'P5', stream: 'East', term: 'I', year: 2026 };

/** The contract's answer for this input; it must accept it. */
function parsed<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const result = schema.safeParse(input);
  if (!result.success) throw new Error(JSON.stringify(result.error.issues));
  return result.data;
}

describe('ids in capitals on every contract', () => {
  it('the marks grid, its save, deletion, history and list', () => {
    expect(
      parsed(MarksGridQuerySchema, { ...place, subject_id: up(subject), marktypes: `${up(markType)},${up(other)}`, topic_id: up(other) }),
    ).toMatchObject({ subject_id: subject, marktypes: [markType, other], topic_id: other });
    expect(
      parsed(MarksSaveSchema, {
        ...place,
        subject_id: up(subject),
        save_id: up(other),
        marks: { [up(markType)]: { [up(learner)]: 5 } },
        base: { [up(markType)]: { [up(learner)]: 1 } },
      }),
    ).toMatchObject({
      subject_id: subject,
      save_id: other,
      marks: { [markType]: { [learner]: 5 } },
      base: { [markType]: { [learner]: 1 } },
    });
    expect(parsed(MarksDeleteSchema, { ...place, subject_id: up(subject), marktype_id: up(markType) })).toMatchObject({
      subject_id: subject,
      marktype_id: markType,
    });
    expect(
      parsed(MarkHistoryQuerySchema, {
        student_id: up(learner),
        subject_id: up(subject),
        marktype_id: up(markType),
        term: 'I',
        year: '2026',
      }),
    ).toMatchObject({ student_id: learner, subject_id: subject, marktype_id: markType });
    expect(parsed(MarksListQuerySchema, { subject_id: up(subject), marktype_id: up(markType) })).toMatchObject({
      subject_id: subject,
      marktype_id: markType,
    });
  });

  it('attendance and mark targets', () => {
    expect(parsed(AttendanceRequestSchema, { ...place, daysattended: { [up(learner)]: 40 } }).daysattended).toEqual({ [learner]: 40 });
    expect(parsed(MarkTargetRequestSchema, { ...place, subject_id: up(subject), target: { [up(learner)]: 70 } })).toMatchObject({
      subject_id: subject,
      target: { [learner]: 70 },
    });
    expect(parsed(MarkTargetsListQuerySchema, { subject_id: up(subject) }).subject_id).toBe(subject);
  });

  it('the report cards and the mark sheet', () => {
    const query = { ...place, marktype_id: up(markType), marktype_ids: up(other), 'marktype_ids[]': [up(other)], student_id: up(learner) };
    expect(parsed(TerminalReportQuerySchema, query)).toMatchObject({
      marktype_id: markType,
      marktype_ids: [other],
      'marktype_ids[]': [other],
      student_id: learner,
    });
    expect(parsed(MarksheetQuerySchema, query)).toMatchObject({ marktype_id: markType, marktype_ids: [other], 'marktype_ids[]': [other] });
  });

  it('subject comments, generic skills and report comments', () => {
    expect(parsed(MarkCommentsQuerySchema, { ...place, subject_id: up(subject), marktype_ids: up(markType) })).toMatchObject({
      subject_id: subject,
      marktype_ids: [markType],
    });
    expect(parsed(MarkCommentsSaveSchema, { ...place, subject_id: up(subject), comment: { [up(learner)]: 'Good' } })).toMatchObject({
      subject_id: subject,
      comment: { [learner]: 'Good' },
    });
    expect(parsed(RemarksQuerySchema, { ...place, marktype_id: up(markType), remarktype_id: up(other) })).toMatchObject({
      marktype_id: markType,
      remarktype_id: other,
    });
    expect(parsed(RemarksDeleteSchema, { ...place, remarktype_id: up(other), student_id: up(learner) })).toMatchObject({
      remarktype_id: other,
      student_id: learner,
    });
  });

  it('a record named in a route’s path, a learner’s statement, category and school', () => {
    expect(parsed(IdParamsSchema, { id: up(learner) })).toEqual({ id: learner });
    expect(parsed(StatementQuerySchema, { id: up(learner) })).toEqual({ id: learner });
    expect(parsed(StudentListQuerySchema, { studentcategory_id: up(other) }).studentcategory_id).toBe(other);
    expect(parsed(StudentListQuerySchema, { studentcategory_id: '' }).studentcategory_id).toBeUndefined();
    expect(parsed(ProfileQuerySchema, { tenant_id: up(other) })).toEqual({ tenant_id: other });
  });

  it('the settings and staff resources a mark is read with', () => {
    expect(parsed(subjectTeachers.input, { ...place, user_id: up(other), subject_id: up(subject) })).toMatchObject({
      user_id: other,
      subject_id: subject,
    });
    expect(parsed(subjectTeachers.filters, { subject_id: up(subject) }).subject_id).toBe(subject);
    expect(parsed(subjectPapers.filters, { subject_id: up(subject) }).subject_id).toBe(subject);
    expect(parsed(publishMarks.input, { term: 'I', year: 2026, marktype_id: up(markType) }).marktype_id).toBe(markType);
    expect(parsed(proportions.input.partial(), { subject_id: up(subject), marktype_id: up(markType) })).toMatchObject({
      subject_id: subject,
      marktype_id: markType,
    });
    expect(parsed(grades.filters, { subject_id: up(subject) }).subject_id).toBe(subject);
  });
});
