import { ERROR_MESSAGES, routeTenantKind, SUPERADMIN_ROLE, TENANT_HEADER, type TenantKind } from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../db/ids.js';
import { type AppRoute, appRoutes } from '../test/app-routes.js';
import { makeTenant, makeUser } from '../test/factories.js';
import { buildTestApp, type Caller, caller, login, type TestApp } from '../test/test-app.js';

/**
 * The wall between schools and businesses (issue 31: "a school tenant never sees business routes,
 * and the reverse"; packages/shared/src/tenant-kinds.ts, checked in plugins/access.ts). Read from
 * the app's own route table, so a route added under /api is checked without a word here:
 * - every /api route is classed school, business or shared (an unclassed one fails, by name);
 * - one person, superadmin of a school and of a business (so no permission is what refuses),
 *   asks every route of the other kind, every method, and gets the catalogue's 404, as for a
 *   route that is not there; a record route is asked with an id that exists nowhere, and a
 *   write with an empty body, since the wall answers before the body or the id are read;
 * - the same person's lists of their own kind and the shared lists are not refused so.
 */

const NOT_FOUND = { statusCode: 404, message: ERROR_MESSAGES[404] };
/** Lists that answer their own tenant 404 while it has nothing to show, with the reason. */
const EMPTY_404: Record<string, string> = {
  'GET /api/school/logo': 'a new school has no badge yet',
};
/** A list's answer to a member of its own kind: 200, or a 4xx for a query it needs; never a 404 (bar EMPTY_404) nor a failure. */
const refusedLikeTheWall = (route: AppRoute, status: number) => (status === 404 && !(route.key in EMPTY_404)) || status >= 500;

let t: TestApp;
let api: AppRoute[];
let token: string;
/** The same superadmin, working in the school and in the business. */
const as = {} as Record<TenantKind, Caller>;
const tenantcodes = {} as Record<TenantKind, string>;

beforeAll(async () => {
  t = await buildTestApp();
  api = (await appRoutes(t.config, t.database)).filter((route) => route.url === '/api' || route.url.startsWith('/api/'));
  const school = await makeTenant(t.database);
  const business = await makeTenant(t.database, { tenantcode: `shop-${newId().slice(0, 8)}`, name: 'Corner Shop', category: 'Retail' });
  const user = await makeUser(t.database, {
    memberOf: [
      { tenantId: school.id, roles: [SUPERADMIN_ROLE] },
      { tenantId: business.id, roles: [SUPERADMIN_ROLE] },
    ],
  });
  token = await login(t.app, user.email);
  tenantcodes.school = school.tenantcode;
  tenantcodes.business = business.tenantcode;
  as.school = caller(t.app, token, school.tenantcode);
  as.business = caller(t.app, token, business.tenantcode);
});
afterAll(() => t?.close());

/** The route's URL with each parameter an id no tenant has. */
const concrete = (url: string) => url.replace(/:[A-Za-z_]+/g, () => newId());
const other = (kind: TenantKind): TenantKind => (kind === 'school' ? 'business' : 'school');

/** Every method alike, as the web app sends it; a write with an empty JSON body. */
function ask(kind: TenantKind, route: AppRoute) {
  const writes = route.method !== 'GET' && route.method !== 'HEAD' && route.method !== 'DELETE';
  return t.app.inject({
    method: route.method as 'GET',
    url: concrete(route.url),
    headers: { authorization: `Bearer ${token}`, [TENANT_HEADER]: tenantcodes[kind] },
    ...(writes ? { payload: {} } : {}),
  });
}

describe('the route table', () => {
  it('has the /api routes of both kinds', () => {
    expect(api.length).toBeGreaterThan(60);
    expect(api.some((route) => routeTenantKind(route.url) === 'school')).toBe(true);
    expect(api.some((route) => routeTenantKind(route.url) === 'business')).toBe(true);
    expect(api.some((route) => routeTenantKind(route.url) === null)).toBe(true);
  });

  it('classes every /api route as school, business or shared', () => {
    expect(api.filter((route) => routeTenantKind(route.url) === undefined).map((route) => route.key)).toEqual([]);
  });
});

for (const kind of ['business', 'school'] as const) {
  describe(`a ${other(kind)}'s member on the ${kind} routes`, () => {
    it(`answers 404 to every ${kind} route, every method, as for a route that is not there`, async () => {
      const routes = api.filter((route) => routeTenantKind(route.url) === kind);
      const answers: string[] = [];
      for (const route of routes) {
        const response = await ask(other(kind), route);
        if (response.statusCode !== 404) answers.push(`${route.key}: ${response.statusCode} ${response.body.slice(0, 120)}`);
        else if (route.method !== 'HEAD') expect(response.json(), route.key).toEqual(expect.objectContaining(NOT_FOUND));
      }
      expect(answers).toEqual([]);
    });
  });
}

describe('the routes of each kind and the shared ones, to their own members', () => {
  it("a school's lists answer the school, the shared lists both (the 404s above are the wall's)", async () => {
    for (const kind of ['school', null] as const) {
      const lists = api.filter((route) => route.method === 'GET' && !route.url.includes(':') && routeTenantKind(route.url) === kind);
      expect(lists.length, String(kind)).toBeGreaterThan(0);
      for (const who of kind === 'school' ? [as.school] : [as.school, as.business]) {
        for (const route of lists) {
          const response = await who.get(route.url);
          expect(refusedLikeTheWall(route, response.statusCode), `${route.key}: ${response.statusCode} ${response.body}`).toBe(false);
        }
      }
    }
  });

  it("a business's lists answer the business", async () => {
    const lists = api.filter((route) => route.method === 'GET' && !route.url.includes(':') && routeTenantKind(route.url) === 'business');
    for (const route of lists) {
      const response = await as.business.get(route.url);
      expect(refusedLikeTheWall(route, response.statusCode), `${route.key}: ${response.statusCode} ${response.body}`).toBe(false);
    }
  });
});
