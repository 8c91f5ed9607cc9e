import type { FastifyInstance } from 'fastify';
import { FakeConnectionError, type FakeUra, SIMULATED } from './ura.js';

/** Where the fake answers, as URA's own URL ends (`.../ws/taapp/getInformation`). */
export const EFRIS_FAKE_PATH = '/efris-fake/ws/taapp/getInformation';

/*
 * The fake URA on HTTP (the demo's, and the tests that go over the wire): one POST route at
 * URA's path, outside /api (no session, no tenant: URA knows devices, not Mustard's users).
 * Registered by app.ts only when the configuration asks for it (EFRIS_FAKE), never by default
 * in production. Faults as the wire shows them: down is a 503 with no envelope, a lost reply is
 * a connection closed without an answer after the fake stored the document.
 */
export async function efrisFakeRoutes(app: FastifyInstance, fake: FakeUra): Promise<void> {
  app.route({
    method: 'POST',
    url: EFRIS_FAKE_PATH,
    config: { access: 'public' },
    bodyLimit: 2 * 1024 * 1024,
    handler: async (request, reply) => {
      try {
        const answer = await fake.exchange(request.body);
        reply.header('x-efris-simulated', SIMULATED);
        return answer;
      } catch (error) {
        if (error instanceof FakeConnectionError && error.committed) {
          // The answer is dropped on the floor: the connection closes with nothing sent.
          reply.hijack();
          request.raw.socket.destroy();
          return reply;
        }
        return reply.code(503).send({ message: 'EFRIS is unavailable (simulated)' });
      }
    },
  });
}
