import { INPUT_MESSAGES } from '@mustard/shared';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, catalogueMessage, type FieldErrors } from '../errors.js';
import { redisOutage } from '../redis/counters.js';

/**
 * One handler for every error (security.md item 24): the catalogue's text, field errors for a
 * 422, and never a stack trace, SQL or internal message in a response.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send({ ...error.details, ...body(error.statusCode, error.message, error.errors) });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: FieldErrors = {};
      for (const issue of error.validation) {
        const unknownKeys = (issue.params as { keys?: string[] }).keys;
        const prefix = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
        const names =
          issue.keyword === 'unrecognized_keys' && unknownKeys
            ? unknownKeys.map((key) => (prefix ? `${prefix}.${key}` : key))
            : [prefix || '_'];
        for (const name of names) {
          const message =
            issue.keyword === 'unrecognized_keys' ? INPUT_MESSAGES.fieldNotAccepted : (issue.message ?? INPUT_MESSAGES.valueInvalid);
          errors[name] = [...(errors[name] ?? []), message];
        }
      }
      return reply.status(422).send(body(422, catalogueMessage(422), errors));
    }
    if (redisOutage(error)) {
      // The request rate limiter could not count in Redis: refused, not let through uncounted.
      request.log.warn({ err: error }, 'redis unavailable');
      return reply.status(503).send(body(503, catalogueMessage(503)));
    }
    if (databaseUnavailable(error)) {
      // The database is restarting or unreachable: worth another try in a moment, unlike a fault.
      request.log.warn({ err: error }, 'database unavailable');
      return reply.status(503).send(body(503, catalogueMessage(503)));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, body too large, rate limit) carry safe texts.
      const known = status === 401 || status === 403 || status === 404 || status === 413 || status === 429;
      return reply.status(status).send(body(status, known ? catalogueMessage(status) : error.message));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send(body(500, catalogueMessage(500)));
  });

  app.setNotFoundHandler((_request, reply) => reply.status(404).send(body(404, catalogueMessage(404))));
}

/**
 * Errors of a database that is down or restarting, and only those (issue 23 item 9): a fault
 * answered as an outage tells people to try again what will fail again, and hides the fault.
 *
 * - SQLSTATEs of a lost or refused connection: class 08 (connection exception) except 08P01,
 *   a protocol violation, which is the statement's fault (more parameters than a statement
 *   takes) on a connection that works on; an administrator's or crash shutdown (57P01, 57P02),
 *   a server starting up or shutting down (57P03), no connection slot left (53300), and a
 *   database closed to connections (55000 with that text; 55000 alone is any object's state).
 * - The socket's own codes when the server cannot be reached.
 * - node-postgres's own errors, which carry no SQLSTATE, by their fixed texts. A database's
 *   error is never read by its text: it may quote what a person typed.
 */
const OUTAGE_STATES = new Set(['08000', '08001', '08003', '08004', '08006', '08007', '57P01', '57P02', '57P03', '53300']);
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH']);
const CLOSED_DATABASE = /^database "[^"]*" is not currently accepting connections$/;
const DRIVER_TEXT =
  /^(Connection terminated( unexpectedly| due to connection timeout)?|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable|Client was closed and is not queryable)$/;

export function databaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    return OUTAGE_STATES.has(code) || SOCKET_CODES.has(code) || (code === '55000' && CLOSED_DATABASE.test(error.message));
  }
  return DRIVER_TEXT.test(error.message);
}

export function body(statusCode: number, message: string, errors?: FieldErrors) {
  return errors ? { statusCode, message, errors } : { statusCode, message };
}
