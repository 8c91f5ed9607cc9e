import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueMail } from '../../mail/outbox.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';

/**
 * Without SMTP_URL (the embedded default) nothing goes out: messages stay in the outbox, pending,
 * and a platform administrator reads them at GET /api/admin/outbox, links and all. No one else
 * may, a school's own administrator included.
 */
let t: TestApp;
let platformAdmin: Caller;
let schoolAdmin: Caller;
let teacher: Caller;
let school: { id: string; tenantcode: string };

beforeAll(async () => {
  t = await buildTestApp();
  school = await makeTenant(t.database);
  const admin = await makeUser(t.database, { isAdmin: true, memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
  const superadmin = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['superadmin'] }] });
  const member = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
  platformAdmin = caller(t.app, await login(t.app, admin.email), school.tenantcode);
  schoolAdmin = caller(t.app, await login(t.app, superadmin.email), school.tenantcode);
  teacher = caller(t.app, await login(t.app, member.email), school.tenantcode);
  await t.database.db.transaction().execute(async (trx) => {
    await enqueueMail(trx, {
      to: 'new.head@example.com',
      template: 'verifyEmail',
      locale: 'en',
      values: { name: 'Grace <Auma>', link: 'http://mustard.test/register/verify?token=tok-123' },
    });
    await enqueueMail(trx, {
      to: 'guardian@example.com',
      template: 'reportCard',
      locale: 'sp',
      tenantId: school.id,
      values: { learner: 'Amina', school: 'Gulu P.S.', term: 'I', year: '2026' },
      attachments: [{ filename: 'Amina.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-') }],
    });
  });
  t.app.mail.wake();
});
afterAll(() => t.close());

describe('GET /api/admin/outbox, without SMTP_URL', () => {
  it('shows a platform administrator every message, pending, with its text to copy a link from', async () => {
    const response = await platformAdmin.get('/api/admin/outbox');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.sending).toBe(false);
    expect(body.totalRecords).toBe(2);
    const verify = body.messages.find((m: { to: string }) => m.to === 'new.head@example.com');
    expect(verify).toMatchObject({
      template: 'verifyEmail',
      locale: 'en',
      subject: 'Confirm your e-mail address for Mustard',
      status: 'pending',
      attempts: 0,
      sent_at: null,
      last_error: null,
      attachments: [],
    });
    expect(verify.text).toContain('http://mustard.test/register/verify?token=tok-123');
    expect(verify.text).toContain('Grace <Auma>');
    expect(new Date(verify.created_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const card = body.messages.find((m: { to: string }) => m.to === 'guardian@example.com');
    expect(card).toMatchObject({ template: 'reportCard', locale: 'sp', status: 'pending', attachments: ['Amina.pdf'] });
  });

  it('keeps them pending: no sender runs without SMTP_URL', async () => {
    expect(t.app.mail.sends).toBe(false);
    await t.app.mail.drain();
    const rows = await t.database.db.selectFrom('mail_outbox').select(['status', 'attempts']).execute();
    expect(rows).toEqual([
      { status: 'pending', attempts: 0 },
      { status: 'pending', attempts: 0 },
    ]);
  });

  it('lists newest first, by page, of one status', async () => {
    const first = (await platformAdmin.get('/api/admin/outbox?per_page=1')).json();
    expect(first.totalRecords).toBe(2);
    expect(first.messages.map((m: { to: string }) => m.to)).toEqual(['guardian@example.com']);
    const second = (await platformAdmin.get('/api/admin/outbox?per_page=1&page=2')).json();
    expect(second.messages.map((m: { to: string }) => m.to)).toEqual(['new.head@example.com']);
    const sent = (await platformAdmin.get('/api/admin/outbox?status=sent')).json();
    expect(sent).toMatchObject({ messages: [], totalRecords: 0 });
  });

  it('refuses a school administrator and a member (403), and answers bad queries with a 4xx', async () => {
    for (const who of [schoolAdmin, teacher]) {
      const response = await who.get('/api/admin/outbox');
      expect(response.statusCode).toBe(403);
      expect(response.body).not.toContain('tok-123');
    }
    for (const query of ['status=lost', 'per_page=1000', 'page=0', 'page=abc', `status=${'x'.repeat(5000)}`, 'status=%00']) {
      const response = await platformAdmin.get(`/api/admin/outbox?${query}`);
      expect(response.statusCode, query).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, query).toBeLessThan(500);
    }
  });

  it('refuses the signed-out (401)', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/admin/outbox', headers: { tenantcode: school.tenantcode } });
    expect(response.statusCode).toBe(401);
  });
});
