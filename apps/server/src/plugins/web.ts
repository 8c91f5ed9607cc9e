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
export async function registerWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  if (!existsSync(path.join(webDist, 'index.html'))) {
    app.log.warn(`No built web app at ${webDist}; serving the API only. Run \`npm run build\`.`);
    return;
  }
  await app.register(fastifyStatic, { root: webDist, serve: false });

  app.get('/*', { config: { access: 'public' } }, async (request, reply) => {
    const urlPath = decodeURIComponent(request.url.split('?')[0] ?? '/');
    if (urlPath.startsWith('/api/') || urlPath.startsWith('/auth/')) throw notFound();
    const relative = path.normalize(urlPath).replace(/^([/\\])+/, '');
    const file = path.join(webDist, relative);
    if (relative && file.startsWith(webDist + path.sep) && existsSync(file) && statSync(file).isFile()) {
      const immutable = relative.startsWith(`assets${path.sep}`);
      return reply.sendFile(relative, { immutable, maxAge: immutable ? '365d' : 0, cacheControl: true });
    }
    reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html', { cacheControl: false });
  });
}
