import {
  attendanceEndpoint,
  deleteMarksEndpoint,
  MAX_GRID_CELLS,
  markHistoryEndpoint,
  marksEndpoint,
  marksGridEndpoint,
  markTargetGridEndpoint,
  markTargetsEndpoint,
  saveMarksEndpoint,
  studentResultsEndpoint,
} from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../errors.js';
import { actionRoute, endpointRoute, spreadsheetAnswer, withAction } from '../../plugins/endpoints.js';
import { readSpreadsheet } from '../../resources/spreadsheet.js';
import { findStudent } from '../students/students.repository.js';
import {
  ATTENDANCE_SHEET,
  attendanceSheet,
  attendanceSheetIdentity,
  listTargets,
  loadAttendance,
  loadTargets,
  type MarkTargetsListQuery,
  saveAttendance,
  saveAttendanceSheet,
  saveTargets,
  saveTargetsSheet,
  TARGETS_SHEET,
  targetsSheet,
  targetsSheetIdentity,
} from './class-records.service.js';
import {
  deleteMarks,
  listMarks,
  loadGrid,
  loadGridSheet,
  type MarksListQuery,
  markHistory,
  saveGridSheet,
  saveMarks,
} from './entry.service.js';
import { gridWorkbook, readGridSheet } from './grid-sheet.js';
import { learnerWorkbook, readLearnerSheet } from './learner-sheet.js';
import { studentResults } from './results.repository.js';

/** Marks and what they add up to: the entry grid and its save, the marks list, deletion and history. */
export const marksRoutes: FastifyPluginAsyncZod = async (app) => {
  actionRoute(app, studentResultsEndpoint, async ({ tx }, { params }) => {
    const student = await findStudent(tx, params.id);
    if (!student) throw notFound();
    return studentResults(tx, student.id);
  });

  /*
   * The grid, three ways (grid-sheet.ts says the sheet's layout and rules):
   * - with a `file`: the filled sheet, read (and refused if unsafe, not of this grid, or without
   *   marks) before the transaction holds a connection, then saved in it, all or nothing;
   *   answers `{ message, saved, unchanged }`, a 422 naming `<row>.studentid` or
   *   `<row>.<mark type label>` for bad rows;
   * - with `excel=1`: the grid read in the transaction, then written as an .xlsx after it;
   * - else the grid as JSON.
   */
  endpointRoute(app, marksGridEndpoint, async ({ body, file }, request) => {
    if (file) {
      const sheet = readGridSheet(await readSpreadsheet(file.buffer), { ...body, topic_id: body.topic_id ?? null });
      return withAction(app, request, (context) => saveGridSheet(context, body, sheet));
    }
    if (body.excel) {
      const { grid, about, fileName } = await withAction(app, request, (context) => loadGridSheet(context, body));
      return spreadsheetAnswer(fileName, await gridWorkbook(about, grid));
    }
    return withAction(app, request, (context) => loadGrid(context, body));
  });

  actionRoute(app, saveMarksEndpoint, (context, { body }) => saveMarks(context, body));

  // The resource's list query (filters, paging, excel), typed by its fields here.
  actionRoute(app, marksEndpoint, (context, { query }) => listMarks(context, query as MarksListQuery));

  actionRoute(app, deleteMarksEndpoint, (context, { body }) => deleteMarks(context, body));

  actionRoute(app, markHistoryEndpoint, (context, { query }) => markHistory(context, query));

  /*
   * Attendance and mark targets, one POST each (spec §4): with values, a save; with a `file`,
   * a filled sheet read (and checked to be of this class and term) before the transaction holds
   * a connection, then saved in it; with `excel=1`, the sheet written after the transaction;
   * else the class's learners with their values.
   */
  endpointRoute(app, attendanceEndpoint, async ({ body, file }, request) => {
    if (body.daysattended !== undefined) return withAction(app, request, (context) => saveAttendance(context, body));
    if (file) {
      const sheet = readLearnerSheet(
        await readSpreadsheet(file.buffer),
        ATTENDANCE_SHEET.header,
        attendanceSheetIdentity(body),
        MAX_GRID_CELLS,
      );
      return withAction(app, request, (context) => saveAttendanceSheet(context, body, sheet));
    }
    if (body.excel) {
      const { sheet, fileName } = await withAction(app, request, (context) => attendanceSheet(context, body));
      return spreadsheetAnswer(fileName, await learnerWorkbook(sheet));
    }
    return withAction(app, request, (context) => loadAttendance(context, body));
  });

  actionRoute(app, markTargetsEndpoint, (context, { query }) => listTargets(context, query as MarkTargetsListQuery));

  endpointRoute(app, markTargetGridEndpoint, async ({ body, file }, request) => {
    if (body.target !== undefined) return withAction(app, request, (context) => saveTargets(context, body));
    if (file) {
      const sheet = readLearnerSheet(await readSpreadsheet(file.buffer), TARGETS_SHEET.header, targetsSheetIdentity(body), MAX_GRID_CELLS);
      return withAction(app, request, (context) => saveTargetsSheet(context, body, sheet));
    }
    if (body.excel) {
      const { sheet, fileName } = await withAction(app, request, (context) => targetsSheet(context, body));
      return spreadsheetAnswer(fileName, await learnerWorkbook(sheet));
    }
    return withAction(app, request, (context) => loadTargets(context, body));
  });
};
