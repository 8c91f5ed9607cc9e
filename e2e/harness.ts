import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { buildApp } from '../apps/server/src/app.js';
import { type Database, openDatabase } from '../apps/server/src/db/connect.js';
import { seedDemo } from '../apps/server/src/seed/demo.js';
import { testConfig } from '../apps/server/src/test/test-app.js';

/**
 * The real server (the same buildApp, real HTTP, the built web app) on a fresh embedded
 * database with the demo, and Debian's Chromium driven by Playwright, as a person uses it.
 * The server runs in the test's own process so a test can reach the database (to issue a
 * sign-in code, say) without a second process on the data directory.
 */
export const DEMO_PASSWORD = 'Mustard@2026';
export const ADMIN = 'admin@mustard.demo';
export const TEACHER = 'teacher@mustard.demo';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The tenant code the browser has selected, as an expression run in the page (text, so that the
 * benchmark, compiled without the DOM's types, can share this file).
 */
const SELECTED_SCHOOL = "JSON.parse(localStorage.getItem('mustard.tenant') ?? '{}').tenantcode";

/** The dashboard has drawn its tenant: a school's card, or a business's. */
const DASHBOARD_READY = '[data-testid="school-widget"], [data-testid="business-widget"]';

export interface Harness {
  url: string;
  app: FastifyInstance;
  database: Database;
  browser: Browser;
  newContext(options?: { width?: number; height?: number }): Promise<BrowserContext>;
  /**
   * A new browser context signed in as `email` through the login page, on the dashboard; in
   * `school` (a tenant code) when given, switched to as a person does.
   */
  signedIn(email: string, options?: { width?: number; height?: number; school?: string }): Promise<Page>;
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mustard-e2e-'));
  const config = testConfig({ dataDir, webDist: path.join(ROOT, 'apps', 'web', 'dist'), authRateLimitPerMinute: 1000 });
  const database = await openDatabase(config, { migrate: true });
  await seedDemo(database, DEMO_PASSWORD);
  const app = await buildApp(config, database, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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
  return {
    url,
    app,
    database,
    browser,
    newContext,
    signedIn: async (email, options) => {
      const page = await (await newContext(options)).newPage();
      await page.goto('/login');
      await signIn(page, email);
      await page.waitForURL('**/dashboard');
      await page.locator(DASHBOARD_READY).first().waitFor();
      const current = await page.evaluate(SELECTED_SCHOOL);
      if (options?.school && current !== options.school) {
        await page.getByTestId('school-switcher').click();
        await page.locator(`[data-tenant="${options.school}"]`).click();
        await page.waitForFunction(`(${SELECTED_SCHOOL}) === ${JSON.stringify(options.school)}`);
        await page.locator(DASHBOARD_READY).first().waitFor();
      }
      return page;
    },
    close: async () => {
      await browser.close();
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs in through the login page, as a person does. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}
