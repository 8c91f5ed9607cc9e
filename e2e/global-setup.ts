import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Builds the web app once for the browser tests: they run it as users get it, from dist. */
export function setup() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  // NODE_ENV=production: Vitest sets it to "test", which would build React's development bundle.
  const build = spawnSync('npm', ['run', 'build', '-w', '@mustard/web'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (build.status !== 0) throw new Error('The web build failed');
}
