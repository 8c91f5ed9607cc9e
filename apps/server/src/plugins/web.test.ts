import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/test-app.js';

let t: TestApp;
/** The build folder, apps/web/dist in the product; a file sits beside it that must never be served. */
let outside: string;
let webDist: string;
const INDEX = '<!doctype html><title>Mustard</title><div id="root"></div>';
const SCRIPT = `console.log(${JSON.stringify('Mustard '.repeat(200))});`;
const SECRET = 'a file beside the build folder';

beforeAll(async () => {
  outside = mkdtempSync(path.join(tmpdir(), 'mustard-web-'));
  writeFileSync(path.join(outside, 'secret.txt'), SECRET);
  webDist = path.join(outside, 'dist');
  mkdirSync(path.join(webDist, 'assets'), { recursive: true });
  writeFileSync(path.join(webDist, 'index.html'), INDEX);
  const script = path.join(webDist, 'assets', 'app-abc123.js');
  writeFileSync(script, SCRIPT);
  writeFileSync(`${script}.gz`, gzipSync(SCRIPT));
  writeFileSync(`${script}.br`, brotliCompressSync(SCRIPT));
  // Serving the web app's files needs no database: none is opened, and using one would fail.
  t = await buildTestApp({ webDist }, { noDatabase: true });
});
afterAll(async () => {
  await t.close();
  rmSync(outside, { recursive: true, force: true });
});

describe('the web app', () => {
  it.each(['/login', '/students/list', '/auth/password/reset', '/register/business/products'])(
    'answers %s with index.html, never cached',
    async (url) => {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toBe(INDEX);
    },
  );

  it.each(['/api/no-such-thing', '/auth/no-such-thing', '/auth/login'])('answers GET %s with the JSON 404, not the page', async (url) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ message: 'Sorry! the data you are looking for could not be found' });
  });

  it('sends the brotli copy of an asset to a browser that accepts it, cached for a year', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['cache-control']).toMatch(/max-age=31536000.*immutable/);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends the gzip copy to a browser that accepts only gzip, and the plain file to one that accepts neither', async () => {
    const gzipped = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(SCRIPT);
    const plain = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it.each([
    '/..%2Fsecret.txt',
    '/assets/..%2F..%2Fsecret.txt',
    '/%2E%2E/secret.txt',
    '/assets/%2E%2E%2F%2E%2E%2Fsecret.txt',
    '/assets/..%2F..%2F..%2F..%2F..%2F..%2F..%2Fetc%2Fpasswd',
  ])('answers %s with the web app’s page, never a file outside the build folder', async (url) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.body).toBe(INDEX);
  });
});
