import { studentResultsEndpoint } from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../errors.js';
import { tenantEndpointRoute } from '../../plugins/endpoints.js';
import { findStudent } from '../students/students.repository.js';
import { studentResults } from './results.repository.js';

/** Marks and what they add up to (the entry grid, mark sheets and reports come here next). */
export const marksRoutes: FastifyPluginAsyncZod = async (app) => {
  tenantEndpointRoute(app, studentResultsEndpoint, async (tx, { params }) => {
    const student = await findStudent(tx, params.id);
    if (!student) throw notFound();
    return studentResults(tx, student.id);
  });
};
