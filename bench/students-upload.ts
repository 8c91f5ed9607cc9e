/**
 * Bulk upload of learners (issue 5): 2,000 learners from one .xlsx through the real route
 * (multipart, POST /api/school/students/upload), beside the same rows written with one plain
 * multi-row INSERT in the same run, each into a fresh school of a fresh embedded database.
 * Targets: the upload within 5 times the plain insert, and under 5 s on PGlite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TENANT_HEADER } from '@mustard/shared';
import ExcelJS from 'exceljs';
import { buildApp } from '../apps/server/src/app.js';
import { openDatabase } from '../apps/server/src/db/connect.js';
import { newId } from '../apps/server/src/db/ids.js';
import { withTenant } from '../apps/server/src/db/tenant.js';
import type { NewStudent } from '../apps/server/src/db/types.js';
import { UPLOAD_COLUMNS } from '../apps/server/src/modules/students/upload-columns.js';
import { makeTenant, makeUser } from '../apps/server/src/test/factories.js';
import { login, testConfig } from '../apps/server/src/test/test-app.js';

const LEARNERS = 2000;
const TARGET_RATIO = 5;
const TARGET_SECONDS = 5;

const FIRST = ['Sarah', 'Brian', 'Grace', 'Joseph', 'Mary', 'Isaac', 'Esther', 'Ronald', 'Agnes', 'Moses'];
const LAST = ['Nakato', 'Okello', 'Namubiru', 'Mugisha', 'Achieng', 'Ssebunya', 'Atim', 'Byaruhanga', 'Nansubuga', 'Odongo'];

/** The learners as the upload's columns (dates as date cells, as Excel saves them). */
function learners(): Array<Record<string, string | Date | null>> {
  return Array.from({ length: LEARNERS }, (_, i) => ({
    studentid: `BPS/${String(i + 1).padStart(4, '0')}`,
    firstname: FIRST[i % FIRST.length] as string,
    lastname: LAST[Math.floor(i / FIRST.length) % LAST.length] as string,
    othername: i % 3 === 0 ? (FIRST[(i + 3) % FIRST.length] as string) : null,
    gender: i % 2 ? 'M' : 'F',
    dob: new Date(Date.UTC(2010 + (i % 7), i % 12, 1 + (i % 28))),
    form: `P${1 + (i % 7)}`,
    stream: i % 2 ? 'East' : 'West',
    category: null,
    paymentcode: `BPS${100000 + i}`,
    address: 'Kampala',
    phone: `07${String(70000000 + i).padStart(8, '0')}`,
    email: null,
    house: 'Red',
    lin: `U${String(i).padStart(10, '0')}`,
    code: String(100000 + i),
    status: 'active',
  }));
}

async function workbookOf(rows: ReadonlyArray<Record<string, unknown>>): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Students');
  const header = UPLOAD_COLUMNS.map((column) => column.key);
  sheet.addRow(header);
  for (const row of rows) sheet.addRow(header.map((name) => row[name] ?? null));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function multipart(file: Buffer) {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(file)]), 'school.xlsx');
  const request = new Request('http://bench.test/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type') as string };
}

export interface UploadBenchResult {
  learners: number;
  uploadSeconds: number;
  insertSeconds: number;
}

/** Best of `runs`, after a warm-up (each run a fresh school for the upload and another for the insert). */
export async function measureStudentUpload(runs: number): Promise<UploadBenchResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mustard-bench-upload-'));
  const config = testConfig({ dataDir });
  const database = await openDatabase(config, { migrate: true });
  const app = await buildApp(config, database, { logger: false });
  try {
    const rows = learners();
    const body = await multipart(await workbookOf(rows));
    /** Seconds of one upload of `rows` into a fresh school, and of one plain INSERT of them into another. */
    const once = async (rows: ReadonlyArray<Record<string, unknown>>, payload: Awaited<ReturnType<typeof multipart>>) => {
      const school = await makeTenant(database, { name: 'Bench Primary School' });
      const head = await makeUser(database, { memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
      const token = await login(app, head.email);
      let started = performance.now();
      const response = await app.inject({
        method: 'POST',
        url: '/api/school/students/upload',
        headers: { authorization: `Bearer ${token}`, [TENANT_HEADER]: school.tenantcode, 'content-type': payload.contentType },
        payload: payload.payload,
      });
      const upload = (performance.now() - started) / 1000;
      const created = response.statusCode === 200 ? (response.json() as { created: number }).created : 0;
      if (created !== rows.length)
        throw new Error(`upload of ${rows.length} learners: ${response.statusCode} ${response.body.slice(0, 300)}`);

      const other = await makeTenant(database, { name: 'Bench Primary School' });
      const values = rows.map(({ category: _category, dob, ...row }) => ({
        ...row,
        dob: (dob as Date).toISOString().slice(0, 10),
        tenant_id: other.id,
        id: newId(),
      })) as NewStudent[];
      started = performance.now();
      await withTenant(database.db, { tenantId: other.id }, (trx) => trx.insertInto('students').values(values).execute());
      return { upload, insert: (performance.now() - started) / 1000 };
    };
    // Warm-up (as the throughput measurements do): a class of 100, not counted.
    const warmRows = rows.slice(0, 100);
    await once(warmRows, await multipart(await workbookOf(warmRows)));
    let uploadSeconds = Number.POSITIVE_INFINITY;
    let insertSeconds = Number.POSITIVE_INFINITY;
    for (let run = 0; run < runs; run++) {
      const seconds = await once(rows, body);
      uploadSeconds = Math.min(uploadSeconds, seconds.upload);
      insertSeconds = Math.min(insertSeconds, seconds.insert);
    }
    return { learners: LEARNERS, uploadSeconds, insertSeconds };
  } finally {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Prints the lines of `npm run bench` for the upload. */
export async function reportStudentUpload(quick: boolean): Promise<void> {
  const runs = quick ? 2 : 5;
  const result = await measureStudentUpload(runs);
  console.log(`\nUploading ${result.learners.toLocaleString('en-US')} learners from one .xlsx (embedded database, best of ${runs})`);
  const line = (title: string, seconds: number) =>
    console.log(
      `${title.padEnd(44)} ${seconds.toFixed(2).padStart(7)} s      ${(result.learners / seconds).toFixed(0).padStart(7)} learners/s`,
    );
  line('one plain multi-row INSERT (baseline)', result.insertSeconds);
  line('POST /api/school/students/upload (.xlsx)', result.uploadSeconds);
  const ratio = result.uploadSeconds / result.insertSeconds;
  console.log(
    `\nupload / insert = ${ratio.toFixed(2)}  (target <= ${TARGET_RATIO.toFixed(2)}: ${ratio <= TARGET_RATIO ? 'met' : 'NOT MET'})`,
  );
  console.log(
    `upload = ${result.uploadSeconds.toFixed(2)} s  (target < ${TARGET_SECONDS} s on PGlite: ${result.uploadSeconds < TARGET_SECONDS ? 'met' : 'NOT MET'})`,
  );
}
