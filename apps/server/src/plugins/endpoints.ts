import type { RateLimitOptions } from '@fastify/rate-limit';
import {
  type AppAbility,
  classOptions,
  type Endpoint,
  type FileField,
  INPUT_MESSAGES,
  isTextOnly,
  type RoleWithPermissions,
  STUDENT_MESSAGES,
} from '@mustard/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { type TenantTx, withTenantTx } from '../db/tenant.js';
import type { TenantRow } from '../db/types.js';
import { AppError, type FieldErrors, invalid } from '../errors.js';
import { currentTenant, currentUser, tenantScope } from './access.js';
import { parseFields, readForm, type UploadedFile } from './multipart.js';
import type { School } from './school.js';

type Output<Schema> = Schema extends z.ZodType ? z.output<Schema> : undefined;

/** A route's validated input, typed by its contract. */
export interface EndpointRequestInput<E extends Endpoint> {
  params: Output<E['params']>;
  query: Output<E['query']>;
  body: Output<E['body']>;
  /** The multipart body's file: present when the contract requires it, else perhaps null. */
  file: E['file'] extends { required: true } ? UploadedFile : E['file'] extends FileField ? UploadedFile | null : undefined;
}

/** A file to send (a spreadsheet, a PDF, a photo): its name for the browser, its type, its bytes. */
export class FileAnswer {
  constructor(
    readonly fileName: string | null,
    readonly contentType: string,
    readonly body: Buffer | NodeJS.ReadableStream,
  ) {}
}

export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Sends the browser to another page of this site: the answer of a route a browser is sent to
 * rather than one the web app calls (the OpenID provider's return), whose contract answers 'file'.
 */
export class RedirectAnswer {
  constructor(readonly location: string) {}
}

/** A spreadsheet download named `fileName`. */
export const spreadsheetAnswer = (fileName: string, body: Buffer) => new FileAnswer(fileName, XLSX, body);

type JsonAnswer<E extends Endpoint> = E['response'] extends z.ZodType ? z.input<E['response']> : never;
/** What a handler gives back: the JSON the contract promises, or a file where the contract answers one. */
export type Answer<E extends Endpoint> =
  | JsonAnswer<E>
  | (E['response'] extends 'file'
      ? FileAnswer | RedirectAnswer
      : E['spreadsheet'] extends true
        ? FileAnswer
        : E['download'] extends true
          ? FileAnswer
          : never);

/**
 * A multipart (or JSON) body: the text fields checked by the contract's schema and the file
 * from its field; a missing required file, and a field that takes text only but came as a JSON
 * number or flag, are named in the same 422 as the fields at fault.
 */
async function readUpload(request: FastifyRequest, endpoint: Endpoint, upload: FileField) {
  const form = await readForm(request);
  const { [upload.field]: _sentAsText, ...fields } = form.fields;
  const file = form.file?.field === upload.field ? form.file : null;
  const refused: FieldErrors = upload.required && !file ? { [upload.field]: [STUDENT_MESSAGES.fileRequired] } : {};
  // A name sent in JSON as `true` or `5` is no name (shared textOnly): refused by name, not stored as "true".
  const shape = (endpoint.body as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
  for (const key of form.notText) if (isTextOnly(shape[key])) refused[key] = [INPUT_MESSAGES.textExpected];
  let body: unknown = fields;
  if (endpoint.body) {
    try {
      body = parseFields(endpoint.body, fields);
    } catch (error) {
      if (error instanceof AppError && error.errors) throw invalid({ ...error.errors, ...refused });
      throw error;
    }
  }
  if (Object.keys(refused).length > 0) throw invalid(refused);
  return { body, file };
}

/** How a route is served beyond its contract. */
export interface RouteOptions {
  /** Calls a client address may make in a time window, counted for this route alone (@fastify/rate-limit). */
  rateLimit?: Pick<RateLimitOptions, 'max' | 'timeWindow'>;
}

/**
 * Registers a route from its contract (packages/shared endpoints): method, path, access and
 * schemas come from the one declaration the web calls too. JSON bodies are checked by Fastify
 * with the body schema; a multipart body by `readUpload`; a file answer is sent as it is.
 */
export function endpointRoute<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: (input: EndpointRequestInput<E>, request: FastifyRequest, reply: FastifyReply) => Promise<Answer<E>>,
  options: RouteOptions = {},
): void {
  const upload = endpoint.file;
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    config: { access: endpoint.access, ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}) },
    schema: {
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body && !upload ? { body: endpoint.body } : {}),
      // A list that can also answer a spreadsheet is not serialised by schema (the file is bytes).
      ...(endpoint.response === 'file' ? {} : { response: { 200: endpoint.response } }),
    },
    handler: async (request, reply) => {
      const { body, file } = upload ? await readUpload(request, endpoint, upload) : { body: request.body, file: undefined };
      const input = { params: request.params, query: request.query, body, file } as EndpointRequestInput<E>;
      const answer = await handler(input, request, reply);
      if (answer instanceof RedirectAnswer) return reply.redirect(answer.location, 302);
      if (!(answer instanceof FileAnswer)) return answer;
      reply.header('content-type', answer.contentType);
      if (answer.fileName) reply.header('content-disposition', `attachment; filename="${answer.fileName}"`);
      // Bytes and streams go out as they are; the response schema serialises JSON only.
      return reply.send(answer.body);
    },
  });
}

/** The signed-in member acting in the school: who they are and what their roles there allow. */
export interface ActingMember {
  /** The user's id (also the transaction's `app.user_id`, `TenantTx.userId`). */
  readonly userId: string;
  readonly name: string;
  readonly email: string;
  /** A superadmin of the school or an administrator of the system (isAdministrator). */
  readonly isAdmin: boolean;
  /** Their roles' rights in this school (spec §6); teaching assignments are per term, read by `assignmentsOf`. */
  readonly ability: AppAbility;
  readonly roles: ReadonlyArray<RoleWithPermissions>;
}

/** The school the action is in: the selected tenant, with the classes it offers. */
export interface ActingSchool extends School {
  /** The tenant's id (the transaction is bound to it: `TenantTx.tenantId`). */
  readonly id: string;
  /** Its TENANTCODE. */
  readonly code: string;
  readonly type: 'primary' | 'secondary';
  /** The tenant's row as the sign-in state read it (category, forms, country, contact lines). */
  readonly row: TenantRow;
}

/**
 * What a service takes for one user action (docs/ARCHITECTURE.md "Routes, services and
 * repositories"): the one transaction bound to the school, the member acting and the school.
 * Only the route helpers build one (`actionRoute`, `withAction`), from the request the access
 * hook checked; services never read the request.
 */
export interface ActionContext {
  readonly tx: TenantTx;
  readonly member: ActingMember;
  readonly school: ActingSchool;
}

/** The member and school of a tenant route's request (403 on a route without a tenant). */
export function actionParties(request: FastifyRequest): Omit<ActionContext, 'tx'> {
  const user = currentUser(request);
  const { tenant, ability, isAdmin, roles } = currentTenant(request);
  return {
    member: { userId: user.id, name: user.name, email: user.email, isAdmin, ability, roles },
    school: {
      id: tenant.id,
      code: tenant.tenantcode,
      name: tenant.name,
      type: tenant.schooltype,
      classes: classOptions(tenant),
      row: tenant,
    },
  };
}

/**
 * The one transaction of a request's user action, bound to its tenant, with the member and the
 * school: for a route that must do slow work first (read a workbook, store a photo) without
 * holding a connection meanwhile. The parties are read before the transaction opens.
 */
export function withAction<T>(app: FastifyInstance, request: FastifyRequest, work: (context: ActionContext) => Promise<T>): Promise<T> {
  const parties = actionParties(request);
  return withTenantTx(app.database.db, { tenantId: parties.school.id, userId: parties.member.userId }, (tx) => work({ tx, ...parties }));
}

/**
 * A tenant route from its contract: one user action, one transaction bound to the selected
 * tenant, handed to the service as an `ActionContext` `{ tx, member, school }`.
 */
export function actionRoute<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: (context: ActionContext, input: EndpointRequestInput<E>) => Promise<Answer<E>>,
  options: RouteOptions = {},
): void {
  endpointRoute(app, endpoint, (input, request) => withAction(app, request, (context) => handler(context, input)), options);
}

/**
 * The one transaction of a request's user action, bound to its tenant, as a bare `TenantTx`
 * (routes not yet moved to `withAction`).
 */
export function withRequestTx<T>(app: FastifyInstance, request: FastifyRequest, work: (tx: TenantTx) => Promise<T>): Promise<T> {
  return withTenantTx(app.database.db, tenantScope(request), work);
}

/**
 * A tenant route from its contract handing a bare `TenantTx` and the request (routes not yet
 * moved to `actionRoute`).
 */
export function tenantEndpointRoute<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: (tx: TenantTx, input: EndpointRequestInput<E>, request: FastifyRequest) => Promise<Answer<E>>,
): void {
  endpointRoute(app, endpoint, (input, request) => withRequestTx(app, request, (tx) => handler(tx, input, request)));
}
