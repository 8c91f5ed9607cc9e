import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import {
  classStreamsEndpoint,
  createStudentEndpoint,
  deleteStudentEndpoint,
  listStudentsEndpoint,
  promoteEndpoint,
  RESULT_MESSAGES,
  studentEndpoint,
  studentPhotoEndpoint,
  updateStudentEndpoint,
} from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../errors.js';
import { tenantScope } from '../../plugins/access.js';
import { endpointRoute, FileAnswer, spreadsheetAnswer, tenantEndpointRoute, withRequestTx } from '../../plugins/endpoints.js';
import { schoolOf } from '../../plugins/school.js';
import { photoFile, removePhoto, storePhoto } from './photos.js';
import { classList, deleteStudent, promoteLearners, saveStudent, streamsOfClasses, studentById } from './students.service.js';

/**
 * Learners (issue 5): the class list, a learner and their photo, adding and editing with a
 * photo, removal, promotion. Photos are files beside the database: each is written before the
 * transaction and removed again if it fails; a photo replaced or orphaned goes after the commit.
 */
export const studentRoutes: FastifyPluginAsyncZod = async (app) => {
  const dataDir = app.config.dataDir;

  tenantEndpointRoute(app, listStudentsEndpoint, async (tx, { query }) => {
    const list = await classList(tx, query);
    return list.answer ?? spreadsheetAnswer(list.fileName, list.workbook);
  });

  tenantEndpointRoute(app, studentEndpoint, (tx, { params }) => studentById(tx, params.id));

  tenantEndpointRoute(app, classStreamsEndpoint, (tx) => streamsOfClasses(tx));

  // Served to members of the learner's own school only; never stored by a browser (no-store, like every answer).
  tenantEndpointRoute(app, studentPhotoEndpoint, async (tx, { params }) => {
    const file = photoFile(dataDir, tx.tenantId, (await studentById(tx, params.id)).photo_path);
    if (!file) throw notFound();
    await access(file).catch(() => {
      throw notFound();
    });
    return new FileAnswer(null, 'image/jpeg', createReadStream(file));
  });

  for (const endpoint of [createStudentEndpoint, updateStudentEndpoint]) {
    endpointRoute(app, endpoint, async ({ params, body, file }, request) => {
      const scope = tenantScope(request);
      const photo = file ? await storePhoto(dataDir, scope.tenantId, file.buffer) : null;
      try {
        const { saved, replaced } = await withRequestTx(app, request, (tx) =>
          saveStudent(tx, { id: params?.id ?? null, input: body, photo, school: schoolOf(request) }),
        );
        if (replaced) await removePhoto(dataDir, scope.tenantId, replaced);
        return saved;
      } catch (error) {
        if (photo) await removePhoto(dataDir, scope.tenantId, photo);
        throw error;
      }
    });
  }

  endpointRoute(app, deleteStudentEndpoint, async ({ params }, request) => {
    const scope = tenantScope(request);
    const removed = await withRequestTx(app, request, (tx) => deleteStudent(tx, params.id));
    // A file that cannot be removed is logged, not turned into an error for a delete that happened.
    if (removed.photo_path)
      await removePhoto(dataDir, scope.tenantId, removed.photo_path).catch((error: unknown) =>
        request.log.error({ err: error }, 'a deleted learner’s photo could not be removed'),
      );
    return { message: RESULT_MESSAGES.deleted };
  });

  tenantEndpointRoute(app, promoteEndpoint, (tx, { query }, request) =>
    promoteLearners(tx, { classes: schoolOf(request).classes, commit: query.promote === '1' }),
  );
};
