import type { Endpoint } from '@mustard/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { type TenantTx, withTenantTx } from '../db/tenant.js';
import { tenantScope } from './access.js';

type Output<Schema> = Schema extends z.ZodType ? z.output<Schema> : undefined;

/** A route's validated input, typed by its contract. */
export interface EndpointRequestInput<E extends Endpoint> {
  params: Output<E['params']>;
  query: Output<E['query']>;
  body: Output<E['body']>;
}

type Answer<E extends Endpoint> = E['response'] extends z.ZodType ? z.input<E['response']> : unknown;

/**
 * Registers a route from its contract (packages/shared endpoints): method, path, access and
 * schemas come from the one declaration the web calls too.
 */
export function endpointRoute<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: (input: EndpointRequestInput<E>, request: FastifyRequest, reply: FastifyReply) => Promise<Answer<E> | FastifyReply>,
): void {
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    config: { access: endpoint.access },
    schema: {
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body && !endpoint.multipart ? { body: endpoint.body } : {}),
      ...(endpoint.response === 'file' ? {} : { response: { 200: endpoint.response } }),
    },
    handler: (request, reply) =>
      handler({ params: request.params, query: request.query, body: request.body } as EndpointRequestInput<E>, request, reply),
  });
}

/**
 * A tenant route from its contract: one user action, one transaction bound to the selected
 * tenant, handed to the service as a `TenantTx`.
 */
export function tenantEndpointRoute<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: (tx: TenantTx, input: EndpointRequestInput<E>, request: FastifyRequest) => Promise<Answer<E>>,
): void {
  endpointRoute(app, endpoint, (input, request) =>
    withTenantTx(app.database.db, tenantScope(request), (tx) => handler(tx, input, request)),
  );
}
