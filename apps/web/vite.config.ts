import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { type LocalePart, localePart } from './src/lib/locale-parts.js';

/**
 * Writes a .br and a .gz copy beside every script, stylesheet and page the build emits, once,
 * at the highest levels; the server sends the one the browser accepts. A teacher on a slow
 * connection downloads a quarter of the bytes, and the server spends no time compressing.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'mustard-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle(_options, bundle) {
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|css|html|svg|json)$/.test(fileName)) continue;
        const file = path.join(outDir, fileName);
        const content = readFileSync(file);
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

/**
 * `locales/en.json?part=core` and `?part=screens`: one locale file served as two modules (see
 * src/lib/locale-parts.ts).
 */
function localeParts(): Plugin {
  return {
    name: 'mustard-locale-parts',
    enforce: 'pre',
    load(id) {
      const [file = '', query = ''] = id.split('?');
      const part = new URLSearchParams(query).get('part');
      if (!/[\\/]locales[\\/][a-z]+\.json$/.test(file) || (part !== 'core' && part !== 'screens')) return null;
      const texts = JSON.stringify(localePart(JSON.parse(readFileSync(file, 'utf8')), part as LocalePart));
      return { code: `export default JSON.parse(${JSON.stringify(texts)});`, moduleType: 'js' };
    },
  };
}

/** In development the API runs on :3000 (npm start); Vite forwards API and sign-in calls to it. */
export default defineConfig({
  plugins: [localeParts(), react(), precompress()],
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      // The sign-in API is all POST; a page under /auth (password reset) stays with Vite.
      '/auth': { target: 'http://localhost:3000', bypass: (request) => (request.method === 'GET' ? '/index.html' : undefined) },
      '/readyz': 'http://localhost:3000',
    },
  },
  build: { outDir: 'dist', emptyOutDir: true },
});
