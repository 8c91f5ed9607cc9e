/**
 * The class list on a slow link (issue 10 point 14): the demo school's whole class list (560
 * learners with their contact details, as `per_page=1000` asks) as the server sends it without
 * compression (what every browser got before) and with gzip and brotli, in bytes on the wire
 * and in seconds on a 1.6 Mbps link; beside it, the time the server takes to produce each, so
 * the CPU cost of compressing shows next to its saving. Target: brotli under a fifth of the bytes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TENANT_HEADER } from '@mustard/shared';
import { buildApp } from '../apps/server/src/app.js';
import { openDatabase } from '../apps/server/src/db/connect.js';
import { DEMO_ADMIN_EMAIL, seedDemo } from '../apps/server/src/seed/demo.js';
import { login, TEST_PASSWORD, testConfig } from '../apps/server/src/test/test-app.js';

const LINK_BITS_PER_SECOND = 1.6e6;

export async function reportClassListBytes(quick: boolean): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mustard-bench-bytes-'));
  const config = testConfig({ dataDir });
  const database = await openDatabase(config, { migrate: true });
  const app = await buildApp(config, database, { logger: false });
  try {
    await seedDemo(database, TEST_PASSWORD);
    const token = await login(app, DEMO_ADMIN_EMAIL);
    const headers = { authorization: `Bearer ${token}`, [TENANT_HEADER]: 'demo-primary' };
    const ask = (encoding: string | null) =>
      app.inject({
        method: 'GET',
        url: '/api/school/students?per_page=1000',
        headers: encoding ? { ...headers, 'accept-encoding': encoding } : headers,
      });
    const runs = quick ? 5 : 20;
    console.log('\nThe class list of the demo primary school (per_page=1000) on the wire');
    let plainBytes = 0;
    let plainMs = 0;
    for (const [label, encoding] of [
      ['uncompressed (before)', null],
      ['gzip', 'gzip'],
      ['brotli', 'br, gzip'],
    ] as const) {
      const first = await ask(encoding);
      if (first.statusCode !== 200) throw new Error(`class list: ${first.statusCode} ${first.body.slice(0, 200)}`);
      const bytes = first.rawPayload.length;
      const times: number[] = [];
      for (let run = 0; run < runs; run++) {
        const started = performance.now();
        await ask(encoding);
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      const ms = times[Math.floor(times.length / 2)] ?? 0;
      if (!encoding) {
        plainBytes = bytes;
        plainMs = ms;
      }
      const seconds = (bytes * 8) / LINK_BITS_PER_SECOND;
      console.log(
        `${label.padEnd(24)} ${(bytes / 1024).toFixed(1).padStart(7)} KB  ${(bytes / plainBytes).toFixed(2)} of the bytes  ${seconds.toFixed(2)} s at 1.6 Mbps  server ${ms.toFixed(1)} ms (${(ms / plainMs).toFixed(2)}x)`,
      );
      if (encoding === 'br, gzip') {
        const ratio = bytes / plainBytes;
        console.log(`brotli / uncompressed = ${ratio.toFixed(2)}  (target <= 0.20: ${ratio <= 0.2 ? 'met' : 'NOT MET'})`);
      }
    }
  } finally {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
