import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  markTypes,
  ncTerminalReportEmailEndpoint,
  type ReportEmailSummary,
  reportProgressEndpoint,
  terminalReportEmailEndpoint,
} from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { withTenant } from '../../db/tenant.js';
import { makeMarks, makeTenant, makeUser } from '../../test/factories.js';
import { startTestSmtp, type TestSmtp } from '../../test/smtp.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../../test/test-app.js';
import { newSubject, ok, type Row } from '../settings/settings-fixtures.js';

/*
 * Report cards by e-mail (issue 29 point 5) on both databases, with a real SMTP server: a P7 of
 * three learners, two with a guardian's address; each guardian gets one message carrying their
 * own learner's card (read back with pdftotext: that learner's name, no other's), naming the
 * school and term; the learner without an address is counted and named, not sent; the same
 * request again sends nothing, a corrected card is sent; another school's learner, and a member
 * who may not release results, are refused. */

const run = promisify(execFile);
const YEAR = 2026;
const SCHOOL = 'Kitante Hill Primary';

let smtp: TestSmtp;
let t: TestApp;
let head: Caller;
let teacher: Caller;
let other: Caller;
let school: { id: string; tenantcode: string };
let english: Row;
let eot: Row;
let amina: string;
let brian: string;
let carol: string;
let otherLearner: string;

async function pdfText(bytes: Uint8Array): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'card-mail-'));
  try {
    const file = path.join(folder, 'card.pdf');
    await writeFile(file, bytes);
    return (await run('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { maxBuffer: 16 * 1024 * 1024 })).stdout;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** The school's messages in the outbox (what the sender sends, or keeps without a mail server). */
const outboxOf = (tenantId: string) =>
  t.database.db.selectFrom('mail_outbox').select(['recipient', 'subject', 'dedupe_key']).where('tenant_id', '=', tenantId).execute();

const emailCards = (who: Caller, body: Record<string, string> = {}) =>
  who.post(terminalReportEmailEndpoint.path, { form: 'P7', term: 'I', year: String(YEAR), ...body });

beforeAll(async () => {
  smtp = await startTestSmtp();
  t = await buildTestApp({ smtpUrl: smtp.url });
  school = await makeTenant(t.database, { name: SCHOOL });
  const headUser = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  const teacherUser = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
  head = caller(t.app, await login(t.app, headUser.email), school.tenantcode);
  teacher = caller(t.app, await login(t.app, teacherUser.email), school.tenantcode);
  english = await newSubject(head, { name: 'English', category: 'english', position: 1 });
  eot = ok(await head.post(markTypes.path, { label: 'EOT', category: 'exam', position: 1 }));
  const learner = async (firstname: string, lastname: string, guardian: string | null) =>
    ok(await head.post('/api/school/students', { firstname, lastname, form: 'P7', stream: 'East', guardian_email: guardian })).id as string;
  amina = await learner('Amina', 'Nakato', 'amina.guardian@example.org');
  brian = await learner('Brian', 'Okello', 'brian.guardian@example.org');
  carol = await learner('Carol', 'Achieng', null);
  for (const [id, mark] of [
    [amina, 81],
    [brian, 64],
    [carol, 47],
  ] as const)
    await makeMarks(t.database, school.id, id, [{ subjectId: english.id, marktypeId: eot.id, form: 'P7', term: 'I', year: YEAR, mark }]);

  const elsewhere = await makeTenant(t.database, { name: 'Other Primary' });
  const otherUser = await makeUser(t.database, { memberOf: [{ tenantId: elsewhere.id, roles: ['headteacher'] }] });
  other = caller(t.app, await login(t.app, otherUser.email), elsewhere.tenantcode);
  otherLearner = ok(
    await other.post('/api/school/students', {
      firstname: 'Paul',
      lastname: 'Mugisha',
      form: 'P7',
      guardian_email: 'paul.guardian@example.org',
    }),
  ).id;
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe('a class’s report cards by e-mail', () => {
  it('sends each guardian their own learner’s card, counts the learner without an address, and follows the drawing', async () => {
    const token = `mail-${newId().slice(0, 8)}`;
    const summary: ReportEmailSummary = ok(await emailCards(head, { progress: token }));
    expect(summary).toMatchObject({ sent: 2, alreadySent: 0, noAddress: 1, failed: 0, failedLearners: [] });
    expect(summary.withoutAddress.map((learner) => learner.fullname)).toEqual(['Carol Achieng']);
    expect(ok(await head.get(`${reportProgressEndpoint.path}?token=${token}`))).toEqual({ done: 2, total: 2 });

    for (const [address, own, others] of [
      ['amina.guardian@example.org', 'Amina Nakato', ['Brian Okello', 'Carol Achieng']],
      ['brian.guardian@example.org', 'Brian Okello', ['Amina Nakato', 'Carol Achieng']],
    ] as const) {
      const message = await smtp.waitFor((mail) => mail.to === address);
      // The school and the term (I) and year, in the subject and the body; the learner in the body.
      expect(message.subject).toContain(SCHOOL);
      expect(message.subject).toMatch(new RegExp(`\\bI\\b.*${YEAR}`));
      expect(message.text).toMatch(/\bI\b/);
      expect(message.text).toContain(own);
      expect(message.text).toContain(SCHOOL);
      expect(message.text).toContain(String(YEAR));
      for (const name of others) expect(message.text).not.toContain(name);
      expect(message.attachments).toHaveLength(1);
      const [card] = message.attachments;
      expect(card?.contentType).toBe('application/pdf');
      expect(card?.filename).toBe(`report-P7-East-${YEAR}-I-${own.replace(' ', '_')}.pdf`);
      const text = await pdfText(card?.content as Buffer);
      expect(text).toContain(own);
      expect(text).toContain(SCHOOL);
      for (const name of others) expect(text).not.toContain(name);
    }
    // Exactly one message each; none for the learner without an address.
    expect(smtp.messages.map((mail) => mail.to).sort()).toEqual(['amina.guardian@example.org', 'brian.guardian@example.org']);
    expect(await outboxOf(school.id)).toHaveLength(2);
  });

  it('sends nothing twice for the same request, and sends a corrected card again', async () => {
    const again: ReportEmailSummary = ok(await emailCards(head));
    expect(again).toMatchObject({ sent: 0, alreadySent: 2, noAddress: 1, failed: 0 });
    // Two at once: still one message a guardian.
    const both = await Promise.all([emailCards(head), emailCards(head)]);
    for (const answer of both) expect(ok(answer)).toMatchObject({ sent: 0, alreadySent: 2 });
    expect(await outboxOf(school.id)).toHaveLength(2);

    // Brian's mark corrected: his card changed, so it goes; Amina's did not.
    await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx.updateTable('marks').set({ mark: 66 }).where('student_id', '=', brian).where('tenant_id', '=', school.id).execute(),
    );
    const corrected: ReportEmailSummary = ok(await emailCards(head));
    expect(corrected).toMatchObject({ sent: 1, alreadySent: 1 });
    const outbox = await outboxOf(school.id);
    expect(outbox.filter((mail) => mail.recipient === 'brian.guardian@example.org')).toHaveLength(2);
    expect(outbox.filter((mail) => mail.recipient === 'amina.guardian@example.org')).toHaveLength(1);
    // Over the wire too: Brian's guardian gets the corrected card, Amina's still has the one message.
    await expect.poll(() => smtp.messages.filter((mail) => mail.to === 'brian.guardian@example.org').length).toBe(2);
    expect(smtp.messages.filter((mail) => mail.to === 'amina.guardian@example.org')).toHaveLength(1);
  });

  it('mails one learner’s card alone when one learner is asked', async () => {
    await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx.updateTable('marks').set({ mark: 82 }).where('student_id', '=', amina).where('tenant_id', '=', school.id).execute(),
    );
    const summary: ReportEmailSummary = ok(await emailCards(head, { student_id: amina }));
    expect(summary).toMatchObject({ sent: 1, alreadySent: 0, noAddress: 0, withoutAddress: [] });
  });

  it('names a card the outbox refuses as failed, and still sends the others', async () => {
    // An address stored before the form's rule (or by hand) that no message may carry: a comment in it.
    await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx.updateTable('students').set({ guardian_email: 'carol(guardian)@example.org' }).where('id', '=', carol).execute(),
    );
    try {
      const summary: ReportEmailSummary = ok(await emailCards(head));
      expect(summary).toMatchObject({ sent: 0, alreadySent: 2, noAddress: 0, failed: 1, withoutAddress: [] });
      expect(summary.failedLearners.map((learner) => learner.fullname)).toEqual(['Carol Achieng']);
      expect((await outboxOf(school.id)).some((mail) => mail.recipient.startsWith('carol'))).toBe(false);
    } finally {
      await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
        trx.updateTable('students').set({ guardian_email: null }).where('id', '=', carol).execute(),
      );
    }
  });

  it('refuses another school’s learner, a member who may not release results, and a bad request', async () => {
    const before = (await outboxOf(school.id)).length;
    // The other school's head naming this school's learner: not a learner of theirs.
    const foreign = await emailCards(other, { student_id: amina });
    expect([404, 422]).toContain(foreign.statusCode);
    expect(foreign.body).not.toContain('Amina');
    // This school's head naming the other school's learner.
    const theirs = await emailCards(head, { student_id: otherLearner });
    expect([404, 422]).toContain(theirs.statusCode);
    expect((await emailCards(teacher)).statusCode).toBe(403);
    expect((await emailCards(head, { term: 'IX' })).statusCode).toBe(422);
    expect((await emailCards(head, { form: 'P7\u0000' })).statusCode).toBe(422);
    expect((await emailCards(head, { progress: 'no spaces allowed' })).statusCode).toBe(422);
    expect(await outboxOf(school.id)).toHaveLength(before);
    expect(smtp.messages.some((mail) => mail.to === 'paul.guardian@example.org')).toBe(false);
  });
});

describe('the new-curriculum card by e-mail', () => {
  it('sends the learner’s own new-curriculum card', async () => {
    const secondary = await makeTenant(t.database, { name: 'Competency SS', schooltype: 'secondary' });
    const user = await makeUser(t.database, { memberOf: [{ tenantId: secondary.id, roles: ['headteacher'] }] });
    const secondaryHead = caller(t.app, await login(t.app, user.email), secondary.tenantcode);
    const maths = await newSubject(secondaryHead, { name: 'Mathematics', category: 'mathematics' });
    const exam = newId();
    await withTenant(t.database.db, { tenantId: secondary.id }, (trx) =>
      trx
        .insertInto('mark_types')
        .values({ tenant_id: secondary.id, id: exam, label: 'EOT', category: 'exam', position: 1, outof: 100 })
        .execute(),
    );
    const grace = ok(
      await secondaryHead.post('/api/school/students', {
        firstname: 'Grace',
        lastname: 'Akello',
        form: 'S2',
        guardian_email: 'grace.guardian@example.org',
      }),
    ).id;
    const isaac = ok(await secondaryHead.post('/api/school/students', { firstname: 'Isaac', lastname: 'Okot', form: 'S2' })).id;
    for (const [id, mark] of [
      [grace, 70],
      [isaac, 55],
    ] as const)
      await makeMarks(t.database, secondary.id, id, [{ subjectId: maths.id, marktypeId: exam, form: 'S2', term: 'II', year: YEAR, mark }]);

    const summary: ReportEmailSummary = ok(
      await secondaryHead.post(ncTerminalReportEmailEndpoint.path, { form: 'S2', term: 'II', year: String(YEAR), marktype_id: exam }),
    );
    expect(summary).toMatchObject({ sent: 1, noAddress: 1, failed: 0 });
    const message = await smtp.waitFor((mail) => mail.to === 'grace.guardian@example.org');
    expect(message.subject).toContain('Competency SS');
    const [card] = message.attachments;
    expect(card?.filename).toBe(`ncreport-S2-all-${YEAR}-II-Grace_Akello.pdf`);
    const text = await pdfText(card?.content as Buffer);
    expect(text).toContain('Grace Akello');
    expect(text).not.toContain('Isaac Okot');
    // The old-curriculum Email refuses a new-curriculum class, as its card does.
    expect((await secondaryHead.post(terminalReportEmailEndpoint.path, { form: 'S2', term: 'II', year: String(YEAR) })).statusCode).toBe(
      422,
    );
  });
});
