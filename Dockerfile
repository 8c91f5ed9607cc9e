# One image for every process of an installation (docs/DEPLOY.md): the app server (the default
# command) and the job worker (`node --import tsx apps/server/src/cli.ts worker`), the one-shot
# migration the same way with `migrate`. A starting point: it runs the TypeScript sources with
# tsx's loader, as `npm start` does, so the image keeps the dev dependencies tsx comes with.
FROM node:20-bookworm-slim

WORKDIR /app
ENV NODE_ENV=production

# The lockfile's exact packages first, so a change of source alone reuses this layer. NODE_ENV is
# development for the install alone: tsx, vite and TypeScript are dev dependencies (npm ci leaves
# them out under production), and the web app is built with them below, as production.
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/shared/package.json packages/shared/
RUN NODE_ENV=development npm ci --no-audit --no-fund

COPY . .
RUN npm run build

# The files every process shares (learners' photos, school badges) live on a volume mounted here,
# the same one on every app server and worker.
ENV DATA_DIR=/data
RUN mkdir -p /data && chown node:node /data
USER node

EXPOSE 3000
# node with tsx's loader, not `npm start` or the tsx command: SIGTERM reaches the server itself,
# which finishes the requests in flight (10 s at most) before it exits.
CMD ["node", "--import", "tsx", "apps/server/src/server.ts"]
