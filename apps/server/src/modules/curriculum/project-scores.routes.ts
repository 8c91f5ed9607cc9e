import { projectScoresEndpoint, projectScoresGridEndpoint, saveProjectScoresEndpoint } from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actionRoute, endpointRoute, spreadsheetAnswer, withAction } from '../../plugins/endpoints.js';
import { readSpreadsheet } from '../../resources/spreadsheet.js';
import { listScores, loadScoresGrid, saveScores, saveScoresSheet, scoresFileName } from './project-scores.service.js';
import { readScoresSheet, scoresWorkbook } from './project-scores.sheet.js';

/**
 * Project scores (issue 26 point 5): the list, the grid three ways (a filled sheet read before
 * the transaction holds a connection, then saved in it; `excel=1`, the grid read in the
 * transaction and written as an .xlsx after it; else JSON), and the save.
 */
export const projectScoreRoutes: FastifyPluginAsyncZod = async (app) => {
  actionRoute(app, projectScoresEndpoint, (context, { query }) => listScores(context, query));

  endpointRoute(app, projectScoresGridEndpoint, async ({ body, file }, request) => {
    if (file) {
      const sheet = readScoresSheet(await readSpreadsheet(file.buffer), body);
      return withAction(app, request, (context) => saveScoresSheet(context, body, sheet));
    }
    if (body.excel) {
      const grid = await withAction(app, request, (context) => loadScoresGrid(context, body));
      return spreadsheetAnswer(scoresFileName(grid, body.stream), await scoresWorkbook(grid, body.stream));
    }
    return withAction(app, request, (context) => loadScoresGrid(context, body));
  });

  actionRoute(app, saveProjectScoresEndpoint, (context, { body }) => saveScores(context, body));
};
