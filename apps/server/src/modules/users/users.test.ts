import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../db/tenant.js';
import { makeTenant, makeUser } from '../../test/factories.js';
import { buildTestApp, type Caller, caller, joinWithCode, login, TEST_PASSWORD, type TestApp, tokenOf } from '../../test/test-app.js';
import { EXCEL_ATTACHMENT, valuesOf, workbookOf } from '../settings/settings-fixtures.js';

let t: TestApp;
let school: { id: string; tenantcode: string };
let neighbour: { id: string; tenantcode: string };
let head: Caller;

beforeAll(async () => {
  t = await buildTestApp();
  school = await makeTenant(t.database, { name: 'Kabojja Junior' });
  neighbour = await makeTenant(t.database, { name: 'Hillside Nursery' });
  const headUser = await makeUser(t.database, { name: 'Agnes Head', memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
  await makeUser(t.database, { name: 'Neighbour Teacher', memberOf: [{ tenantId: neighbour.id, roles: ['teacher'] }] });
  head = caller(t.app, await login(t.app, headUser.email), school.tenantcode);
});
afterAll(() => t.close());

describe('/api/users', () => {
  it('lists the tenant’s users with their roles, never another tenant’s', async () => {
    const response = await head.get('/api/users');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.users.map((user: { name: string }) => user.name)).toEqual(['Agnes Head']);
    expect(body.users[0].roles.map((role: { name: string }) => role.name)).toEqual(['headteacher']);
    expect(body.totalRecords).toBe(1);
    expect(body.users[0]).not.toHaveProperty('password_hash');
  });

  /** Invites through the API as the school's head teacher; answers the invitation with its code. */
  async function invite(person: { name: string; email: string; roles: string[] }, by: Caller = head) {
    const response = await by.post('/api/users', person);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { id: string; code: string; name: string; email: string; roles: Array<{ name: string }> };
  }

  const join = (code: string, password: string) => t.app.inject({ method: 'POST', url: '/auth/join', payload: { code, password } });

  it('invites a new person: a code to hand them, and a member only once they join with it, choosing their password', async () => {
    const response = await head.post('/api/users', { name: 'Moses Okello', email: 'Moses.Okello@Kabojja.test', roles: ['teacher'] });
    expect(response.statusCode).toBe(200);
    const invitation = response.json();
    expect(invitation).toEqual({
      id: expect.any(String),
      name: 'Moses Okello',
      email: 'moses.okello@kabojja.test',
      roles: [{ id: expect.any(String), name: 'teacher' }],
      status: 'pending',
      invited_at: expect.any(String),
      expires_at: expect.any(String),
      code: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/),
    });
    // Fourteen days to join.
    expect(new Date(invitation.expires_at).getTime() - Date.now()).toBeGreaterThan(13.9 * 24 * 3600 * 1000);
    // Pending: not in the school's list; the code is shown once, never listed.
    expect((await head.get('/api/users')).json().users.map((user: { email: string }) => user.email)).not.toContain(
      'moses.okello@kabojja.test',
    );
    const { code, expires_at: _expires, ...listed } = invitation;
    expect((await head.get('/api/users/invitations')).json()).toEqual({ invitations: [listed], totalRecords: 1 });
    // No password was set by anyone: the account cannot sign in yet.
    await expect(login(t.app, 'moses.okello@kabojja.test', 'Chalk-and-Board-1')).rejects.toThrow();

    // The join page, with the code as the person types it (lower case, spaces, an O for a 0).
    const typed = code.toLowerCase().replaceAll('-', ' ').replaceAll('0', 'o');
    const details = await t.app.inject({ method: 'GET', url: `/auth/join?code=${encodeURIComponent(typed)}` });
    expect(details.json()).toEqual({
      tenant: expect.objectContaining({ tenantcode: school.tenantcode, name: 'Kabojja Junior' }),
      name: 'Moses Okello',
      email: 'moses.okello@kabojja.test',
      roles: ['teacher'],
      expires_at: invitation.expires_at,
    });
    const joined = await join(typed, 'Chalk-and-Board-1');
    expect(joined.statusCode, joined.body).toBe(200);
    expect(joined.json().tenant.tenantcode).toBe(school.tenantcode);
    expect(joined.json().tenants.map((tenant: { tenantcode: string }) => tenant.tenantcode)).toEqual([school.tenantcode]);
    const mine = caller(t.app, tokenOf(joined), school.tenantcode);
    expect((await mine.get('/api/users/profile')).json().permissions).toEqual({ mark: ['create'], remark: ['create'] });
    expect(
      (await head.get('/api/users')).json().users.find((user: { email: string }) => user.email === 'moses.okello@kabojja.test').name,
    ).toBe('Moses Okello');
    expect((await head.get('/api/users/invitations')).json().totalRecords).toBe(0);
    // The password chosen is theirs now; the code is spent.
    await login(t.app, 'moses.okello@kabojja.test', 'Chalk-and-Board-1');
    expect((await join(code, 'Chalk-and-Board-1')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/auth/join?code=${code}` })).json().message).toBe(
      'This invitation code is not valid or has expired',
    );
  });

  it('never takes a password from the school: an invitation sets no credential', async () => {
    const response = await head.post('/api/users', {
      name: 'Set By School',
      email: 'set.by.school@kabojja.test',
      password: 'Chalk-and-Board-1',
      roles: ['teacher'],
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ password: ['This field is not accepted'] });
    expect(
      await t.database.db.selectFrom('users').select('id').where('email', '=', 'set.by.school@kabojja.test').executeTakeFirst(),
    ).toBeUndefined();
  });

  it('answers the same for an existing account as for a new e-mail, and tells nothing of the account', async () => {
    const elsewhere = await makeUser(t.database, { name: 'Peace Visiting', memberOf: [{ tenantId: neighbour.id, roles: ['teacher'] }] });
    const known = await head.post('/api/users', { name: 'Someone Else', email: elsewhere.email, roles: ['bursar'] });
    const unknown = await head.post('/api/users', { name: 'Someone Else', email: 'nobody.yet@kabojja.test', roles: ['bursar'] });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(known.statusCode);
    const shape = (body: Record<string, unknown>) => ({
      ...body,
      id: 'x',
      email: 'x',
      invited_at: 'x',
      expires_at: 'x',
      roles: 'x',
      code: 'x',
    });
    expect(shape(known.json())).toEqual(shape(unknown.json()));
    expect(known.json().name).toBe('Someone Else');
    expect(known.body).not.toContain('Peace Visiting');
    expect(known.body).not.toContain(elsewhere.id);
    expect(known.json()).not.toHaveProperty('is_admin');

    // The account keeps its password, and is not in the school or its own switcher until it answers.
    await login(t.app, elsewhere.email, TEST_PASSWORD);
    expect((await head.get(`/api/users/${elsewhere.id}`)).statusCode).toBe(404);
    const theirs = caller(t.app, await login(t.app, elsewhere.email));
    const offered = (await theirs.get('/auth/invitations')).json().invitations;
    expect(
      offered.map((invitation: { tenant: { tenantcode: string }; roles: string[] }) => [invitation.tenant.tenantcode, invitation.roles]),
    ).toEqual([[school.tenantcode, ['bursar']]]);
    // Joining with the code takes the account's own password, never another.
    expect((await join(known.json().code, 'Another-Pass-1')).statusCode).toBe(401);
    // Declining takes the code too: whoever is in the account must be the one the school meant.
    expect((await theirs.post(`/auth/invitations/${offered[0].id}/decline`, {})).json().errors.code).toEqual([
      'Please enter the invitation code',
    ]);
    const declined = await theirs.post(`/auth/invitations/${offered[0].id}/decline`, { code: known.json().code });
    expect(declined.json()).toEqual({ message: 'The invitation has been declined' });
    expect((await head.get('/api/users/invitations')).json().invitations.map((i: { email: string }) => i.email)).toEqual([
      'nobody.yet@kabojja.test',
    ]);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { user: { email: elsewhere.email, password: TEST_PASSWORD } },
    });
    expect(signIn.json().tenants.map((tenant: { tenantcode: string }) => tenant.tenantcode)).toEqual([neighbour.tenantcode]);
  });

  it('lets a signed-in person join from the banner with the code the school gave them, and only with it', async () => {
    const person = await makeUser(t.database, { name: 'Banner Joiner', memberOf: [{ tenantId: neighbour.id, roles: ['teacher'] }] });
    const invitation = await invite({ name: 'Banner Joiner', email: person.email, roles: ['teacher'] });
    const mine = caller(t.app, await login(t.app, person.email));
    const wrong = await mine.post(`/auth/invitations/${invitation.id}/accept`, { code: 'AAAA-AAAA-AAAA' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors).toEqual({ code: ['This invitation code is not valid or has expired'] });
    expect((await mine.post(`/auth/invitations/${invitation.id}/accept`, {})).json().errors.code).toEqual([
      'Please enter the invitation code',
    ]);
    const accepted = await mine.post(`/auth/invitations/${invitation.id}/accept`, { code: invitation.code });
    expect(accepted.statusCode).toBe(200);
    expect(
      accepted
        .json()
        .tenants.map((tenant: { tenantcode: string }) => tenant.tenantcode)
        .sort(),
    ).toEqual([school.tenantcode, neighbour.tenantcode].sort());
    expect((await mine.post(`/auth/invitations/${invitation.id}/accept`, { code: invitation.code })).statusCode).toBe(404);
  });

  it('keeps a squatter out: an account a school made cannot join another school without that school’s code', async () => {
    // A head teacher invites a teacher of another school before that school does, and joins with the code himself.
    const squat = await invite({ name: 'Victim Teacher', email: 'victim@future.ug', roles: ['teacher'] });
    const squatter = await joinWithCode(t.app, squat.code, 'Attacker-Pass-1');
    // The other school invites the real teacher, and hands the code to the real teacher only.
    const neighbourAdmin = await makeUser(t.database, { memberOf: [{ tenantId: neighbour.id, roles: ['superadmin'] }] });
    const theirs = caller(t.app, await login(t.app, neighbourAdmin.email), neighbour.tenantcode);
    const real = await invite({ name: 'Victim Teacher', email: 'victim@future.ug', roles: ['headteacher'] }, theirs);
    const mine = caller(t.app, squatter);
    const offered = (await mine.get('/auth/invitations')).json().invitations;
    expect(offered.map((invitation: { id: string }) => invitation.id)).toEqual([real.id]);
    // Without the code the squatter cannot accept; guessing is counted like a wrong password.
    for (let guess = 0; guess < 10; guess++) {
      expect((await mine.post(`/auth/invitations/${real.id}/accept`, { code: `ZZZZ-ZZZZ-ZZZ${guess}` })).statusCode).toBe(422);
    }
    expect((await mine.post(`/auth/invitations/${real.id}/accept`, { code: 'ZZZZ-ZZZZ-ZZZZ' })).statusCode).toBe(429);
    expect((await mine.post(`/auth/invitations/${real.id}/decline`, { code: 'ZZZZ-ZZZZ-ZZZZ' })).statusCode).toBe(429);
    expect((await mine.in(neighbour.tenantcode).get('/api/users/profile')).statusCode).toBe(403);
    // Nor turn it down: it stays for the real teacher.
    const still = (await theirs.get('/api/users/invitations')).json().invitations.map((i: { id: string }) => i.id);
    expect(still).toContain(real.id);
  });

  it('refuses the sender joining with their own invitation’s code (issue 23 item 13): the new account stays the invited person’s', async () => {
    const invitation = await invite({ name: 'New Hire', email: 'new.hire@kabojja.test', roles: ['teacher'] });
    // The head teacher opens the join link in their own signed-in browser and chooses a password.
    const bySender = await head.post('/auth/join', { code: invitation.code, password: 'Senders-Pass-1' });
    expect(bySender.statusCode).toBe(403);
    expect(bySender.json().message).toBe('You sent this invitation: give its code to the person you invited, who joins with it');
    // Nothing of it stayed: no password chosen, no membership, the invitation still pending.
    const account = await t.database.db
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', 'new.hire@kabojja.test')
      .executeTakeFirstOrThrow();
    expect(account.password_hash).toBeNull();
    const pending = (await head.get('/api/users/invitations')).json().invitations.map((i: { id: string }) => i.id);
    expect(pending).toContain(invitation.id);
    // The invited person joins with the code alone and chooses the password.
    const token = await joinWithCode(t.app, invitation.code, 'Hires-Own-Pass-1');
    expect((await caller(t.app, token, school.tenantcode).get('/api/users/profile')).json().email).toBe('new.hire@kabojja.test');
    await expect(login(t.app, 'new.hire@kabojja.test', 'Senders-Pass-1')).rejects.toThrow();
  });

  it('refuses the sender accepting their own invitation from the banner', async () => {
    // An invitation whose sender is the invited account itself (as if sent to oneself): the banner refuses it.
    const person = await makeUser(t.database, { name: 'Self Sender', memberOf: [{ tenantId: neighbour.id, roles: ['teacher'] }] });
    const invitation = await invite({ name: 'Self Sender', email: person.email, roles: ['teacher'] });
    await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx.updateTable('invitations').set({ invited_by: person.id }).where('id', '=', invitation.id).execute(),
    );
    const mine = caller(t.app, await login(t.app, person.email));
    const accepted = await mine.post(`/auth/invitations/${invitation.id}/accept`, { code: invitation.code });
    expect(accepted.statusCode).toBe(403);
    expect(accepted.json().message).toBe('You sent this invitation: give its code to the person you invited, who joins with it');
    expect((await mine.in(school.tenantcode).get('/api/users/profile')).statusCode).toBe(403);
  });

  it('refuses a person who is already a member here', async () => {
    const member = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
    const again = await head.post('/api/users', { name: 'Someone Else', email: member.email, roles: [] });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.email).toEqual(['This person is already a member here']);
  });

  it('makes one invitation of the same request sent twice at once; inviting again gives a new code', async () => {
    const body = { name: 'Double Click', email: 'double.click@kabojja.test', roles: ['teacher'] };
    const [first, second] = await Promise.all([head.post('/api/users', body), head.post('/api/users', body)]);
    expect([first?.statusCode, second?.statusCode]).toEqual([200, 200]);
    expect(first?.json().id).toBe(second?.json().id);
    const later = await invite({ ...body, roles: ['bursar'] });
    expect(later.id).toBe(first?.json().id);
    expect(later.roles.map((role) => role.name)).toEqual(['bursar']);
    const users = await t.database.db.selectFrom('users').select('id').where('email', '=', 'double.click@kabojja.test').execute();
    expect(users).toHaveLength(1);
    const pending = (await head.get('/api/users/invitations')).json().invitations;
    expect(pending.filter((invitation: { email: string }) => invitation.email === body.email)).toHaveLength(1);
    // Only the latest code works, with the latest roles.
    for (const old of [first?.json().code, second?.json().code].filter((code) => code !== later.code)) {
      expect((await join(old, 'Chalk-and-Board-1')).statusCode).toBe(404);
    }
    const token = await joinWithCode(t.app, later.code, 'Chalk-and-Board-1');
    expect(
      (await caller(t.app, token, school.tenantcode).get('/api/users/profile')).json().roles.map((role: { name: string }) => role.name),
    ).toEqual(['bursar']);
  });

  it('joining twice at once makes one membership: one answer 200, the other 404', async () => {
    const invitation = await invite({ name: 'Quick Fingers', email: 'quick.fingers@kabojja.test', roles: ['teacher'] });
    const answers = await Promise.all([join(invitation.code, 'Chalk-and-Board-1'), join(invitation.code, 'Chalk-and-Board-1')]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 404]);
    const members = (await head.get('/api/users?search=quick.fingers')).json();
    expect(members.totalRecords).toBe(1);
    expect(members.users[0].roles.map((role: { name: string }) => role.name)).toEqual(['teacher']);
    // Not an id at all: refused by the route's schema.
    const person = caller(t.app, await login(t.app, 'quick.fingers@kabojja.test', 'Chalk-and-Board-1'));
    expect((await person.post('/auth/invitations/not-an-id/accept', { code: invitation.code })).statusCode).toBe(422);
  });

  it('withdraws an invitation: its code no longer works', async () => {
    const invitation = await invite({ name: 'Changed Mind', email: 'changed.mind@kabojja.test', roles: ['teacher'] });
    const withdrawn = await head.delete(`/api/users/invitations/${invitation.id}`);
    expect(withdrawn.json()).toEqual({ message: 'The invitation has been withdrawn' });
    expect((await head.delete(`/api/users/invitations/${invitation.id}`)).statusCode).toBe(404);
    expect((await join(invitation.code, 'Chalk-and-Board-1')).statusCode).toBe(404);
  });

  it('voids an invitation whose sender has since lost the right to send it', async () => {
    const sender = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['headteacher'] }] });
    const senderCaller = caller(t.app, await login(t.app, sender.email), school.tenantcode);
    const removedLater = await invite({ name: 'Back Door', email: 'back.door@kabojja.test', roles: ['headteacher'] }, senderCaller);
    const demotedLater = await invite({ name: 'Side Door', email: 'side.door@kabojja.test', roles: ['headteacher'] }, senderCaller);
    // Demoted to teacher: may no longer invite anyone; the invitation is void.
    const admin = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['superadmin'] }] });
    const adminCaller = caller(t.app, await login(t.app, admin.email), school.tenantcode);
    expect((await adminCaller.put(`/api/users/${sender.id}`, { roles: ['teacher'] })).statusCode).toBe(200);
    const voided = await join(demotedLater.code, 'Chalk-and-Board-1');
    expect(voided.statusCode).toBe(409);
    expect(voided.json().message).toBe('This invitation is no longer valid; ask the school to invite you again');
    // Nothing of that attempt stayed: the account still has no password, no membership.
    await expect(login(t.app, 'side.door@kabojja.test', 'Chalk-and-Board-1')).rejects.toThrow();
    // Removed from the school: the invitations they sent go with them.
    expect((await adminCaller.delete(`/api/users/${sender.id}`)).statusCode).toBe(200);
    expect((await join(removedLater.code, 'Chalk-and-Board-1')).statusCode).toBe(404);
    const pending = (await adminCaller.get('/api/users/invitations')).json().invitations.map((i: { email: string }) => i.email);
    expect(pending).not.toContain('back.door@kabojja.test');
  });

  it('does not let a head teacher overwrite an invitation that offers more than it may hand out', async () => {
    const admin = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['superadmin'] }] });
    const adminCaller = caller(t.app, await login(t.app, admin.email), school.tenantcode);
    const strong = await invite({ name: 'Future Admin', email: 'future.admin@kabojja.test', roles: ['superadmin'] }, adminCaller);
    expect((await head.delete(`/api/users/invitations/${strong.id}`)).statusCode).toBe(403);
    expect((await head.post('/api/users', { name: 'Future Admin', email: 'future.admin@kabojja.test', roles: [] })).statusCode).toBe(403);
    const token = await joinWithCode(t.app, strong.code, 'Chalk-and-Board-1');
    expect(
      (await caller(t.app, token, school.tenantcode).get('/api/users/profile')).json().roles.map((role: { name: string }) => role.name),
    ).toEqual(['superadmin']);
  });

  it('keeps invitations apart: another school cannot see or withdraw them, another person cannot accept them', async () => {
    const invitation = await invite({ name: 'Kept Apart', email: 'kept.apart@kabojja.test', roles: ['teacher'] });
    const neighbourAdmin = await makeUser(t.database, { memberOf: [{ tenantId: neighbour.id, roles: ['superadmin'] }] });
    const theirs = caller(t.app, await login(t.app, neighbourAdmin.email), neighbour.tenantcode);
    expect((await theirs.get('/api/users/invitations')).json().invitations.map((i: { id: string }) => i.id)).not.toContain(invitation.id);
    expect((await theirs.delete(`/api/users/invitations/${invitation.id}`)).statusCode).toBe(404);
    const stranger = caller(t.app, await login(t.app, neighbourAdmin.email));
    expect((await stranger.get('/auth/invitations')).json().invitations).toEqual([]);
    expect((await stranger.post(`/auth/invitations/${invitation.id}/accept`, { code: invitation.code })).statusCode).toBe(404);
    expect((await stranger.post(`/auth/invitations/${invitation.id}/decline`, { code: invitation.code })).statusCode).toBe(404);
    expect((await head.get('/api/users/invitations')).json().invitations.map((i: { id: string }) => i.id)).toContain(invitation.id);
    const token = await joinWithCode(t.app, invitation.code, 'Chalk-and-Board-1');
    expect((await caller(t.app, token, school.tenantcode).get('/api/users/profile')).statusCode).toBe(200);
  });

  it('refuses an unknown role and writes nothing', async () => {
    const response = await head.post('/api/users', {
      name: 'Ghost Role',
      email: 'ghost.role@kabojja.test',
      roles: ['janitor'],
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.roles[0]).toContain('janitor');
    const row = await t.database.db.selectFrom('users').select('id').where('email', '=', 'ghost.role@kabojja.test').executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it.each([
    [{ name: '' }, 'name', 'Please enter your name'],
    [{ name: 'Al' }, 'name', 'Too short'],
    [{ email: 'not-an-email' }, 'email', 'Invalid email'],
    [{ email: '' }, 'email', 'Please enter your email address'],
  ])('validates %j on %s', async (change, field, message) => {
    const response = await head.post('/api/users', {
      name: 'Valid Name',
      email: 'valid.person@kabojja.test',
      roles: [],
      ...change,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[field]).toEqual([message]);
  });

  it('changes a user’s roles, with an audit entry holding before and after', async () => {
    const person = await makeUser(t.database, { name: 'Ronald Role', memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
    const response = await head.put(`/api/users/${person.id}`, { roles: ['bursar', 'teacher'] });
    expect(response.statusCode).toBe(200);
    expect(response.json().roles.map((role: { name: string }) => role.name)).toEqual(['bursar', 'teacher']);
    const entries = await withTenant(t.database.db, { tenantId: school.id }, (trx) =>
      trx.selectFrom('audit_log').selectAll().where('entity', '=', 'user').where('entity_id', '=', person.id).execute(),
    );
    expect(entries).toHaveLength(1);
    const before = entries[0]?.before as { roles: Array<{ name: string }> };
    expect(before.roles.map((role) => role.name)).toEqual(['teacher']);
    const token = await login(t.app, person.email);
    expect((await caller(t.app, token, school.tenantcode).get('/api/users/profile')).json().permissions.student).toEqual(['manage']);
  });

  it('answers 404 for a user of another tenant, and changes nothing', async () => {
    const outsider = await makeUser(t.database, { memberOf: [{ tenantId: neighbour.id, roles: ['teacher'] }] });
    expect((await head.get(`/api/users/${outsider.id}`)).statusCode).toBe(404);
    expect((await head.put(`/api/users/${outsider.id}`, { roles: ['superadmin'] })).statusCode).toBe(404);
    const token = await login(t.app, outsider.email);
    const roles = (await caller(t.app, token, neighbour.tenantcode).get('/api/users/profile')).json().roles;
    expect(roles.map((role: { name: string }) => role.name)).toEqual(['teacher']);
  });

  it('removes a member from the school: their next request there is refused, their account stays', async () => {
    const leaver = await makeUser(t.database, {
      memberOf: [
        { tenantId: school.id, roles: ['teacher'] },
        { tenantId: neighbour.id, roles: ['teacher'] },
      ],
    });
    const api = caller(t.app, await login(t.app, leaver.email), school.tenantcode);
    expect((await api.get('/api/home/mustard')).statusCode).toBe(200);
    const response = await head.delete(`/api/users/${leaver.id}`);
    expect(response.statusCode).toBe(200);
    expect((await api.get('/api/home/mustard')).statusCode).toBe(403);
    expect((await api.in(neighbour.tenantcode).get('/api/home/mustard')).statusCode).toBe(200);
    expect((await head.get(`/api/users/${leaver.id}`)).statusCode).toBe(404);
    expect((await head.delete(`/api/users/${leaver.id}`)).statusCode).toBe(404);
  });

  it('does not let an administrator remove themselves', async () => {
    const me = (await head.get('/api/users/profile')).json();
    const response = await head.delete(`/api/users/${me.id}`);
    expect(response.statusCode).toBe(422);
    // Nor by their id in capitals, which names the same account (issue 23 item 5).
    expect((await head.delete(`/api/users/${me.id.toUpperCase()}`)).statusCode).toBe(422);
    expect((await head.get('/api/users')).statusCode).toBe(200);
  });

  it('does not let a head teacher strip or remove the administrator, or hand out rights it lacks', async () => {
    const admin = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['superadmin'] }] });
    expect((await head.put(`/api/users/${admin.id}`, { roles: ['teacher'] })).statusCode).toBe(403);
    expect((await head.delete(`/api/users/${admin.id}`)).statusCode).toBe(403);
    const adminToken = await login(t.app, admin.email);
    expect(
      (await caller(t.app, adminToken, school.tenantcode).get('/api/users/profile'))
        .json()
        .roles.map((role: { name: string }) => role.name),
    ).toEqual(['superadmin']);
    const before = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'would.be.admin@kabojja.test')
      .executeTakeFirst();
    expect(before).toBeUndefined();
    const created = await head.post('/api/users', {
      name: 'Would Be Admin',
      email: 'would.be.admin@kabojja.test',
      roles: ['superadmin'],
    });
    expect(created.statusCode).toBe(403);
    const after = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'would.be.admin@kabojja.test')
      .executeTakeFirst();
    expect(after).toBeUndefined();
  });

  it('finds members by name or e-mail, and downloads the list with excel=1, roles in one cell', async () => {
    await makeUser(t.database, {
      name: 'Zakayo Mukasa',
      email: 'zakayo.mukasa@kabojja.test',
      memberOf: [{ tenantId: school.id, roles: ['teacher', 'bursar'] }],
    });
    const found = await head.get('/api/users?search=MUKASA@');
    expect(found.statusCode).toBe(200);
    expect(found.json().users.map((user: { name: string }) => user.name)).toEqual(['Zakayo Mukasa']);
    expect((await head.get('/api/users?search=zakayo')).json().totalRecords).toBe(1);

    const response = await head.get('/api/users?excel=1&search=zakayo');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toMatch(EXCEL_ATTACHMENT);
    expect(valuesOf(await workbookOf(response), 3)).toEqual([
      ['Name', 'Email', 'Roles'],
      ['Zakayo Mukasa', 'zakayo.mukasa@kabojja.test', 'bursar, teacher'],
    ]);
  });

  it('offers the school’s roles for the member form, marking those the asker may not hand out', async () => {
    const response = await head.get('/api/users/roles');
    expect(response.statusCode).toBe(200);
    const roles = response.json().roles as Array<{ id: string; name: string; grantable: boolean }>;
    const byName = Object.fromEntries(roles.map((role) => [role.name, role.grantable]));
    // A head teacher hands out teacher, never superadmin (the rule the writes enforce).
    expect(byName).toMatchObject({ teacher: true, superadmin: false, headteacher: true });
    expect(roles.map((role) => role.name)).toEqual([...roles.map((role) => role.name)].sort());
    // What the form offers as grantable is what a write accepts, and the rest is refused.
    const member = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
    for (const role of roles) {
      const answer = await head.put(`/api/users/${member.id}`, { roles: [role.name] });
      expect(answer.statusCode, `${role.name}: ${answer.body}`).toBe(role.grantable ? 200 : 403);
    }
    // Another school's roles are its own: their ids never appear here.
    const neighbourRoles = await withTenant(t.database.db, { tenantId: neighbour.id }, (trx) =>
      trx.selectFrom('roles').select('id').execute(),
    );
    const ids = new Set(roles.map((role) => role.id));
    expect(neighbourRoles.length).toBeGreaterThan(0);
    for (const role of neighbourRoles) expect(ids.has(role.id)).toBe(false);
  });

  it('is closed to teachers: 403', async () => {
    const teacher = await makeUser(t.database, { memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
    const api = caller(t.app, await login(t.app, teacher.email), school.tenantcode);
    expect((await api.get('/api/users')).statusCode).toBe(403);
    expect((await api.get('/api/users/invitations')).statusCode).toBe(403);
    expect((await api.get('/api/users/roles')).statusCode).toBe(403);
    expect((await api.get('/api/users?excel=1')).statusCode).toBe(403);
    expect((await api.post('/api/users', { name: 'Sneaky', email: 'sneaky@kabojja.test', roles: ['superadmin'] })).statusCode).toBe(403);
  });
});
