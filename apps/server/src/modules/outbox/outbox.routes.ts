import { mailOutboxEndpoint } from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/access.js';
import { endpointRoute } from '../../plugins/endpoints.js';
import { listOutbox } from './outbox.service.js';

/** The mail outbox for a platform administrator (contract in shared endpoints/mail-outbox.ts). */
export const outboxRoutes: FastifyPluginAsyncZod = async (app) => {
  endpointRoute(app, mailOutboxEndpoint, ({ query }, request) =>
    listOutbox(app.database.db, currentUser(request), { query, sending: app.mail.sends }),
  );
};
