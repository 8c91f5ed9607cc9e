import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTenant } from '../test/factories.js';
import { buildTestApp, type TestApp } from '../test/test-app.js';
import { enqueueMail, type OutgoingMail } from './outbox.js';

/** The outbox itself: what enqueueMail writes, in the caller's transaction (no SMTP server here: none is needed to enqueue). */
let t: TestApp;
const db = () => t.database.db;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const mail = (to: string, extra: Partial<OutgoingMail> = {}): OutgoingMail => ({
  to,
  template: 'passwordReset',
  locale: 'en',
  values: { name: 'Grace', link: 'https://mustard.example/auth/password/reset?token=abc' },
  ...extra,
});

const rowsTo = (to: string) => db().selectFrom('mail_outbox').selectAll().where('recipient', '=', to).execute();

describe('enqueueMail', () => {
  it('writes the rendered message, pending, in the transaction that commits', async () => {
    const school = await makeTenant(t.database);
    const written = await db()
      .transaction()
      .execute((trx) => enqueueMail(trx, mail('committed@example.com', { tenantId: school.id, locale: 'sp' })));
    expect(written).toBe(true);
    const [row] = await rowsTo('committed@example.com');
    expect(row).toMatchObject({
      tenant_id: school.id,
      template: 'passwordReset',
      locale: 'sp',
      status: 'pending',
      attempts: 0,
      subject: 'Restablezca su contraseña de Mustard',
      message_id: null,
      sent_at: null,
    });
    expect(row?.body_text).toContain('https://mustard.example/auth/password/reset?token=abc');
  });

  it('leaves nothing when the transaction rolls back', async () => {
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await enqueueMail(trx, mail('rolled-back@example.com'));
          throw new Error('the action failed');
        }),
    ).rejects.toThrow('the action failed');
    expect(await rowsTo('rolled-back@example.com')).toEqual([]);
  });

  it('writes one message for a dedupe key enqueued twice, even at once, and answers false for the second', async () => {
    const answers = await Promise.all(
      [1, 2].map(() =>
        db()
          .transaction()
          .execute((trx) => enqueueMail(trx, mail('twice@example.com', { dedupeKey: 'reset:twice' }))),
      ),
    );
    expect(answers.sort()).toEqual([false, true]);
    expect(await rowsTo('twice@example.com')).toHaveLength(1);
  });

  it('keeps attachments byte for byte, in order', async () => {
    const pdf = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x0a, 0x0d]);
    await db()
      .transaction()
      .execute((trx) =>
        enqueueMail(trx, {
          to: 'guardian@example.com',
          template: 'reportCard',
          locale: 'en',
          values: { learner: 'Amina', school: 'Gulu P.S.', term: 'I', year: '2026' },
          attachments: [
            { filename: 'amina.pdf', contentType: 'application/pdf', content: pdf },
            { filename: 'notes.txt', contentType: 'text/plain', content: Buffer.from('second') },
          ],
        }),
      );
    const [row] = await rowsTo('guardian@example.com');
    const attachments = await db()
      .selectFrom('mail_outbox_attachments')
      .selectAll()
      .where('mail_id', '=', row?.id as string)
      .orderBy('position')
      .execute();
    expect(attachments.map((a) => [a.filename, a.content_type, Buffer.from(a.content).toString('hex')])).toEqual([
      ['amina.pdf', 'application/pdf', pdf.toString('hex')],
      ['notes.txt', 'text/plain', Buffer.from('second').toString('hex')],
    ]);
  });

  it('refuses header injection before writing anything, with a 422 the route answers', async () => {
    await expect(
      db()
        .transaction()
        .execute((trx) => enqueueMail(trx, mail('victim@example.com\r\nBcc: everyone@example.com'))),
    ).rejects.toMatchObject({ statusCode: 422, errors: { email: ['Invalid email'] } });
    await expect(
      db()
        .transaction()
        .execute((trx) =>
          enqueueMail(
            trx,
            mail('ok@example.com', {
              attachments: [{ filename: 'a\r\nX: y.pdf', contentType: 'application/pdf', content: Buffer.from('x') }],
            }),
          ),
        ),
    ).rejects.toMatchObject({ statusCode: 422 });
    expect(await rowsTo('ok@example.com')).toEqual([]);
  });

  it('goes with its school when the school is deleted', async () => {
    const school = await makeTenant(t.database);
    await db()
      .transaction()
      .execute((trx) => enqueueMail(trx, mail('school-gone@example.com', { tenantId: school.id })));
    await db().deleteFrom('tenants').where('id', '=', school.id).execute();
    expect(await rowsTo('school-gone@example.com')).toEqual([]);
  });
});
