#!/usr/bin/env node
// `npm start`: builds the web app when it is missing or older than its sources, then starts
// the server (which migrates, seeds the demo on an empty embedded database, and listens).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'apps', 'web');
const builtIndex = path.join(web, 'dist', 'index.html');

function newestChange(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChange(full) : statSync(full).mtimeMs);
  }
  return newest;
}

const sources = [path.join(web, 'src'), path.join(web, 'index.html'), path.join(root, 'packages', 'shared', 'src')];
const sourcesChanged = () =>
  Math.max(...sources.map((source) => (statSync(source).isDirectory() ? newestChange(source) : statSync(source).mtimeMs)));

if (!existsSync(builtIndex) || statSync(builtIndex).mtimeMs < sourcesChanged()) {
  console.log('Building the web app…');
  const build = spawnSync('npm', ['run', 'build', '-w', '@mustard/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// node with tsx's loader, not the tsx command: the command answers a slow SIGTERM with
// SIGKILL, which would cut off requests still in flight during a graceful shutdown.
const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps', 'server', 'src', 'server.ts')], {
  cwd: process.cwd(),
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
