import { projects, topics, topicWithScoresEndpoint } from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpointRoute, withAction } from '../../plugins/endpoints.js';
import { schoolOf } from '../../plugins/school.js';
import { placeClassFields, registerResource } from '../../resources/resource-routes.js';
import { readSpreadsheet } from '../../resources/spreadsheet.js';
import { readSheetForCompetency } from '../marks/grid-sheet.js';
import { keepProjectOnNewCurriculum, keepTopicOnNewCurriculum } from './curriculum-classes.service.js';
import { projectScoreRoutes } from './project-scores.routes.js';
import { createTopicWithScores } from './topic-sheet.service.js';

const subjectName = { table: 'subjects', key: 'subject_id', column: 'name' } as const;

/**
 * The new curriculum (issue 26 points 2 and 4): competencies (topics) and projects, each a
 * resource on the list mechanism. A subject of another school is no subject here (422 naming
 * `subject_id`); a competency that marks carry is refused deletion (409 with the reason, by the
 * marks' foreign key, so no mark is ever left without its competency). Either belongs to a class
 * on the new curriculum, and a competency with scores keeps its class, term and subject
 * (curriculum-classes.service.ts).
 */
export const curriculumRoutes: FastifyPluginAsyncZod = async (app) => {
  const topicRepository = registerResource(app, topics, {
    table: 'topics',
    references: { subject: subjectName },
    beforeWrite: keepTopicOnNewCurriculum,
  });
  // A competency with a filled scores sheet: the sheet read (and checked to be of the competency's
  // class, subject and term) before the transaction holds a connection, then both saved in it.
  endpointRoute(app, topicWithScoresEndpoint, async ({ body, file }, request) => {
    const input = placeClassFields(topics.classFields, body, schoolOf(request).classes);
    const sheet = readSheetForCompetency(await readSpreadsheet(file.buffer), {
      form: String(input.form),
      term: String(input.term),
      subject_id: String(input.subject_id),
    });
    return withAction(app, request, (context) => createTopicWithScores(context, topicRepository, input, sheet));
  });
  registerResource(app, projects, { table: 'projects', references: { subject: subjectName }, beforeWrite: keepProjectOnNewCurriculum });
  await app.register(projectScoreRoutes);
};
