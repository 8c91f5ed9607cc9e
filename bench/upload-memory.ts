/**
 * Memory of a spreadsheet upload (issue 9 point 5): workbooks of learners sent to
 * POST /api/school/students/upload, once and six at a time: the 100,000-row file that once took
 * about 100 times its size (3 MB, far over the 5,000-row limit), one as long but narrow enough to
 * pass the unpacked limit, and a school's full 5,000 learners.
 *
 * Each measurement is a process of its own, and its figure is that process's peak resident
 * memory (maxRSS), so nothing an upload does can hide between two samples. The baseline is the
 * same process doing everything but the uploads, in the same run. The app works on PostgreSQL
 * here: the embedded database's start alone takes the process past any upload's peak, which
 * would hide it.
 *
 *   tsx bench/upload-memory.ts [--quick]                     the report
 *   tsx bench/upload-memory.ts <database url> <file> <count> one measurement, as JSON
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { TENANT_HEADER } from '@mustard/shared';
import ExcelJS from 'exceljs';
import { buildApp } from '../apps/server/src/app.js';
import { openDatabase } from '../apps/server/src/db/connect.js';
import { UPLOAD_COLUMNS } from '../apps/server/src/modules/students/upload-columns.js';
import { makeTenant, makeUser } from '../apps/server/src/test/factories.js';
import { login, testConfig } from '../apps/server/src/test/test-app.js';
import { benchDatabase, POSTGRES, postgresReachable } from './postgres.js';

/** The workbooks measured. */
const WORKBOOKS = [
  { name: '100,000 learners, 17 columns', rows: 100_000, wide: true },
  { name: '100,000 learners, 3 columns', rows: 100_000, wide: false },
  { name: '5,000 learners (the limit), 17 columns', rows: 5_000, wide: true },
] as const;

/** A workbook of `rows` learners, written by exceljs's streaming writer (as a school's export would be). */
export async function learnersWorkbook(rows: number, wide: boolean): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: true });
  const sheet = workbook.addWorksheet('Students');
  const columns = wide ? UPLOAD_COLUMNS.map((column) => column.key) : ['firstname', 'lastname', 'form'];
  sheet.addRow(columns).commit();
  for (let i = 0; i < rows; i++) {
    const learner: Record<string, string> = {
      studentid: `BIG/${String(i + 1).padStart(6, '0')}`,
      firstname: ['Sarah', 'Brian', 'Grace', 'Joseph'][i % 4] as string,
      lastname: ['Nakato', 'Okello', 'Namubiru', 'Mugisha'][i % 4] as string,
      gender: i % 2 ? 'M' : 'F',
      form: 'P4',
      stream: 'East',
      status: 'active',
    };
    sheet.addRow(columns.map((column) => learner[column] ?? null)).commit();
  }
  sheet.commit();
  await workbook.commit();
  return Buffer.concat(chunks);
}

async function multipart(file: Buffer) {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(file)]), 'school.xlsx');
  const request = new Request('http://bench.test/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type') as string };
}

interface Measurement {
  peakMb: number;
  statuses: number[];
  seconds: number;
  fileMb: number;
}

/** One measurement, in this process: the app, a new school, the workbook in memory, then `uploads` uploads at once. */
async function measureOnce(databaseUrl: string, workbook: string, uploads: number): Promise<void> {
  const config = testConfig({ databaseUrl });
  const database = await openDatabase(config, { migrate: false });
  const app = await buildApp(config, database, { logger: false });
  try {
    const school = await makeTenant(database, { name: 'Bench Primary School' });
    const head = await makeUser(database, { memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
    const token = await login(app, head.email);
    const file = readFileSync(workbook);
    const body = await multipart(file);
    const statuses: number[] = [];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: uploads }, async () => {
        const response = await app.inject({
          method: 'POST',
          url: '/api/school/students/upload',
          headers: { authorization: `Bearer ${token}`, [TENANT_HEADER]: school.tenantcode, 'content-type': body.contentType },
          payload: body.payload,
        });
        statuses.push(response.statusCode);
      }),
    );
    const result: Measurement = {
      peakMb: process.resourceUsage().maxRSS / 1024,
      statuses,
      seconds: (performance.now() - started) / 1000,
      fileMb: file.length / 1024 / 1024,
    };
    console.log(JSON.stringify(result));
  } finally {
    await app.close();
    await database.close();
  }
}

function spawnMeasurement(databaseUrl: string, workbook: string, uploads: number): Promise<Measurement> {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  return new Promise((resolve, reject) => {
    const child = spawn(
      path.join(root, 'node_modules', '.bin', 'tsx'),
      [fileURLToPath(import.meta.url), databaseUrl, workbook, String(uploads)],
      { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line.startsWith('{')) reject(new Error(`memory measurement exited with ${code}: ${out}`));
      else resolve(JSON.parse(line));
    });
  });
}

/** Prints the lines of `npm run bench` for the upload's memory; `quick` measures one upload at a time only. */
export async function reportUploadMemory(quick = false): Promise<void> {
  console.log('\nPeak memory of uploading learners from .xlsx (resident, the server process on PostgreSQL)');
  if (!(await postgresReachable())) {
    console.log(`skipped: no PostgreSQL at ${POSTGRES.host} (TEST_DATABASE_URL)`);
    return;
  }
  const name = `mustard_bench_${process.pid}`;
  const dir = mkdtempSync(path.join(tmpdir(), 'mustard-bench-workbook-'));
  const { appUrl, drop } = await benchDatabase(name);
  try {
    const empty = path.join(dir, 'none.xlsx');
    writeFileSync(empty, '');
    const baseline = await spawnMeasurement(appUrl, empty, 0);
    console.log(`${'the same process without the upload (baseline)'.padEnd(58)} ${baseline.peakMb.toFixed(0).padStart(5)} MB`);
    for (const [index, { name: title, rows, wide }] of WORKBOOKS.entries()) {
      const workbook = path.join(dir, `learners-${index}.xlsx`);
      writeFileSync(workbook, await learnersWorkbook(rows, wide));
      for (const uploads of quick ? [1] : [1, 6]) {
        const result = await spawnMeasurement(appUrl, workbook, uploads);
        const extra = result.peakMb - baseline.peakMb;
        const answers = [...new Set(result.statuses)].sort().join('/');
        console.log(
          `${`${title} (${result.fileMb.toFixed(1)} MB) x${uploads}: ${answers}`.padEnd(58)} ${result.peakMb.toFixed(0).padStart(5)} MB` +
            `  +${extra.toFixed(0)} MB = ${(extra / result.fileMb / uploads).toFixed(0)}x the file an upload, ${result.seconds.toFixed(2)} s`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await drop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [databaseUrl, workbook, uploads] = process.argv.slice(2).filter((arg) => arg !== '--quick');
  if (databaseUrl === undefined || workbook === undefined) await reportUploadMemory(process.argv.includes('--quick'));
  else await measureOnce(databaseUrl, workbook, Number(uploads));
}
