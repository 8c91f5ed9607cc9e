import { registerEndpoint, resendRegistrationEndpoint, verifyRegistrationEndpoint } from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpointRoute } from '../../plugins/endpoints.js';
import { authDeps, guessLimit, sendSignedIn } from '../auth/routing.js';
import {
  REGISTRATIONS_PER_ADDRESS,
  REGISTRATIONS_PER_IP,
  type RegistrationDeps,
  register,
  resendVerification,
  verifyRegistration,
} from './registration.service.js';

const HOUR_MS = 60 * 60 * 1000;

/** Signing up (contracts in shared endpoints/registration.ts); the mail goes as soon as the action commits. */
export const registrationRoutes: FastifyPluginAsyncZod = async (app) => {
  const auth = authDeps(app);
  const deps: RegistrationDeps = {
    db: app.database.db,
    publicUrl: app.config.publicUrl,
    limits: {
      perAddress: app.limits.counter('registration-address', REGISTRATIONS_PER_ADDRESS, HOUR_MS),
      perIp: app.limits.counter('registration-ip', REGISTRATIONS_PER_IP, HOUR_MS),
    },
  };
  const limit = guessLimit(app);
  const sent = <T>(answer: T) => {
    app.mail.wake();
    return answer;
  };

  endpointRoute(
    app,
    registerEndpoint,
    async ({ body, file }, request) => sent(await register(deps, { ...body, logo: file?.buffer ?? null, ip: request.ip })),
    limit,
  );

  endpointRoute(
    app,
    resendRegistrationEndpoint,
    async ({ body }, request) => sent(await resendVerification(deps, { ...body, ip: request.ip })),
    limit,
  );

  endpointRoute(
    app,
    verifyRegistrationEndpoint,
    async ({ body }, request, reply) =>
      sendSignedIn(reply, await verifyRegistration({ ...auth, dataDir: app.config.dataDir }, { token: body.token, ip: request.ip })),
    limit,
  );
};
