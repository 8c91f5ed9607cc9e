import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import {
  type ReportModel,
  removeSchoolLogoEndpoint,
  renderReportHtml,
  reportProgressEndpoint,
  reportSampleEndpoint,
  schoolLogoEndpoint,
  TerminalReportQuerySchema,
  terminalReportEndpoint,
  uploadSchoolLogoEndpoint,
} from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { renderDocument } from '../../documents/pool.js';
import { notFound } from '../../errors.js';
import { tenantScope } from '../../plugins/access.js';
import { endpointRoute, FileAnswer, tenantEndpointRoute, withRequestTx } from '../../plugins/endpoints.js';
import { photoFile, removePhoto } from '../students/photos.js';
import { imagesForPrint } from './pdf/images.js';
import { latestMarkedLearner, loadReportInputs } from './report-data.repository.js';
import { reportImages, withInlinePhotos } from './report-images.js';
import { buildReportModel } from './report-model.js';
import { logoPath, setLogo, storeLogo } from './school-logo.js';

/** A part of a file name: letters, digits, dashes and underscores only (a class "S.5" is "S_5"). */
const namePart = (value: string) => value.replace(/[^A-Za-z0-9_-]+/g, '_');

/** `report-<class>-<stream>-<year>-<term>.pdf` (spec §9); a whole class of several streams is "all". */
export function reportFileName(report: { form: string; stream: string | null; year: number; term: string }): string {
  return `report-${namePart(report.form)}-${namePart(report.stream ?? 'all')}-${report.year}-${report.term}.pdf`;
}

/**
 * Report cards (issue 15): the model read and computed in the request's one transaction; the
 * photos, the preview and the PDF after it, so no connection waits on files or drawing. The PDF
 * is drawn in the one document pool (documents/), its progress kept in the database, once the
 * document queue admits it (a bound per school and in all) and its turn comes.
 */
export const reportRoutes: FastifyPluginAsyncZod = async (app) => {
  endpointRoute(app, terminalReportEndpoint, async ({ query }, request, reply) => {
    const scope = tenantScope(request);
    const read = () =>
      withRequestTx(app, request, async (tx) => {
        const inputs = await loadReportInputs(tx, query);
        return { model: buildReportModel(inputs), layout: inputs.layout, photoFiles: inputs.photoFiles, logoFile: inputs.logoFile };
      });
    // Photos shrunk to what a card prints (a stored photo is larger than its 2 cm frame).
    const printImages = async (model: ReportModel, photoFiles: ReadonlyMap<string, string>, logoFile: string | null | undefined) =>
      imagesForPrint(await reportImages(app.config.dataDir, scope.tenantId, model, photoFiles, logoFile));
    if (query.json) return (await read()).model;
    if (query.html) {
      const { model, layout, photoFiles, logoFile } = await read();
      return { html: renderReportHtml(withInlinePhotos(model, await printImages(model, photoFiles, logoFile)), layout) };
    }
    // A PDF is admitted before anything is read, and drawn in its turn by the one document pool
    // (documents/); its progress kept in the database, so any server answers for it.
    return app.documents.serve(scope.tenantId, reply, async (draw) => {
      const { model, layout, photoFiles, logoFile } = await read();
      const images = await printImages(model, photoFiles, logoFile);
      const progress = query.progress
        ? await app.documents.progress.start({ ...scope, token: query.progress }, model.learners.length)
        : null;
      const pdf = await draw(() => renderDocument('report-cards', { model, layout, images }, progress?.update));
      await progress?.finish();
      return new FileAnswer(reportFileName(model.report), 'application/pdf', pdf);
    });
  });

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

  endpointRoute(app, reportProgressEndpoint, async ({ query }, request) =>
    app.documents.progress.get({ ...tenantScope(request), token: query.token }),
  );

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
