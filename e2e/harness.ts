import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { buildApp } from '../apps/server/src/app.js';
import { type Database, openDatabase } from '../apps/server/src/db/connect.js';
import { seedDemo } from '../apps/server/src/seed/demo.js';
import { startTestSmtp, type TestSmtp } from '../apps/server/src/test/smtp.js';
import { testConfig } from '../apps/server/src/test/test-app.js';

/**
 * The real server (the same buildApp, real HTTP, the built web app) on a fresh embedded
 * database with the demo, and Debian's Chromium driven by Playwright, as a person uses it.
 * The server runs in the test's own process so a test can reach the database (to issue a
 * sign-in code, say) without a second process on the data directory.
 *
 * The browser tests share one harness for the whole run (`useHarness`): one server, one
 * database, one browser, each test in its own browser context. So a test leaves the demo as it
 * found it wherever another test looks (it makes its own people and schools, or asserts what the
 * database holds rather than the demo's first numbers), and any file may run first.
 */
export const DEMO_PASSWORD = 'Mustard@2026';
export const ADMIN = 'admin@mustard.demo';
export const TEACHER = 'teacher@mustard.demo';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The browser: CHROMIUM_PATH when set, else Debian's headless shell when installed (`apt-get
 * install chromium-headless-shell`: the old headless Chromium, without the browser's own UI,
 * which Playwright itself uses for headless runs; the accessibility file took 111 s with it
 * against 137 s, its CPU a third less), else Chromium.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const CHROMIUM = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

/** The dashboard has drawn: a school's card, a business's, or the note for a person in no school yet. */
const DASHBOARD_READY = '[data-testid="school-widget"], [data-testid="business-widget"], [data-testid="no-school"]';

export interface SignedInOptions {
  width?: number;
  height?: number;
  /** The tenant code of the school to work in; else the first of the person's, as the login page picks. */
  school?: string;
  /** Defaults to the demo's password. */
  password?: string;
  /** The page to open first instead of the dashboard, whose drawing is then not waited for. */
  path?: string;
  /**
   * A session of the test's own instead of the stored one: for a test that ends it (signs out,
   * revokes it), which would sign every later test out too.
   */
  ownSession?: boolean;
}

export interface Harness {
  url: string;
  /** The run's mail server: every message the server sends (a sign-up's link, say) arrives here, parsed. */
  smtp: TestSmtp;
  app: FastifyInstance;
  database: Database;
  browser: Browser;
  newContext(options?: { width?: number; height?: number }): Promise<BrowserContext>;
  /**
   * A new browser context on the dashboard (or `path`), signed in as `email` in `school` (a
   * tenant code) when given. The sign-in state is stored: the first call for a person and school signs in through
   * the API exactly as the login page does (login, then the chosen school's profile, kept in
   * local storage), and later calls start from that state. Signing in through the screen is
   * e2e/sign-in.test.ts's subject; the other tests need only to be signed in.
   */
  signedIn(email: string, options?: SignedInOptions): Promise<Page>;
  close(): Promise<void>;
}

type StoredSession = Array<{ name: string; value: string }>;

/** A harness of its own: the benchmark's. Tests share one through useHarness. */
export async function startHarness(): Promise<Harness> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mustard-e2e-'));
  const smtp = await startTestSmtp();
  const config = testConfig({
    dataDir,
    webDist: path.join(ROOT, 'apps', 'web', 'dist'),
    authRateLimitPerMinute: 1000,
    smtpUrl: smtp.url,
    efrisFake: true,
  });
  const database = await openDatabase(config, { migrate: true });
  await seedDemo(database, DEMO_PASSWORD);
  const app = await buildApp(config, database, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const newContext = ({ width = 1280, height = 800 } = {}) => browser.newContext({ baseURL: url, viewport: { width, height } });

  /** What the login page keeps after signing in (apps/web/src/lib/auth.tsx, completeSignIn). */
  async function signInByApi(email: string, password: string, school: string | undefined): Promise<StoredSession> {
    const login = await app.inject({ method: 'POST', url: '/auth/login', payload: { user: { email, password } } });
    if (login.statusCode !== 200) throw new Error(`signing in ${email}: ${login.statusCode} ${login.body}`);
    const token = (login.headers.authorization as string).replace(/^Bearer /, '');
    const answer = login.json() as { tenants: Array<{ id: string; tenantcode: string }> };
    const tenant = school === undefined ? answer.tenants[0] : answer.tenants.find((candidate) => candidate.tenantcode === school);
    if (school !== undefined && !tenant) throw new Error(`${email} is not a member of ${school}`);
    if (!tenant) return [session('token', token), session('user', JSON.stringify(answer))];
    const profile = await app.inject({
      method: 'GET',
      url: '/api/users/profile',
      headers: { authorization: `Bearer ${token}`, tenantcode: tenant.tenantcode },
    });
    if (profile.statusCode !== 200) throw new Error(`the profile of ${email} in ${tenant.tenantcode}: ${profile.statusCode}`);
    return [session('token', token), session('user', profile.body), session('tenant', JSON.stringify(profile.json().tenant ?? tenant))];
  }

  const stored = new Map<string, Promise<StoredSession>>();
  const storedSession = (email: string, password: string, school: string | undefined) => {
    const key = JSON.stringify([email, password, school]);
    let found = stored.get(key);
    if (!found) {
      found = signInByApi(email, password, school);
      found.catch(() => stored.delete(key));
      stored.set(key, found);
    }
    return found;
  };
  // The demo accounts' first school is taken now, from the demo as seeded, so that a school a
  // test adds for them later cannot change where `signedIn(ADMIN)` starts.
  await Promise.all([ADMIN, TEACHER].map((email) => storedSession(email, DEMO_PASSWORD, undefined)));

  return {
    url,
    smtp,
    app,
    database,
    browser,
    newContext,
    signedIn: async (email, { width, height, school, password = DEMO_PASSWORD, ownSession = false, path } = {}) => {
      const localStorage = await (ownSession ? signInByApi(email, password, school) : storedSession(email, password, school));
      const context = await browser.newContext({
        baseURL: url,
        viewport: { width: width ?? 1280, height: height ?? 800 },
        storageState: { cookies: [], origins: [{ origin: url, localStorage }] },
      });
      context.on('page', watchErrors);
      const page = await context.newPage();
      await page.goto(path ?? '/dashboard');
      if (path === undefined) await page.locator(DASHBOARD_READY).first().waitFor();
      return page;
    },
    close: async () => {
      await browser.close();
      await app.close();
      await database.close();
      await smtp.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function session(key: 'token' | 'user' | 'tenant', value: string) {
  return { name: `mustard.${key}`, value };
}

/**
 * Where the run's harness is kept: on globalThis, so that e2e/environment.ts, which Vitest loads
 * apart from the tests' modules, can close it at the end of the run.
 */
export const HARNESS_KEY = Symbol.for('mustard.e2e.harness');
const registry = globalThis as unknown as Record<symbol, Promise<Harness> | undefined>;

/**
 * The harness of this run, started by the first test file that asks for it and closed when the
 * run ends (e2e/environment.ts). The e2e project runs its files one after another in one process
 * (isolate: false in vitest.config.ts), so every file gets the same one.
 */
export function useHarness(): Promise<Harness> {
  registry[HARNESS_KEY] ??= startHarness();
  return registry[HARNESS_KEY];
}

/** Closes the browser contexts still open (e2e/setup.ts, after each file): a failed test leaves its own. */
export async function closeOpenContexts(): Promise<void> {
  const harness = await registry[HARNESS_KEY]?.catch(() => undefined);
  await Promise.all((harness?.browser.contexts() ?? []).map((context) => context.close()));
}

/** What every open page shows: its address, its visible text (cut short) and the errors it raised. */
export async function describeOpenPages(): Promise<string> {
  const harness = await registry[HARNESS_KEY]?.catch(() => undefined);
  const pages = (harness?.browser.contexts() ?? []).flatMap((context) => context.pages());
  const described = await Promise.all(
    pages.map(async (page) => {
      const text = await page
        .locator('body')
        .innerText({ timeout: 2_000 })
        .catch((error: Error) => `(no text: ${error.message})`);
      const errors = pageErrors.get(page) ?? [];
      return [`--- ${page.url()}`, text.slice(0, 3_000), ...errors.map((error) => `page error: ${error}`)].join('\n');
    }),
  );
  return ['Open pages at the failure:', ...described].join('\n');
}

/** Uncaught errors, console errors, server errors and failed requests per page, for describeOpenPages. */
const pageErrors = new WeakMap<Page, string[]>();
function watchErrors(page: Page): void {
  const errors: string[] = [];
  pageErrors.set(page, errors);
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('response', (response) => {
    if (response.status() >= 500) errors.push(`${response.request().method()} ${response.url()}: ${response.status()}`);
  });
  page.on('requestfailed', (request) => errors.push(`${request.method()} ${request.url()}: ${request.failure()?.errorText}`));
}

/** Signs in through the login page, as a person does. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** Calls the API from the signed-in page, as the web app does (its token and school). */
export async function callApi(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; data: unknown }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const token = localStorage.getItem('mustard.token');
      const tenant = JSON.parse(localStorage.getItem('mustard.tenant') ?? '{}');
      const response = await fetch(path, {
        method,
        headers: { authorization: `Bearer ${token}`, tenantcode: tenant.tenantcode, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, data: await response.json() };
    },
    { method, path, body },
  );
}

/**
 * Picks an option of a multi-select the way a person does when its choices are still on their
 * way: click the box, and if the option is not there after a moment, click again (a select
 * whose choices arrive after the click stays closed). The pills box around the input takes the
 * click, hence `force`.
 */
export async function pickOption(page: Page, box: Locator, name: string): Promise<void> {
  const option = page.getByRole('option', { name, exact: true });
  for (let attempt = 0; attempt < 10; attempt++) {
    await box.click({ force: true });
    const shown = await option.waitFor({ timeout: 3_000 }).then(
      () => true,
      () => false,
    );
    if (shown) break;
  }
  await option.click();
}
