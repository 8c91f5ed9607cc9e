import { z } from 'zod';
import {
  ProjectScoresGridQuerySchema,
  ProjectScoresGridSchema,
  ProjectScoresListQuerySchema,
  ProjectScoresListSchema,
  ProjectScoresSavedSchema,
  ProjectScoresSaveSchema,
  ProjectScoresUploadResultSchema,
} from '../schemas/project-scores.js';
import { defineEndpoint } from './definition.js';

/*
 * Project scores (issue 26 point 5; spec §7 "Project scores"): the list, the grid (with its
 * spreadsheet both ways) and the save. Entering them is entering marks: those who manage marks
 * anywhere, a teacher where assigned to the project's subject and class (checked by the server).
 */

const enterMarks = { action: 'create', subject: 'mark' } as const;

/** A project's scores, each learner with score and comment, narrowed to a stream if given. */
export const projectScoresEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/projectscores',
  access: 'member',
  query: ProjectScoresListQuerySchema,
  response: ProjectScoresListSchema,
});

/**
 * The grid of the project's learners (multipart or JSON): `students` with their `scores` and the
 * project; with `excel=1` the grid as a spreadsheet to fill offline; with a `file`, such a sheet
 * read back and saved, all or nothing (a 422 naming `<row>.studentid`, `<row>.Score`, `<row>.Comment`).
 */
export const projectScoresGridEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/school/projectscores/grid',
  access: enterMarks,
  body: ProjectScoresGridQuerySchema,
  file: { field: 'file', required: false },
  response: z.union([ProjectScoresGridSchema, ProjectScoresUploadResultSchema]),
  spreadsheet: true,
});

/** Saves a grid: score and comment by learner, the versions it was loaded with, and its save_id; all or nothing. */
export const saveProjectScoresEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/school/projectscores',
  access: enterMarks,
  body: ProjectScoresSaveSchema,
  response: ProjectScoresSavedSchema,
});
