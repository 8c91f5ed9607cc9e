import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import {
  removeSchoolLogoEndpoint,
  reportProgressEndpoint,
  reportSampleEndpoint,
  schoolLogoEndpoint,
  TerminalReportQuerySchema,
  uploadSchoolLogoEndpoint,
} from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../errors.js';
import { tenantScope } from '../../plugins/access.js';
import { endpointRoute, FileAnswer, tenantEndpointRoute, withRequestTx } from '../../plugins/endpoints.js';
import { photoFile, removePhoto } from '../students/photos.js';
import { cardMailRoutes } from './card-mail.routes.js';
import { REPORT_KINDS } from './kinds.js';
import { imagesForPrint } from './pdf/images.js';
import { latestMarkedLearner, loadReportInputs } from './report-data.repository.js';
import { reportImages, withInlinePhotos } from './report-images.js';
import { buildReportModel } from './report-model.js';
import { logoPath, setLogo, storeLogo } from './school-logo.js';

/** The report cards' file name (the terminal report kind's). */
export { reportFileName } from './terminal-report.kind.js';

/**
 * Every report kind of the registry (kinds.ts: the terminal report, the mark sheet), each served
 * by the pipeline's route helper: read in the action's one transaction, built and rendered after
 * it; a PDF through the document queue and the one document pool. Beside them, the layout
 * screen's sample card, the progress of a PDF, and the school's badge.
 */
export const reportRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const kind of REPORT_KINDS) kind.serve(app);
  cardMailRoutes(app);

  // The layout screen's sample: photos shown whatever the saved layout says, the screen's layout decides.
  endpointRoute(app, reportSampleEndpoint, async ({ query }, request) => {
    const sample = await withRequestTx(app, request, async (tx) => {
      const where = await latestMarkedLearner(tx);
      if (!where) return null;
      const inputs = await loadReportInputs(tx, TerminalReportQuerySchema.parse(where));
      const rawmark = query.markValues ? query.markValues === 'raw' : inputs.report.rawmark;
      return {
        model: buildReportModel({ ...inputs, report: { ...inputs.report, rawmark }, layout: { ...inputs.layout, showPhoto: true } }),
        photoFiles: inputs.photoFiles,
        logoFile: inputs.logoFile,
      };
    });
    if (!sample) return { model: null };
    const images = await imagesForPrint(
      await reportImages(app.config.dataDir, tenantScope(request).tenantId, sample.model, sample.photoFiles, sample.logoFile),
    );
    return { model: withInlinePhotos(sample.model, images) };
  });

  // A token of no document of this user in this school (forged, another's, not started yet, long
  // done) is 404: the web keeps showing 0 of its total until the first learner is drawn.
  endpointRoute(app, reportProgressEndpoint, async ({ query }, request) => {
    const progress = await app.documents.progress.get({ ...tenantScope(request), token: query.token });
    if (!progress) throw notFound();
    return progress;
  });

  // The school's badge: to its own members only (another school's request reads its own row).
  tenantEndpointRoute(app, schoolLogoEndpoint, async (tx) => {
    const file = photoFile(app.config.dataDir, tx.tenantId, await logoPath(tx));
    if (!file) throw notFound();
    await access(file).catch(() => {
      throw notFound();
    });
    return new FileAnswer(null, 'image/jpeg', createReadStream(file));
  });

  endpointRoute(app, uploadSchoolLogoEndpoint, async ({ file }, request) => {
    const { tenantId } = tenantScope(request);
    const stored = await storeLogo(app.config.dataDir, tenantId, file.buffer);
    try {
      const replaced = await withRequestTx(app, request, (tx) => setLogo(tx, stored));
      if (replaced) await removePhoto(app.config.dataDir, tenantId, replaced);
      return { logo: true };
    } catch (error) {
      await removePhoto(app.config.dataDir, tenantId, stored);
      throw error;
    }
  });

  endpointRoute(app, removeSchoolLogoEndpoint, async (_input, request) => {
    const { tenantId } = tenantScope(request);
    const replaced = await withRequestTx(app, request, (tx) => setLogo(tx, null));
    if (replaced)
      await removePhoto(app.config.dataDir, tenantId, replaced).catch((error: unknown) =>
        request.log.error({ err: error }, 'a removed school badge could not be deleted'),
      );
    return { logo: false };
  });
};
