import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The browser tests run the web app as users get it, from apps/web/dist. It is built here only
 * when it is missing or older than its sources (as `npm start` does), so CI, which builds it
 * once before the tests, does not build it twice.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'apps', 'web');
const builtIndex = path.join(web, 'dist', 'index.html');
const sources = [
  path.join(web, 'src'),
  path.join(web, 'index.html'),
  path.join(web, 'vite.config.ts'),
  path.join(web, 'package.json'),
  path.join(root, 'packages', 'shared', 'src'),
  path.join(root, 'package-lock.json'),
];

function newestChange(file: string): number {
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(file)) newest = Math.max(newest, newestChange(path.join(file, entry)));
  return newest;
}

export function setup() {
  const newestSource = Math.max(...sources.filter((source) => existsSync(source)).map(newestChange));
  if (existsSync(builtIndex) && statSync(builtIndex).mtimeMs >= newestSource) {
    console.log('The web app in apps/web/dist is up to date: not building it again.');
    return;
  }
  // NODE_ENV=production: Vitest sets it to "test", which would build React's development bundle.
  const build = spawnSync('npm', ['run', 'build', '-w', '@mustard/web'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (build.status !== 0) throw new Error('The web build failed');
}
