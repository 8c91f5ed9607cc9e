import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors.js';

/**
 * Serves the built web application: files from its dist folder, and index.html for every
 * other page path so the browser's router can take over. Hashed assets are cached for good;
 * index.html never, so a new release reaches every teacher on their next load.
 */
/** Pages of the web app whose paths sit under /auth, beside the sign-in API (all POST). */
const WEB_PAGES_UNDER_AUTH = new Set(['/auth/password/reset']);

export async function registerWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  if (!existsSync(path.join(webDist, 'index.html'))) {
    app.log.warn(`No built web app at ${webDist}; serving the API only. Run \`npm run build\`.`);
    return;
  }
  // The build writes .br and .gz beside each asset; a teacher's browser gets the smallest it accepts.
  await app.register(fastifyStatic, { root: webDist, serve: false, preCompressed: true });

  app.get('/*', { config: { access: 'public' } }, async (request, reply) => {
    const urlPath = decodeURIComponent(request.url.split('?')[0] ?? '/');
    if (urlPath.startsWith('/api/') || (urlPath.startsWith('/auth/') && !WEB_PAGES_UNDER_AUTH.has(urlPath))) throw notFound();
    const relative = path.normalize(urlPath).replace(/^([/\\])+/, '');
    const file = path.join(webDist, relative);
    if (relative && file.startsWith(webDist + path.sep) && existsSync(file) && statSync(file).isFile()) {
      const immutable = relative.startsWith(`assets${path.sep}`);
      // The app's files say how long they keep, instead of the no-store every other answer carries.
      reply.removeHeader('cache-control');
      return reply.sendFile(relative, { immutable, maxAge: immutable ? '365d' : 0, cacheControl: true });
    }
    reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html', { cacheControl: false });
  });
}
