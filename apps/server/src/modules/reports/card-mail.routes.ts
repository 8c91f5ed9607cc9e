import { ncTerminalReportEmailEndpoint, terminalReportEmailEndpoint } from '@mustard/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { tenantScope } from '../../plugins/access.js';
import { endpointRoute } from '../../plugins/endpoints.js';
import { mailReportCards, NC_REPORT_CARDS, TERMINAL_REPORT_CARDS } from './card-mail.js';

/**
 * The Email option of the terminal report and of the new-curriculum card (issue 29 point 5): a
 * class's cards, each to its learner's guardian. Admitted by the document queue before anything
 * is read, as the class's PDF is (503 with Retry-After when the school's or the server's queue is
 * full), so a class mailed costs what the class printed costs.
 */
export function cardMailRoutes(app: FastifyInstance): void {
  const mail = <T>(request: FastifyRequest, reply: FastifyReply, work: (context: Parameters<typeof mailReportCards>[1]) => Promise<T>) => {
    const { tenantId, userId } = tenantScope(request);
    return app.documents.serve(tenantId, reply, (draw) => work({ app, request, tenantId, userId: userId ?? '', draw }));
  };
  endpointRoute(app, terminalReportEmailEndpoint, ({ body }, request, reply) =>
    mail(request, reply, (context) => mailReportCards(TERMINAL_REPORT_CARDS, context, { ...body, json: false, html: false })),
  );
  endpointRoute(app, ncTerminalReportEmailEndpoint, ({ body }, request, reply) =>
    mail(request, reply, (context) => mailReportCards(NC_REPORT_CARDS, context, { ...body, json: false, html: false, pdf: false })),
  );
}
