import { INPUT_MESSAGES } from '@mustard/shared';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, catalogueMessage, type FieldErrors } from '../errors.js';

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
 * Errors of a database that is down or restarting, as the pg driver reports them: a refused or
 * cut connection, SQLSTATE class 08 (connection exception), an administrator's or crash
 * shutdown (57P01, 57P02), a server starting up (57P03), or a database closed to connections.
 */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', '57P01', '57P02', '57P03', '53300']);
const UNAVAILABLE_TEXT =
  /Connection terminated|timeout exceeded when trying to connect|not currently accepting connections|Client has encountered a connection error/i;

export function databaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  return UNAVAILABLE_TEXT.test(error.message);
}

export function body(statusCode: number, message: string, errors?: FieldErrors) {
  return errors ? { statusCode, message, errors } : { statusCode, message };
}
