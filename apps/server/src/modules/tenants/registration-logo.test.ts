import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { REGISTER_MESSAGES, REPORT_MESSAGES } from '@mustard/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReceivedMail, startTestSmtp, type TestSmtp } from '../../test/smtp.js';
import { buildTestApp, caller, type TestApp, tokenOf } from '../../test/test-app.js';

/*
 * The organisation's logo given at sign-up (issue 29 point 2): sent with the registration as
 * multipart, checked and re-encoded by the school badge's pipeline, kept with the pending row,
 * and the new school's badge once the mailed link is followed. Whatever is not a picture is
 * refused naming the field, with nothing kept and no mail.
 */

let t: TestApp;
let smtp: TestSmtp;

beforeAll(async () => {
  smtp = await startTestSmtp();
  t = await buildTestApp({ smtpUrl: smtp.url, mailTiming: { pollMs: 50, retryBaseMs: 50, retryCapMs: 200 } });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

let clients = 0;
const from = () => `10.8.${Math.floor(++clients / 250)}.${clients % 250}`;
let people = 0;
const newAddress = () => `logo-${Date.now().toString(36)}-${++people}@kisubi.ac.ug`;

/** The sign-up as the browser sends it with a logo: the JSON fields' names as multipart fields, and the file. */
async function registerWithLogo(email: string, logo: Buffer | null, type = 'image/png') {
  const form = new FormData();
  const fields = {
    'person[name]': 'Grace Nakato',
    'person[email]': email,
    'person[telephone]': '+256 772 123456',
    'person[password]': 'Kampala#2026',
    'organisation[name]': 'Kisubi Primary',
    'organisation[category]': 'school',
    'organisation[email]': 'office@kisubi.ac.ug',
    'organisation[telephone]': '0414 123456',
    locale: 'en',
  };
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  if (logo) form.set('logo', new Blob([new Uint8Array(logo)], { type }), 'logo.png');
  const request = new Request('http://x', { method: 'POST', body: form });
  return t.app.inject({
    method: 'POST',
    url: '/auth/register',
    headers: { 'content-type': request.headers.get('content-type') as string },
    payload: Buffer.from(await request.arrayBuffer()),
    remoteAddress: from(),
  });
}

const mailTo = (email: string) => smtp.waitFor((mail) => mail.to === email && mail.subject === 'Confirm your e-mail address for Mustard');
function tokenIn(mail: ReceivedMail): string {
  const found = /\/register\/verify\?token=([A-Za-z0-9_-]+)/.exec(mail.text ?? '');
  if (!found?.[1]) throw new Error(`no verification link in: ${mail.text}`);
  return found[1];
}
const pendingOf = (email: string) => t.database.db.selectFrom('registrations').select(['logo']).where('email', '=', email).execute();

const EXIF_MARK = 'Kisubi secret GPS note';
/** A PNG logo carrying EXIF (the kind a phone leaves), big enough to be resized. */
const exifPng = () =>
  sharp({ create: { width: 900, height: 700, channels: 4, background: { r: 224, g: 168, b: 0, alpha: 0.5 } } })
    .png()
    .withExif({ IFD0: { ImageDescription: EXIF_MARK } })
    .toBuffer();

/** A PNG whose header claims `width` × `height` pixels around a 1×1 image's data: a decompression bomb's shape. */
async function claimedPng(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(
    await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } })
      .png()
      .toBuffer(),
  );
  // IHDR: length (4) type (4) at byte 8, data from 16: width, height; its CRC over type and data at 29.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

describe('the organisation logo at sign-up', () => {
  it('a PNG logo is re-encoded, kept with the registration, and is the new school badge once verified (EXIF gone)', async () => {
    const email = newAddress();
    const logo = await exifPng();
    expect(logo.includes(EXIF_MARK)).toBe(true);
    const response = await registerWithLogo(email, logo);
    expect([response.statusCode, response.json()]).toEqual([200, { message: REGISTER_MESSAGES.checkEmail }]);

    const [pending] = await pendingOf(email);
    const kept = Buffer.from(pending?.logo ?? new Uint8Array());
    expect(kept.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(kept.includes(EXIF_MARK)).toBe(false);

    const verified = await t.app.inject({
      method: 'POST',
      url: '/auth/register/verify',
      payload: { token: tokenIn(await mailTo(email)) },
      remoteAddress: from(),
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const tenant = verified.json().tenants[0];
    const head = caller(t.app, tokenOf(verified), tenant.tenantcode);
    const served = await head.get('/api/school/logo');
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    const bytes = served.rawPayload;
    expect(bytes.includes(EXIF_MARK)).toBe(false);
    const metadata = await sharp(bytes).metadata();
    expect([metadata.format, metadata.width, metadata.height, metadata.exif]).toEqual(['jpeg', 600, 467, undefined]);
    expect(readdirSync(path.join(t.app.config.dataDir, 'photos', tenant.id))).toHaveLength(1);
  });

  it('no logo is fine: the school starts without a badge', async () => {
    const email = newAddress();
    expect((await registerWithLogo(email, null)).statusCode).toBe(200);
    expect(await pendingOf(email)).toEqual([{ logo: null }]);
    const verified = await t.app.inject({
      method: 'POST',
      url: '/auth/register/verify',
      payload: { token: tokenIn(await mailTo(email)) },
      remoteAddress: from(),
    });
    const tenant = verified.json().tenants[0];
    expect((await caller(t.app, tokenOf(verified), tenant.tenantcode).get('/api/school/logo')).statusCode).toBe(404);
    expect(existsSync(path.join(t.app.config.dataDir, 'photos', tenant.id))).toBe(false);
  });

  it.each([
    [
      'an SVG',
      () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><circle r="4"/></svg>'),
      'image/svg+xml',
      REPORT_MESSAGES.logoNotImage,
    ],
    ['a file that is not a picture', () => Buffer.from('just some words, not a picture'), 'image/png', REPORT_MESSAGES.logoNotImage],
    ['a picture over the pixel cap', () => claimedPng(8000, 6000), 'image/png', REPORT_MESSAGES.logoTooLarge],
    ['a decompression bomb', () => claimedPng(100_000, 100_000), 'image/png', REPORT_MESSAGES.logoTooLarge],
  ])('%s is refused naming the logo, with nothing kept and no mail', async (_name, bytes, type, message) => {
    const email = newAddress();
    const response = await registerWithLogo(email, await bytes(), type);
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().errors).toEqual({ logo: [message] });
    expect(await pendingOf(email)).toEqual([]);
    expect(await t.database.db.selectFrom('mail_outbox').select('id').where('recipient', '=', email).execute()).toEqual([]);
  });

  it('a file over the upload limit is refused (413), nothing kept', async () => {
    const email = newAddress();
    const huge = Buffer.concat([await claimedPng(10, 10), Buffer.alloc(5 * 1024 * 1024 + 1)]);
    const response = await registerWithLogo(email, huge);
    expect(response.statusCode).toBe(413);
    expect(await pendingOf(email)).toEqual([]);
  });
});
