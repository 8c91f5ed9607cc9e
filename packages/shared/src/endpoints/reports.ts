import { z } from 'zod';
import { MARK_VALUES } from '../reports/layout.js';
import { ReportModelSchema, TerminalReportQuerySchema } from '../reports/model.js';
import { defineEndpoint } from './definition.js';

/** A report's preview: the HTML the web shows in its frame (spec §7: "html=1 gives JSON/HTML"). */
export const ReportPreviewSchema = z.object({ html: z.string() });

/**
 * A class's (or one learner's) report cards (issue 15 point 3): `json=1` the report model with
 * an explanation for every number, `html=1` the preview, otherwise the PDF
 * `report-<class>-<stream>-<year>-<term>.pdf`.
 */
export const terminalReportEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/terminalreport',
  access: 'member',
  query: TerminalReportQuerySchema,
  response: z.union([ReportModelSchema, ReportPreviewSchema]),
  download: true,
});

/** How far the PDF of the request with this progress token is: learners drawn of all (404 before it starts, and for a token of no document of the asker's). */
export const ReportProgressSchema = z.object({ done: z.number(), total: z.number() });

export const reportProgressEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/terminalreport/progress',
  access: 'member',
  query: z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/) }),
  response: ReportProgressSchema,
});

/**
 * A real learner's card for the Report layout screen's live preview: the first learner of the
 * class with the school's latest marks, photos inlined, drawn by the web with the layout being
 * edited; `model` is null while the school has no marks (a new school: nothing is wrong).
 */
export const reportSampleEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/terminalreport/sample',
  access: 'member',
  /** The marks under the mark types as the layout being edited chooses them (the saved layout's when absent). */
  query: z.object({ markValues: z.enum(MARK_VALUES).optional() }),
  response: z.object({ model: ReportModelSchema.nullable() }),
});

/** Whether the school has a badge (the cards print it at the top left). */
export const SchoolLogoStateSchema = z.object({ logo: z.boolean() });

const manageSettings = { action: 'manage', subject: 'setting' } as const;

/**
 * The school's badge (issue 24 point 3), stored with the learners' photos: to members of the
 * school only, never kept by a browser; 404 while the school has none.
 */
export const schoolLogoEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/logo',
  access: 'member',
  response: 'file',
});

/** Uploads the badge (a JPEG, PNG or WebP picture), replacing the one before. */
export const uploadSchoolLogoEndpoint = defineEndpoint({
  method: 'PUT',
  path: '/api/school/logo',
  access: manageSettings,
  body: z.object({}),
  file: { field: 'logo', required: true },
  response: SchoolLogoStateSchema,
});

/** Removes the badge: the cards print without one. */
export const removeSchoolLogoEndpoint = defineEndpoint({
  method: 'DELETE',
  path: '/api/school/logo',
  access: manageSettings,
  response: SchoolLogoStateSchema,
});
