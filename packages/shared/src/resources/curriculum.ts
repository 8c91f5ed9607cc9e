import { z } from 'zod';
import { TERMS } from '../constants.js';
import { classFilter, optionalId, termQuery, yearQuery } from '../endpoints/fields.js';
import { IN_USE_MESSAGES, SETTINGS_MESSAGES as M } from '../messages.js';
import { requiredText, text, typedNumber } from '../schemas/common.js';
import { defineResource } from './definition.js';
import { form, id, named, requiredUuid, term, year } from './fields.js';

/*
 * The new curriculum (issue 26 points 2 and 4; spec §2 "Competencies and projects", §3, §7):
 * a secondary school's competencies (the spec's topics) and projects, each a resource on the
 * list mechanism, 25 a page (spec §9), written by those who manage marks (their scores are
 * marks), read by every member.
 */

/** Remarks on a competency: blank is none; at most 2,000 characters. */
const remarks = text()
  .trim()
  .max(2000)
  .nullish()
  .transform((value) => (value ? value : null));

/** The most a project's score may be: a whole number from 1 to 1,000, 10 unless stated. */
export const DEFAULT_PROJECT_MAX_SCORE = 10;
const maxScore = typedNumber(
  z
    .number({ error: M.maxScoreInvalid })
    .int(M.maxScoreInvalid)
    .min(1, M.maxScoreInvalid)
    .max(1000, M.maxScoreInvalid)
    .default(DEFAULT_PROJECT_MAX_SCORE),
);

/**
 * A competency: a class, term and subject with a title, reused every year. Its activity of
 * integration scores are marks carrying its id, so it cannot be deleted while marks carry it.
 */
export const topics = defineResource({
  name: 'topics',
  path: '/api/school/topics',
  listKey: 'topics',
  record: z.object({
    id,
    form: z.string(),
    term: z.enum(TERMS),
    title: z.string(),
    remarks: z.string().nullable(),
    subject_id: id,
    subject: named,
  }),
  input: z.strictObject({
    form,
    term,
    subject_id: requiredUuid(M.subjectRequired),
    title: requiredText(M.titleRequired).max(200),
    remarks,
  }),
  filters: z.object({ form: classFilter, term: termQuery.optional(), subject_id: optionalId }),
  searchFields: ['title'],
  sort: [
    ['form', 'asc'],
    ['term', 'asc'],
    ['title', 'asc'],
  ],
  pageSize: 25,
  subject: 'mark',
  writeAction: 'manage',
  inUse: IN_USE_MESSAGES.topics,
  exportColumns: [
    ['subject.name', 'Subject'],
    ['form', 'Class'],
    ['term', 'Term'],
    ['title', 'Title'],
    ['remarks', 'Remarks'],
  ],
  classFields: [{ field: 'form' }],
});

/** A project: a class, subject, term and year, with a title and the most a learner may score. */
export const projects = defineResource({
  name: 'projects',
  path: '/api/school/projects',
  listKey: 'projects',
  record: z.object({
    id,
    form: z.string(),
    term: z.enum(TERMS),
    year: z.number(),
    title: z.string(),
    max_score: z.number(),
    subject_id: id,
    subject: named,
  }),
  input: z.strictObject({
    form,
    subject_id: requiredUuid(M.subjectRequired),
    term,
    year,
    title: requiredText(M.titleRequired).max(200),
    max_score: maxScore,
  }),
  filters: z.object({ form: classFilter, term: termQuery.optional(), subject_id: optionalId, year: yearQuery.optional() }),
  searchFields: ['title'],
  sort: [
    ['year', 'desc'],
    ['form', 'asc'],
    ['term', 'asc'],
    ['title', 'asc'],
  ],
  pageSize: 25,
  subject: 'mark',
  writeAction: 'manage',
  inUse: IN_USE_MESSAGES.projects,
  exportColumns: [
    ['title', 'Title'],
    ['subject.name', 'Subject'],
    ['form', 'Class'],
    ['term', 'Term'],
    ['year', 'Year'],
    ['max_score', 'Maximum score'],
  ],
  classFields: [{ field: 'form' }],
});

export const CURRICULUM_RESOURCES = [topics, projects] as const;
