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
import { actionParties, actionRoute, endpointRoute, FileAnswer, spreadsheetAnswer, withAction } from '../../plugins/endpoints.js';
import { photoFile, removePhoto, storePhoto } from './photos.js';
import { classList, deleteStudent, promoteLearners, saveStudent, streamsOfClasses, studentById } from './students.service.js';

/**
 * Learners (issue 5): the class list, a learner and their photo, adding and editing with a
 * photo, removal, promotion. Photos are files beside the database: each is written before the
 * transaction and removed again if it fails; a photo replaced or orphaned goes after the commit.
 */
export const studentRoutes: FastifyPluginAsyncZod = async (app) => {
  const dataDir = app.config.dataDir;

  actionRoute(app, listStudentsEndpoint, async (context, { query }) => {
    const list = await classList(context, query);
    return list.answer ?? spreadsheetAnswer(list.fileName, list.workbook);
  });

  actionRoute(app, studentEndpoint, (context, { params }) => studentById(context, params.id));

  actionRoute(app, classStreamsEndpoint, (context) => streamsOfClasses(context));

  // Served to members of the learner's own school only; never stored by a browser (no-store, like every answer).
  actionRoute(app, studentPhotoEndpoint, async (context, { params }) => {
    const file = photoFile(dataDir, context.school.id, (await studentById(context, params.id)).photo_path);
    if (!file) throw notFound();
    await access(file).catch(() => {
      throw notFound();
    });
    return new FileAnswer(null, 'image/jpeg', createReadStream(file));
  });

  for (const endpoint of [createStudentEndpoint, updateStudentEndpoint]) {
    endpointRoute(app, endpoint, async ({ params, body, file }, request) => {
      const { school } = actionParties(request);
      const photo = file ? await storePhoto(dataDir, school.id, file.buffer) : null;
      try {
        const { saved, replaced } = await withAction(app, request, (context) =>
          saveStudent(context, { id: params?.id ?? null, input: body, photo }),
        );
        if (replaced) await removePhoto(dataDir, school.id, replaced);
        return saved;
      } catch (error) {
        if (photo) await removePhoto(dataDir, school.id, photo);
        throw error;
      }
    });
  }

  endpointRoute(app, deleteStudentEndpoint, async ({ params }, request) => {
    const { school } = actionParties(request);
    const removed = await withAction(app, request, (context) => deleteStudent(context, params.id));
    // A file that cannot be removed is logged, not turned into an error for a delete that happened.
    if (removed.photo_path)
      await removePhoto(dataDir, school.id, removed.photo_path).catch((error: unknown) =>
        request.log.error({ err: error }, 'a deleted learner’s photo could not be removed'),
      );
    return { message: RESULT_MESSAGES.deleted };
  });

  actionRoute(app, promoteEndpoint, (context, { query }) => promoteLearners(context, { commit: query.promote === '1' }));
};
