import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/test-app.js';
import { sleep } from './helpers.js';

/*
 * Slow clients (issue 23 item 11): a connection may not hold the server forever by sending its
 * headers or body slowly, by stopping half way, by sending nothing, or by idling between
 * requests. Each is closed at its configured timeout (short here), without anyone signing in;
 * a request sent in time, even in pieces, is answered as ever.
 */

const HEADERS_SECONDS = 1;
const REQUEST_SECONDS = 3;
/** Longer than the headers may take: an idle kept-alive connection is not a request late with its headers. */
const KEEP_ALIVE_SECONDS = 2;
/** Node looks for expired requests every so often (at most a second, see app.ts), and a busy machine is late. */
const SLACK_MS = 2_500;

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await buildTestApp({
    headersTimeoutSeconds: HEADERS_SECONDS,
    requestTimeoutSeconds: REQUEST_SECONDS,
    keepAliveTimeoutSeconds: KEEP_ALIVE_SECONDS,
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
});

const sockets = new Set<net.Socket>();
// A test that failed leaves its connection open, which would keep the server from closing. The
// tests run at once (each waits on the server's timeouts on a connection of its own: 17 s one
// after another), so their connections are closed when all are done, not after each.
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await t?.close();
});

interface Connection {
  socket: net.Socket;
  /** What the server sent so far. */
  received(): string;
  /** Milliseconds from the connection until the server closed it; fails after `withinMs`. */
  closed(withinMs: number): Promise<number>;
  /** Sends `text` a piece at a time, every `everyMs`, until done or the connection is closed. */
  trickle(text: string, everyMs: number, piece?: number): Promise<void>;
}

async function connect(): Promise<Connection> {
  const socket = net.connect({ port, host: '127.0.0.1' });
  sockets.add(socket);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const opened = Date.now();
  let text = '';
  let closedAfter: number | undefined;
  socket.setEncoding('utf8').on('data', (chunk: string) => {
    text += chunk;
  });
  socket.on('error', () => {});
  const closing = new Promise<number>((resolve) =>
    socket.once('close', () => {
      closedAfter = Date.now() - opened;
      resolve(closedAfter);
    }),
  );
  return {
    socket,
    received: () => text,
    closed: (withinMs) =>
      Promise.race([
        closing,
        sleep(withinMs).then(() => {
          throw new Error(`the server kept the connection open for ${withinMs} ms; it sent: ${JSON.stringify(text)}`);
        }),
      ]),
    trickle: async (data, everyMs, piece = 1) => {
      for (let at = 0; at < data.length && closedAfter === undefined && !socket.destroyed; at += piece) {
        socket.write(data.slice(at, at + piece));
        await sleep(everyMs);
      }
    },
  };
}

const LOGIN_BODY = JSON.stringify({ user: { email: 'nobody@school.test', password: 'not-the-password' } });
const loginHead = (length = LOGIN_BODY.length) =>
  `POST /auth/login HTTP/1.1\r\nHost: mustard\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

describe.concurrent('a slow client is cut off at its timeout', () => {
  it('a body sent a byte at a time is cut at the request timeout, with 408', async () => {
    const connection = await connect();
    connection.socket.write(loginHead(10_000));
    void connection.trickle('x'.repeat(10_000), 100);
    const after = await connection.closed(REQUEST_SECONDS * 1000 + SLACK_MS);
    expect(after).toBeGreaterThanOrEqual(REQUEST_SECONDS * 1000 - 100);
    expect(connection.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('a body that stops half way is cut at the request timeout', async () => {
    const connection = await connect();
    connection.socket.write(loginHead() + LOGIN_BODY.slice(0, 10));
    const after = await connection.closed(REQUEST_SECONDS * 1000 + SLACK_MS);
    expect(after).toBeGreaterThanOrEqual(REQUEST_SECONDS * 1000 - 100);
  });

  it('headers sent a line at a time are cut at the headers timeout, before the request timeout', async () => {
    const connection = await connect();
    connection.socket.write('GET /healthz HTTP/1.1\r\nHost: mustard\r\n');
    void connection.trickle(Array.from({ length: 100 }, (_, index) => `X-Slow-${index}: 1\r\n`).join(''), 100, 12);
    const after = await connection.closed(HEADERS_SECONDS * 1000 + SLACK_MS);
    expect(after).toBeGreaterThanOrEqual(HEADERS_SECONDS * 1000 - 100);
    expect(connection.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('a connection that sends nothing is closed at the headers timeout', async () => {
    const connection = await connect();
    await connection.closed(HEADERS_SECONDS * 1000 + SLACK_MS);
  });

  it('a kept-alive connection idle after its answer is closed at the keep-alive timeout', async () => {
    const connection = await connect();
    connection.socket.write('GET /healthz HTTP/1.1\r\nHost: mustard\r\n\r\n');
    const after = await connection.closed(KEEP_ALIVE_SECONDS * 1000 + SLACK_MS);
    expect(connection.received()).toMatch(/^HTTP\/1\.1 200 /);
    // One answer, the request's: no 408 for an idle connection that was not late with anything.
    expect(connection.received().match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect(after).toBeGreaterThanOrEqual(KEEP_ALIVE_SECONDS * 1000 - 100);
  });
});

describe.concurrent('a request sent in time is answered as ever', () => {
  it('an ordinary request', async () => {
    const ready = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(ready.status).toBe(200);
    const signIn = await fetch(`http://127.0.0.1:${port}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: LOGIN_BODY,
    });
    expect(signIn.status).toBe(401);
  });

  it('a body sent slowly but within the request timeout, past the headers timeout', async () => {
    const connection = await connect();
    connection.socket.write(loginHead());
    // About 1.6 s: longer than the headers may take, shorter than the request may.
    await connection.trickle(LOGIN_BODY, 1600 / (LOGIN_BODY.length / 8), 8);
    await connection.closed(REQUEST_SECONDS * 1000 + SLACK_MS).catch(() => undefined);
    expect(connection.received()).toMatch(/^HTTP\/1\.1 401 /);
  });
});
