import { ERROR_MESSAGES } from '@mustard/shared';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../operations/helpers.js';
import { openTestDatabase, type TestDatabase } from '../test/test-database.js';
import { databaseUnavailable, registerErrorHandling } from './errors.js';

/*
 * Which database errors are an outage (issue 23 item 9): only a lost, refused or closing
 * connection answers 503 "The service is restarting"; any other error of the database is the
 * request's or the code's and answers as such, on the embedded database and on PostgreSQL alike.
 * The errors are the databases' own, raised by real statements through the one error handler.
 */

let database: TestDatabase;
let app: FastifyInstance;

/** More parameters than a statement may carry (65,535): both databases refuse it with 08P01. */
const TOO_MANY_PARAMETERS = 70_000;

beforeAll(async () => {
  database = await openTestDatabase();
  app = Fastify({ logger: false });
  registerErrorHandling(app);
  app.get('/too-many-parameters', async () => {
    const values = Array.from({ length: TOO_MANY_PARAMETERS }, (_, index) => sql`${index}`);
    await sql`SELECT 1 WHERE 1 IN (${sql.join(values)})`.execute(database.db);
  });
  app.get('/duplicate', async () => {
    await database.db.transaction().execute(async (trx) => {
      await sql`CREATE TEMPORARY TABLE once (n int PRIMARY KEY) ON COMMIT DROP`.execute(trx);
      await sql`INSERT INTO once VALUES (1), (1)`.execute(trx);
    });
  });
  // A person's text quoted in the database's error ("invalid input syntax for type uuid: ...").
  app.get('/quoted/:text', async (request) => {
    await sql`SELECT ${(request.params as { text: string }).text}::uuid`.execute(database.db);
  });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

const fault = { statusCode: 500, message: ERROR_MESSAGES[500] };

describe('a database error that is not an outage is never answered as one', () => {
  it('a statement with more parameters than the database takes (08P01) is a fault: 500, not 503', async () => {
    const response = await app.inject({ method: 'GET', url: '/too-many-parameters' });
    expect(response.json()).toEqual(fault);
    // The connection works on: it was the statement, not the database.
    expect((await sql<{ n: number }>`SELECT 1 AS n`.execute(database.db)).rows).toEqual([{ n: 1 }]);
  });

  it('a constraint error is a fault: 500, not 503', async () => {
    const response = await app.inject({ method: 'GET', url: '/duplicate' });
    expect(response.json()).toEqual(fault);
  });

  it('an error quoting text that reads like an outage is not one', async () => {
    for (const text of ['Connection terminated unexpectedly', 'timeout exceeded when trying to connect']) {
      const response = await app.inject({ method: 'GET', url: `/quoted/${encodeURIComponent(text)}` });
      expect(response.json()).toEqual(fault);
    }
  });
});

describe('an outage is one', () => {
  it('a database nobody answers at (ECONNREFUSED) is an outage', async () => {
    const client = new pg.Client({ connectionString: `postgres://nobody@127.0.0.1:${await freePort()}/none` });
    const refused = await client.connect().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((refused as { code?: string }).code).toBe('ECONNREFUSED');
    expect(databaseUnavailable(refused)).toBe(true);
  });

  it('the driver’s own words for a lost connection are an outage, and a database closed to connections is one', () => {
    for (const message of [
      'Connection terminated unexpectedly',
      'Client has encountered a connection error and is not queryable',
      'timeout exceeded when trying to connect',
    ]) {
      expect(databaseUnavailable(new Error(message))).toBe(true);
    }
    const closed = Object.assign(new Error('database "mustard" is not currently accepting connections'), { code: '55000' });
    expect(databaseUnavailable(closed)).toBe(true);
    for (const code of ['57P01', '57P03', '08006', '53300']) {
      expect(databaseUnavailable(Object.assign(new Error('x'), { code }))).toBe(true);
    }
  });
});
