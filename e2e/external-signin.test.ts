import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTenant, makeUser } from '../apps/server/src/test/factories.js';
import { startOpenIdProvider, type TestOpenIdProvider } from '../apps/server/src/test/openid-provider.js';
import { DEMO_PASSWORD, type Harness, useHarness } from './harness.js';

/*
 * External sign-in in the browser (issue 29 point 6): a platform administrator sets a school's
 * domain on the Sign-in domains screen, then a teacher of that domain signs in at the school's
 * OpenID provider (a real one, started here) and lands on the dashboard; a sign-in that comes
 * back refused is explained on /login.
 */

const DOMAIN = 'e2e-sso.ug';
let h: Harness;
let provider: TestOpenIdProvider;
let school: { id: string; tenantcode: string };

beforeAll(async () => {
  h = await useHarness();
  // The provider sends the browser back to the server's PUBLIC_URL (the tests' http://mustard.test).
  provider = await startOpenIdProvider(`${h.app.config.publicUrl}/auth/external/callback`);
  school = await makeTenant(h.database, { name: 'E2E Sign-in School' });
});

const proxies: Server[] = [];

afterAll(async () => {
  await provider?.close();
  for (const proxy of proxies) proxy.close();
});

/**
 * A browser context that reaches the test server at its PUBLIC_URL (http://mustard.test in tests),
 * as people reach a deployment: through a proxy of this test that sends that host's requests to
 * the server and every other request (the provider's) where it was going.
 */
async function contextAtPublicUrl() {
  const publicHost = new URL(h.app.config.publicUrl).host;
  const proxy = createServer((request, response) => {
    // A proxy is asked for absolute URLs: PUBLIC_URL's host is the test server, any other itself.
    const wanted = new URL(request.url ?? '/');
    const target = wanted.host === publicHost ? new URL(h.url) : wanted;
    const forward = httpRequest(
      { host: target.hostname, port: target.port, method: request.method, path: wanted.pathname + wanted.search, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forward.on('error', () => response.destroy());
    request.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxies.push(proxy);
  return h.browser.newContext({
    baseURL: h.app.config.publicUrl,
    viewport: { width: 1280, height: 800 },
    proxy: { server: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` },
  });
}

describe('external sign-in', () => {
  it('a platform administrator sets the domain; its teacher signs in at the school’s provider and lands on the dashboard', async () => {
    const admin = await makeUser(h.database, {
      isAdmin: true,
      password: DEMO_PASSWORD,
      memberOf: [{ tenantId: school.id, roles: ['headteacher'] }],
    });
    const adminPage = await h.signedIn(admin.email, { school: school.tenantcode, path: '/dashboard' });
    await adminPage.getByTestId('user-menu').click();
    await adminPage.getByRole('menuitem', { name: 'Sign-in domains' }).click();
    await adminPage.getByTestId('signin-domains').waitFor();
    await adminPage.getByRole('button', { name: 'Add a domain' }).click();
    await adminPage.getByLabel('Domain').fill(DOMAIN);
    await adminPage.getByLabel('Issuer').fill(provider.issuer);
    await adminPage.getByLabel('Client ID').fill(provider.clientId);
    await adminPage.getByLabel('Client secret').fill(provider.clientSecret);
    await adminPage.getByRole('button', { name: 'Save' }).click();
    await adminPage.locator(`tr[data-domain="${DOMAIN}"]`).waitFor();
    await expect(adminPage.getByTestId('signin-domains').textContent()).resolves.not.toContain(provider.clientSecret);
    await adminPage.context().close();

    const teacher = await makeUser(h.database, { email: `teacher@${DOMAIN}`, memberOf: [{ tenantId: school.id, roles: ['teacher'] }] });
    provider.accounts.set('e2e-teacher', { email: teacher.email, email_verified: true });
    const context = await contextAtPublicUrl();
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill(teacher.email);
    await page.getByRole('button', { name: 'Continue' }).click();
    // The provider's own sign-in form.
    await page.waitForURL(`${provider.issuer}/**`);
    await page.locator('input[name="login"]').fill('e2e-teacher');
    await page.locator('input[name="password"]').fill('any');
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/dashboard');
    await page.getByTestId('school-widget').waitFor();
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('mustard.user') ?? '{}'));
    expect(stored.email).toBe(teacher.email);
    await context.close();
  });

  it('says why, in the person’s language, when the provider’s sign-in was refused here', async () => {
    const context = await contextAtPublicUrl();
    const page = await context.newPage();
    await page.goto('/login?external=account');
    await expect(page.getByTestId('login-alert').textContent()).resolves.toBe(
      'There is no Mustard account for this e-mail address. Ask your school to invite you.',
    );
    await page.evaluate(() => localStorage.setItem('mustard.language', 'gr'));
    await page.goto('/login?external=unverified');
    await page.getByTestId('login-alert').getByText('Ihre Organisation hat Ihre E-Mail-Adresse nicht bestätigt').waitFor();
    await context.close();
  });
});
