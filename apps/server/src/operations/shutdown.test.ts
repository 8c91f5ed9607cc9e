import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN_EMAIL } from '../seed/demo.js';
import { testDatabaseKind } from '../test/test-database.js';
import {
  childEnv,
  childPids,
  collectOutput,
  type Exit,
  freePort,
  killChild,
  makeDataDir,
  removeDir,
  sleep,
  spawnNode,
  stopChildren,
  waitForExit,
  waitUntil,
} from './helpers.js';

/**
 * security.md item 28: SIGTERM with requests in flight -> they complete, new ones are refused
 * (connection refused or 503), and the process exits 0 within 10 s. The real server
 * (apps/server/src/server.ts) as a child process on a new embedded data directory with the demo
 * seeded. Clients keep their connections alive, as browsers do.
 */
const DEMO_PASSWORD = 'Mustard@2026';
const SERVER = 'apps/server/src/server.ts';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function collect(request: http.ClientRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request.once('error', reject);
    request.once('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.once('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      response.once('error', reject);
    });
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    }),
  ]);
}

/** The answer, or the error code when the request failed (ECONNRESET, ECONNREFUSED, ...). */
const settle = (answer: Promise<Answer>): Promise<Answer | string> =>
  withTimeout(answer, 9_000, 'request in flight').catch((error: NodeJS.ErrnoException) => error.code ?? error.message);

function expectSignedIn(answer: Answer | string) {
  if (typeof answer === 'string') throw new Error(`a request in flight failed: ${answer}`);
  expect(answer.status).toBe(200);
  expect(answer.headers.authorization).toMatch(/^Bearer /);
  expect(JSON.parse(answer.body).email).toBe(DEMO_ADMIN_EMAIL);
}

class RunningServer {
  readonly agent: http.Agent;
  readonly output: ReturnType<typeof collectOutput>;

  constructor(
    readonly process: ChildProcess,
    readonly port: number,
    keepAlive: boolean,
  ) {
    this.agent = new http.Agent({ keepAlive });
    this.output = collectOutput(process);
  }

  static async start(spawner: typeof spawnNode, dataDir: string, keepAlive: boolean): Promise<RunningServer> {
    const port = await freePort();
    const env = childEnv({
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_DEMO: 'true',
      MUSTARD_DEMO_PASSWORD: DEMO_PASSWORD,
    });
    const server = new RunningServer(spawner(SERVER, [], env), port, keepAlive);
    await waitUntil(
      'the server to be ready',
      55_000,
      async () => {
        if (server.process.exitCode !== null)
          throw new Error(`the server exited with ${server.process.exitCode}: ${server.output.stderr()}`);
        return (await server.fresh('/readyz')) === 200 ? true : undefined;
      },
      200,
    );
    return server;
  }

  /** A sign-in on a kept-alive connection, sent up to its last byte; `finish` sends the rest. */
  startLogin(): { finish(): void; answer: Promise<Answer> } {
    const body = JSON.stringify({ user: { email: DEMO_ADMIN_EMAIL, password: DEMO_PASSWORD } });
    const request = http.request({
      host: '127.0.0.1',
      port: this.port,
      method: 'POST',
      path: '/auth/login',
      agent: this.agent,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    const answer = collect(request);
    answer.catch(() => {}); // observed by the test; no unhandled rejection meanwhile
    request.write(body.slice(0, -1));
    return { finish: () => request.end(body.slice(-1)), answer };
  }

  /** A request on a new connection: its status, or the connection error's code. */
  fresh(path: string): Promise<number | string> {
    const request = http.request({ host: '127.0.0.1', port: this.port, method: 'GET', path, agent: false });
    request.end();
    return withTimeout(collect(request), 5_000, `GET ${path}`).then(
      (answer) => answer.status,
      (error: NodeJS.ErrnoException) => error.code ?? error.message,
    );
  }

  stop(): void {
    this.agent.destroy();
    killChild(this.process);
  }
}

describe.runIf(testDatabaseKind === 'pglite')('graceful shutdown', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await makeDataDir();
  });
  afterAll(async () => {
    stopChildren();
    await removeDir(dataDir);
  });

  describe('of the server process', () => {
    let server: RunningServer;
    let sentAt: number;
    let afterSignal: number | string;
    let racing: Array<Answer | string>;
    let held: Array<Answer | string>;
    let exit: Exit | string;
    let exitedAfter: number;

    beforeAll(async () => {
      server = await RunningServer.start(spawnNode, dataDir, true);
    }, 60_000);
    afterAll(() => server?.stop());

    it('announces itself and signs the demo administrator in', async () => {
      expect(server.output.stdout()).toContain(`Mustard is running at http://localhost:${server.port}`);
      const login = server.startLogin();
      login.finish();
      expectSignedIn(await settle(login.answer));
    });

    describe('on SIGTERM', () => {
      beforeAll(async () => {
        // Five sign-ins in flight: the server has their headers and waits for the last byte.
        const racingLogins = Array.from({ length: 3 }, () => server.startLogin());
        const heldLogins = Array.from({ length: 2 }, () => server.startLogin());
        await sleep(500);

        // Three complete as the signal goes (argon2 keeps them busy through the shutdown) ...
        for (const login of racingLogins) login.finish();
        sentAt = Date.now();
        server.process.kill('SIGTERM');

        // ... while a new client is turned away ...
        afterSignal = await waitUntil(
          'the server to refuse new requests',
          5_000,
          async () => {
            const outcome = await server.fresh('/healthz');
            return outcome === 200 ? undefined : outcome;
          },
          50,
        );

        // ... and two more finish sending only now, after the server stopped taking new ones.
        for (const login of heldLogins) login.finish();
        racing = await Promise.all(racingLogins.map((login) => settle(login.answer)));
        held = await Promise.all(heldLogins.map((login) => settle(login.answer)));
        exit = await waitForExit(server.process, Math.max(1_000, 12_000 - (Date.now() - sentAt))).catch((error: Error) => error.message);
        exitedAfter = Date.now() - sentAt;
      }, 30_000);

      it('completes every request in flight with 200 and a session', () => {
        for (const answer of [...racing, ...held]) expectSignedIn(answer);
      });

      it('refuses a new request: connection refused or 503', () => {
        expect(['ECONNREFUSED', 503]).toContain(afterSignal);
      });

      it('exits with code 0 within 10 seconds, although browsers keep their connections open', () => {
        expect({ exit, stderr: server.output.stderr() }).toEqual({ exit: { code: 0, signal: null }, stderr: '' });
        expect(exitedAfter).toBeLessThan(10_000);
      });
    });
  });

  /**
   * `npm start` (scripts/start.mjs) runs the server as `node --import tsx server.ts` and relays
   * SIGTERM to it. Keep this launch in step with scripts/start.mjs: the tsx command would not do,
   * as it answers a slow SIGTERM with SIGKILL.
   * The server's event loop is busy for a moment when the signal comes (PGlite runs queries
   * synchronously on it; on a loaded machine this happens by itself): the relay must still
   * let the server shut down gracefully.
   */
  describe('of the server as npm start launches it', () => {
    let launcher: RunningServer;
    let answer: Answer | string;
    let exit: Exit | string;
    let exitedAfter: number;

    beforeAll(async () => {
      // Connections closed after each answer, so that only the relay is under test here.
      launcher = await RunningServer.start(spawnNode, dataDir, false);
      // The node process running server.ts: tsx's child (or the launched process itself, were
      // it started with `node --import tsx`).
      const launched = launcher.process.pid as number;
      const serverPid = childPids(launched)[0] ?? launched;

      const login = launcher.startLogin();
      await sleep(500);
      // 300 ms of a busy event loop at the moment SIGTERM arrives.
      process.kill(serverPid, 'SIGSTOP');
      const sentAt = Date.now();
      try {
        launcher.process.kill('SIGTERM');
        await sleep(300);
      } finally {
        try {
          process.kill(serverPid, 'SIGCONT');
        } catch {
          // it was killed meanwhile
        }
      }
      login.finish();
      answer = await settle(login.answer);
      exit = await waitForExit(launcher.process, 12_000).catch((error: Error) => error.message);
      exitedAfter = Date.now() - sentAt;
    }, 60_000);
    afterAll(() => launcher?.stop());

    it('completes the request in flight', () => {
      expectSignedIn(answer);
    });

    it('exits with code 0 within 10 seconds', () => {
      expect(exit).toEqual({ code: 0, signal: null });
      expect(exitedAfter).toBeLessThan(10_000);
    });
  });
});
