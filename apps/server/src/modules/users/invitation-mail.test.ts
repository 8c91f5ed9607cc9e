import { TENANT_MESSAGES, USER_MESSAGES } from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIL_TEXTS } from '../../mail/templates.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { startTestSmtp, type TestSmtp } from '../../test/smtp.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';

/**
 * Invitations by e-mail (issue 29 point 4): adding a person sends them the invitation's link and
 * code, read back from a real SMTP server; the code is still answered once to the school, and the
 * person joins with what the message says.
 */

let t: TestApp;
let smtp: TestSmtp;
let school: { id: string; tenantcode: string };
let head: Caller;

const outboxTo = (email: string) =>
  t.database.db.selectFrom('mail_outbox').selectAll().where('recipient', '=', email).orderBy('created_at').execute();

/** The address's message holding `text`, as the mail server received it. */
async function mailTo(email: string, text = ''): Promise<{ subject: string; text: string; html: string }> {
  const mail = await smtp.waitFor((message) => message.to === email && (message.text ?? '').includes(text));
  return { subject: mail.subject ?? '', text: mail.text ?? '', html: mail.html || '' };
}

beforeAll(async () => {
  smtp = await startTestSmtp();
  // The sender's poll is a minute away: a message arrives within a test only if the route wakes it.
  t = await buildTestApp({ smtpUrl: smtp.url, mailTiming: { pollMs: 60_000 } });
  school = await makeTenant(t.database, { name: 'Kabojja Junior School' });
  const headTeacher = await makeUser(t.database, { name: 'Sarah Namutebi', memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  head = caller(t.app, await login(t.app, headTeacher.email), school.tenantcode);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

describe('an invitation by e-mail', () => {
  it('sends the person the link and the code the school is shown, and they join with them', async () => {
    const invited = await head.post('/api/users', { name: 'Moses Okello', email: 'moses.okello@kabojja.test', roles: ['teacher'] });
    expect(invited.statusCode).toBe(200);
    const { code } = invited.json();
    expect(code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);

    const mail = await mailTo('moses.okello@kabojja.test');
    expect(mail.subject).toBe('Sarah Namutebi invites you to Kabojja Junior School on Mustard');
    const link = `http://mustard.test/join?code=${code}`;
    expect(mail.text).toContain(code);
    expect(mail.text).toContain(link);
    expect(mail.html).toContain(`href="${link}"`);
    expect(await outboxTo('moses.okello@kabojja.test')).toHaveLength(1);

    // The person opens the link: the join page reads the code from it, and joining works as before.
    const joinCode = new URL(link).searchParams.get('code') as string;
    expect((await t.app.inject({ method: 'GET', url: `/auth/join?code=${encodeURIComponent(joinCode)}` })).json().tenant.tenantcode).toBe(
      school.tenantcode,
    );
    const joined = await t.app.inject({ method: 'POST', url: '/auth/join', payload: { code: joinCode, password: 'Moses-Own-Pass-1!' } });
    expect(joined.statusCode).toBe(200);
    expect(joined.json().tenant.tenantcode).toBe(school.tenantcode);
  });

  it('writes the message in the sender’s language', async () => {
    const invited = await head.post('/api/users', { name: 'Ana Ruiz', email: 'ana.ruiz@kabojja.test', roles: ['teacher'], locale: 'sp' });
    expect(invited.statusCode).toBe(200);
    const mail = await mailTo('ana.ruiz@kabojja.test');
    const spanish = MAIL_TEXTS.sp.invitation.subject
      .replace('{inviter}', 'Sarah Namutebi')
      .replace('{organisation}', 'Kabojja Junior School');
    expect(mail.subject).toBe(spanish);
    expect(spanish).not.toBe(
      MAIL_TEXTS.en.invitation.subject.replace('{inviter}', 'Sarah Namutebi').replace('{organisation}', 'Kabojja Junior School'),
    );
    expect(
      (await head.post('/api/users', { name: 'Ana Ruiz', email: 'ana.ruiz@kabojja.test', roles: ['teacher'], locale: 'xx' })).statusCode,
    ).toBe(422);
  });

  it('sends a renewed invitation’s new code, and nothing for an invitation refused', async () => {
    const first = (await head.post('/api/users', { name: 'Peter Ssali', email: 'peter.ssali@kabojja.test', roles: ['teacher'] })).json()
      .code;
    const second = (await head.post('/api/users', { name: 'Peter Ssali', email: 'peter.ssali@kabojja.test', roles: ['bursar'] })).json()
      .code;
    expect(second).not.toBe(first);
    await mailTo('peter.ssali@kabojja.test', second);
    expect(await outboxTo('peter.ssali@kabojja.test')).toHaveLength(2);

    // Already a member: refused, and the refusal's transaction wrote no message.
    const member = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
    const again = await head.post('/api/users', { name: 'Member Already', email: member.email, roles: ['teacher'] });
    expect(again.json().errors.email).toEqual([USER_MESSAGES.alreadyMember]);
    expect(await outboxTo(member.email)).toEqual([]);
    // The demo stays confined: a demo address is never invited, nor mailed.
    const demo = await head.post('/api/users', { name: 'Demo Person', email: 'someone@mustard.demo', roles: ['teacher'] });
    expect(demo.statusCode).toBe(403);
    expect(demo.json().message).toBe(TENANT_MESSAGES.demoCannotJoin);
    expect(await outboxTo('someone@mustard.demo')).toEqual([]);
  });
});
