import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ERROR_MESSAGES, STUDENT_MESSAGES, type Student, TENANT_HEADER } from '@mustard/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';

/*
 * Learners' photos (issue 5, security.md item 21): checked by their bytes, re-encoded as a
 * JPEG of at most 600 px with every bit of metadata (EXIF, GPS) dropped, stored under a random
 * name in the school's own folder, served to members of that school only, replaced files
 * removed, and uploads over 5 MB refused.
 */

const PATH = '/api/school/students';
const STORED_NAME = /^[0-9a-f]{32}\.jpg$/;

interface Upload {
  bytes: Buffer;
  type: string;
  name: string;
}

interface Member {
  token: string;
  tenantcode: string;
  c: Caller;
}

let t: TestApp;
let dataDir: string;
let school: { id: string; tenantcode: string };
let neighbour: { id: string; tenantcode: string };
let head: Member;
let teacher: Member;
/** A head teacher of the neighbouring school only. */
let outsider: Member;

let serial = 0;
const learner = (fields: Record<string, string> = {}) => ({
  studentid: `PH/${String(++serial).padStart(4, '0')}`,
  firstname: 'Amina',
  lastname: 'Nakato',
  gender: 'F',
  form: 'P4',
  stream: 'East',
  ...fields,
});

async function member(tenant: { id: string; tenantcode: string }, role: string): Promise<Member> {
  const user = await makeUser(t.database, { memberOf: [{ tenantId: tenant.id, roles: [role] }] });
  const token = await login(t.app, user.email);
  return { token, tenantcode: tenant.tenantcode, c: caller(t.app, token, tenant.tenantcode) };
}

/** The add or edit form as the browser sends it: multipart text fields and the photo file. */
async function sendForm(who: Member, method: 'POST' | 'PUT', url: string, fields: Record<string, string>, photo?: Upload) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  if (photo) form.set('photo', new Blob([new Uint8Array(photo.bytes)], { type: photo.type }), photo.name);
  const request = new Request('http://x', { method: 'POST', body: form });
  const payload = Buffer.from(await request.arrayBuffer());
  return t.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${who.token}`,
      [TENANT_HEADER]: who.tenantcode,
      'content-type': request.headers.get('content-type') as string,
    },
    payload,
  });
}

function saved(response: { statusCode: number; body: string; json(): unknown }): Student {
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Student;
}

/** Every stored photo file, as `<tenantId>/<name>`, under `<dataDir>/photos`. */
function storedFiles(): string[] {
  const root = path.join(dataDir, 'photos');
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .flatMap((tenant) => readdirSync(path.join(root, tenant)).map((name) => `${tenant}/${name}`))
    .sort();
}

async function photoOf(who: Member, id: string) {
  return t.app.inject({
    method: 'GET',
    url: `${PATH}/${id}/photo`,
    headers: { authorization: `Bearer ${who.token}`, [TENANT_HEADER]: who.tenantcode },
  });
}

async function learnersNamed(studentid: string): Promise<number> {
  const response = await head.c.get(`${PATH}?studentid=${encodeURIComponent(studentid)}&status=active`);
  expect(response.statusCode).toBe(200);
  return response.json().totalRecords;
}

const jpeg = (width: number, height: number, background = '#c90') =>
  sharp({ create: { width, height, channels: 3, background } })
    .jpeg()
    .toBuffer();

/** A phone camera's JPEG: EXIF with the maker, a copyright and where it was taken (GPS IFD). */
function cameraJpeg(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#c90' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PhoneCo', Model: 'Pocket 12', Copyright: 'Secret Photographer' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '0/1 20/1 1234/100', GPSLongitudeRef: 'E', GPSLongitude: '32/1 35/1 100/100' },
    })
    .toBuffer();
}

/** The tags of the GPS IFD of an EXIF block (as sharp's metadata() gives it), or [] without one. */
function gpsTags(exif: Buffer): number[] {
  const tiff = exif.subarray(exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? 6 : 0);
  const little = tiff.subarray(0, 2).toString('latin1') === 'II';
  const u16 = (offset: number) => (little ? tiff.readUInt16LE(offset) : tiff.readUInt16BE(offset));
  const u32 = (offset: number) => (little ? tiff.readUInt32LE(offset) : tiff.readUInt32BE(offset));
  const ifd0 = u32(4);
  for (let index = 0; index < u16(ifd0); index++) {
    const entry = ifd0 + 2 + index * 12;
    if (u16(entry) !== 0x8825) continue;
    const gps = u32(entry + 8);
    return Array.from({ length: u16(gps) }, (_, tag) => u16(gps + 2 + tag * 12));
  }
  return [];
}

/** The markers of a JPEG's segments before its image data (APP1 = 0xe1 holds EXIF and XMP). */
function jpegMarkers(bytes: Buffer): number[] {
  expect(bytes.readUInt16BE(0)).toBe(0xffd8);
  const markers: number[] = [];
  let offset = 2;
  while (offset + 4 <= bytes.length && bytes[offset] === 0xff) {
    const marker = bytes[offset + 1] as number;
    markers.push(marker);
    if (marker === 0xda) break; // start of scan: image data follows
    offset += 2 + bytes.readUInt16BE(offset + 2);
  }
  return markers;
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'mustard-photos-'));
  t = await buildTestApp({ dataDir });
  school = await makeTenant(t.database, { name: 'Kabojja Junior School' });
  neighbour = await makeTenant(t.database, { name: 'Hillside Primary' });
  head = await member(school, 'headteacher');
  teacher = await member(school, 'teacher');
  outsider = await member(neighbour, 'headteacher');
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a learner’s photo', () => {
  it('keeps a camera JPEG with EXIF and GPS, and serves it re-encoded, at most 600 px, with no metadata', async () => {
    const upload = await cameraJpeg(1600, 1200);
    const uploaded = await sharp(upload).metadata();
    expect(uploaded.exif).toBeDefined();
    expect(gpsTags(uploaded.exif as Buffer)).toEqual(expect.arrayContaining([1, 2, 3, 4]));
    expect(upload.includes('Secret Photographer')).toBe(true);

    const student = saved(await sendForm(head, 'POST', PATH, learner(), { bytes: upload, type: 'image/jpeg', name: 'amina-at-home.jpg' }));
    expect(student.photo_path).toMatch(STORED_NAME);
    expect(student.photo_path).not.toContain('amina');
    expect(storedFiles()).toContain(`${school.id}/${student.photo_path}`);
    expect((await head.c.get(`${PATH}/${student.id}`)).json().photo_path).toBe(student.photo_path);

    const response = await photoOf(head, student.id);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.headers['cache-control']).toBe('no-store');
    const served = response.rawPayload;
    expect(served.equals(readFileSync(path.join(dataDir, 'photos', school.id, student.photo_path as string)))).toBe(true);
    const metadata = await sharp(served).metadata();
    expect(metadata).toMatchObject({ format: 'jpeg', width: 600, height: 450 });
    expect(metadata.exif).toBeUndefined();
    expect(metadata.xmp).toBeUndefined();
    expect(metadata.iptc).toBeUndefined();
    expect(metadata.orientation).toBeUndefined();
    expect(jpegMarkers(served)).not.toContain(0xe1);
    for (const text of ['Exif\0\0', 'Secret Photographer', 'PhoneCo', 'Pocket 12']) expect(served.includes(text), text).toBe(false);

    // Every member of the school may see it.
    expect((await photoOf(teacher, student.id)).rawPayload.equals(served)).toBe(true);
  });

  it('takes PNG and WebP by their bytes, stores JPEG, fits a portrait in 600 px and never enlarges', async () => {
    const png = await sharp({ create: { width: 300, height: 200, channels: 4, background: '#36c' } })
      .png()
      .toBuffer();
    const small = saved(await sendForm(head, 'POST', PATH, learner(), { bytes: png, type: 'image/png', name: 'small.png' }));
    expect(await sharp((await photoOf(head, small.id)).rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 300, height: 200 });

    const webp = await sharp({ create: { width: 500, height: 1000, channels: 3, background: '#393' } })
      .webp()
      .toBuffer();
    // A WebP named like a JPEG: its bytes decide.
    const tall = saved(await sendForm(head, 'POST', PATH, learner(), { bytes: webp, type: 'image/jpeg', name: 'tall.jpg' }));
    expect(tall.photo_path).toMatch(STORED_NAME);
    expect(await sharp((await photoOf(head, tall.id)).rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 300, height: 600 });
  });

  it('takes a photo over 1 MB and under 5 MB', async () => {
    const noise = randomBytes(1100 * 900 * 3);
    const bytes = await sharp(noise, { raw: { width: 1100, height: 900, channels: 3 } })
      .jpeg({ quality: 100 })
      .toBuffer();
    expect(bytes.length).toBeGreaterThan(1024 * 1024);
    expect(bytes.length).toBeLessThan(5 * 1024 * 1024);
    const student = saved(await sendForm(head, 'POST', PATH, learner(), { bytes, type: 'image/jpeg', name: 'big.jpg' }));
    expect(await sharp((await photoOf(head, student.id)).rawPayload).metadata()).toMatchObject({ width: 600, height: 491 });
  });

  const refusals: Array<[string, () => Promise<Upload>, string]> = [
    [
      'a PNG that is really HTML',
      async () => ({
        bytes: Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>'),
        type: 'image/png',
        name: 'x.png',
      }),
      STUDENT_MESSAGES.photoNotImage,
    ],
    [
      'an SVG',
      async () => ({
        bytes: Buffer.from(
          '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>',
        ),
        type: 'image/svg+xml',
        name: 'me.svg',
      }),
      STUDENT_MESSAGES.photoNotImage,
    ],
    [
      'an SVG named like a JPEG',
      async () => ({
        bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>'),
        type: 'image/jpeg',
        name: 'me.jpg',
      }),
      STUDENT_MESSAGES.photoNotImage,
    ],
    [
      'a GIF',
      async () => ({
        bytes: await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
          .gif()
          .toBuffer(),
        type: 'image/gif',
        name: 'a.gif',
      }),
      STUDENT_MESSAGES.photoNotImage,
    ],
    [
      'a broken JPEG (the right first bytes, then rubbish)',
      async () => ({
        bytes: Buffer.concat([(await jpeg(50, 50)).subarray(0, 200), Buffer.alloc(2000, 7)]),
        type: 'image/jpeg',
        name: 'broken.jpg',
      }),
      STUDENT_MESSAGES.photoNotImage,
    ],
    [
      'a picture of more than 40 megapixels (a decompression bomb)',
      async () => ({
        bytes: await sharp({ create: { width: 7000, height: 6000, channels: 3, background: '#fff' } })
          .png({ compressionLevel: 9 })
          .toBuffer(),
        type: 'image/png',
        name: 'bomb.png',
      }),
      STUDENT_MESSAGES.photoTooLarge,
    ],
  ];

  it.each(refusals)('refuses %s (422 errors.photo), and saves neither the learner nor a file', async (_name, make, message) => {
    const upload = await make();
    const before = storedFiles();
    const fields = learner();
    const response = await sendForm(head, 'POST', PATH, fields, upload);
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toEqual({ statusCode: 422, message: ERROR_MESSAGES[422], errors: { photo: [message] } });
    expect(await learnersNamed(fields.studentid)).toBe(0);
    expect(storedFiles()).toEqual(before);
  });

  it('refuses an upload over 5 MB with 413, saving nothing', async () => {
    const before = storedFiles();
    const fields = learner();
    const bytes = Buffer.concat([await jpeg(20, 20), Buffer.alloc(5 * 1024 * 1024, 1)]);
    const response = await sendForm(head, 'POST', PATH, fields, { bytes, type: 'image/jpeg', name: 'huge.jpg' });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ statusCode: 413, message: ERROR_MESSAGES[413] });
    expect(await learnersNamed(fields.studentid)).toBe(0);
    expect(storedFiles()).toEqual(before);
  });

  it('is served to members of the learner’s school only', async () => {
    const student = saved(
      await sendForm(head, 'POST', PATH, learner(), { bytes: await jpeg(200, 200), type: 'image/jpeg', name: 'a.jpg' }),
    );
    expect((await photoOf(head, student.id)).statusCode).toBe(200);
    const elsewhere = await photoOf(outsider, student.id);
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json()).toEqual({ statusCode: 404, message: ERROR_MESSAGES[404] });
    expect((await photoOf({ ...outsider, tenantcode: school.tenantcode }, student.id)).statusCode).toBe(403);
    const anonymous = await t.app.inject({
      method: 'GET',
      url: `${PATH}/${student.id}/photo`,
      headers: { [TENANT_HEADER]: school.tenantcode },
    });
    expect(anonymous.statusCode).toBe(401);
    // A learner without a photo has none to serve.
    const without = saved(await sendForm(head, 'POST', PATH, learner()));
    expect(without.photo_path).toBeNull();
    expect((await photoOf(head, without.id)).statusCode).toBe(404);
  });

  it('removes the old file when the photo is replaced, and keeps the photo when an edit sends none', async () => {
    const fields = learner();
    const first = saved(
      await sendForm(head, 'POST', PATH, fields, { bytes: await jpeg(800, 600, '#f00'), type: 'image/jpeg', name: 'one.jpg' }),
    );
    const firstFile = path.join(dataDir, 'photos', school.id, first.photo_path as string);
    expect(existsSync(firstFile)).toBe(true);

    const png = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#00f' } })
      .png()
      .toBuffer();
    const second = saved(
      await sendForm(
        head,
        'PUT',
        `${PATH}/${first.id}`,
        { ...fields, phone: '0772 111 222' },
        { bytes: png, type: 'image/png', name: 'one.jpg' },
      ),
    );
    expect(second.photo_path).toMatch(STORED_NAME);
    expect(second.photo_path).not.toBe(first.photo_path);
    expect(second.phone).toBe('0772 111 222');
    expect(existsSync(firstFile)).toBe(false);
    expect(storedFiles()).toContain(`${school.id}/${second.photo_path}`);
    const served = await sharp((await photoOf(head, first.id)).rawPayload)
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(served.info).toMatchObject({ width: 400, height: 400 });
    expect([...served.data.subarray(0, 3)].map((value) => Math.round(value / 16))).toEqual([0, 0, 16]);

    const third = saved(await sendForm(head, 'PUT', `${PATH}/${first.id}`, { ...fields, phone: '0772 333 444' }));
    expect(third.photo_path).toBe(second.photo_path);
    expect((await photoOf(head, first.id)).statusCode).toBe(200);
  });

  it('removes the photo file with a learner deleted as a mistake', async () => {
    const mistake = saved(
      await sendForm(head, 'POST', PATH, learner(), { bytes: await jpeg(300, 300, '#0f0'), type: 'image/jpeg', name: 'oops.jpg' }),
    );
    const file = path.join(dataDir, 'photos', school.id, mistake.photo_path as string);
    expect(existsSync(file)).toBe(true);
    const response = await head.c.delete(`${PATH}/${mistake.id}`);
    expect(response.statusCode).toBe(200);
    expect(existsSync(file)).toBe(false);
    expect(storedFiles()).not.toContain(`${school.id}/${mistake.photo_path}`);
  });

  it('leaves no file behind when the learner is refused, and none for a teacher or another school', async () => {
    const taken = saved(await sendForm(head, 'POST', PATH, learner()));
    const before = storedFiles();
    const photo = async () => ({ bytes: await jpeg(300, 300), type: 'image/jpeg', name: 'p.jpg' });

    const duplicate = await sendForm(head, 'POST', PATH, learner({ studentid: taken.studentid }), await photo());
    expect(duplicate.statusCode).toBe(422);
    expect(duplicate.json().errors).toEqual({ studentid: [STUDENT_MESSAGES.studentidTaken] });

    const invalidForm = await sendForm(head, 'POST', PATH, learner({ firstname: '' }), await photo());
    expect(invalidForm.statusCode).toBe(422);

    const theirs = saved(await sendForm(outsider, 'POST', PATH, learner()));
    const notMine = await sendForm(head, 'PUT', `${PATH}/${theirs.id}`, learner(), await photo());
    expect(notMine.statusCode).toBe(404);

    const forbidden = await sendForm(teacher, 'POST', PATH, learner(), await photo());
    expect(forbidden.statusCode).toBe(403);

    expect(storedFiles()).toEqual(before);
    expect(((await outsider.c.get(`${PATH}/${theirs.id}`)).json() as Student).photo_path).toBeNull();
  });
});
