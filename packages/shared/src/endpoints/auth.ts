import type { Endpoint } from './definition.js';
import type { homeEndpoint, homeSetupEndpoint } from './home.js';
import type {
  acceptInvitationEndpoint,
  authTypeEndpoint,
  declineInvitationEndpoint,
  loginEndpoint,
  logoutEndpoint,
  myInvitationsEndpoint,
  notifyMeEndpoint,
  profileEndpoint,
  redeemCodeEndpoint,
} from './users.js';

/*
 * Routes for pages that cannot carry the schema library. The sign-in page and the signed-in
 * frame (profile, logout, the invitations banner) are in the cold loads that have a budget
 * (`npm run bench`: /login <= 150 KB, /dashboard <= 250 KB gzipped), and zod with the schemas is
 * 25 KB more. They call these with `callRoute` (web), which sends by the contract and does not
 * parse the answer. This file imports the contracts (users.ts) as types only: a module that held
 * both a route and a contract would bring the contract's schemas wherever the route went, as soon
 * as any page parsed with that contract.
 */

/** An endpoint's method and path without its schemas, typed by the endpoint. */
export interface EndpointRoute<E extends Endpoint> {
  readonly method: E['method'];
  readonly path: string;
  /** Never set: carries the endpoint's type to the call. */
  readonly endpoint?: E;
}

export const authTypeRoute: EndpointRoute<typeof authTypeEndpoint> = { method: 'POST', path: '/auth/type' };
export const loginRoute: EndpointRoute<typeof loginEndpoint> = { method: 'POST', path: '/auth/login' };
export const redeemCodeRoute: EndpointRoute<typeof redeemCodeEndpoint> = { method: 'POST', path: '/auth/redeemcode' };
export const logoutRoute: EndpointRoute<typeof logoutEndpoint> = { method: 'POST', path: '/auth/logout' };
/** Coming Soon's page carries no validation library either: the server checks the address. */
export const notifyMeRoute: EndpointRoute<typeof notifyMeEndpoint> = { method: 'POST', path: '/auth/notify' };
export const profileRoute: EndpointRoute<typeof profileEndpoint> = { method: 'GET', path: '/api/users/profile' };
export const myInvitationsRoute: EndpointRoute<typeof myInvitationsEndpoint> = { method: 'GET', path: '/auth/invitations' };
export const acceptInvitationRoute: EndpointRoute<typeof acceptInvitationEndpoint> = {
  method: 'POST',
  path: '/auth/invitations/:id/accept',
};
export const declineInvitationRoute: EndpointRoute<typeof declineInvitationEndpoint> = {
  method: 'POST',
  path: '/auth/invitations/:id/decline',
};
/** The dashboard (in its cold load too): the counts, and a new school's setup checklist. */
export const homeRoute: EndpointRoute<typeof homeEndpoint> = { method: 'GET', path: '/api/home/mustard' };
export const homeSetupRoute: EndpointRoute<typeof homeSetupEndpoint> = { method: 'GET', path: '/api/home/setup' };
