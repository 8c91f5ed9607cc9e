import { projects, topics } from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerResource } from '../../resources/resource-routes.js';
import { projectScoreRoutes } from './project-scores.routes.js';

const subjectName = { table: 'subjects', key: 'subject_id', column: 'name' } as const;

/**
 * The new curriculum (issue 26 points 2 and 4): competencies (topics) and projects, each a
 * resource on the list mechanism. A subject of another school is no subject here (422 naming
 * `subject_id`); a competency that marks carry is refused deletion (409 with the reason, by the
 * marks' foreign key, so no mark is ever left without its competency).
 */
export const curriculumRoutes: FastifyPluginAsyncZod = async (app) => {
  registerResource(app, topics, { table: 'topics', references: { subject: subjectName } });
  registerResource(app, projects, { table: 'projects', references: { subject: subjectName } });
  await app.register(projectScoreRoutes);
};
