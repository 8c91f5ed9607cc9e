import pg from 'pg';
import type { AccessChangeTracker } from './change-tracker.js';
import { ACCESS_CHANNEL } from './migrations/2026_11_23_0008_access_notices.js';

interface LogSink {
  info(message: string): void;
  error(obj: unknown, message: string): void;
}

export interface NoticeOptions {
  /** How often the listening connection is asked whether it is alive (a silent network drop sends no error). */
  checkEveryMs?: number;
  /** The longest wait between two tries to listen again. */
  maxRetryMs?: number;
}

/**
 * The server's ear for changes to sign-in state made anywhere on a PostgreSQL database: one
 * dedicated connection runs `LISTEN mustard_access` (the triggers of migration 0008 notify it),
 * and each notice bumps the change tracker, which empties the sign-in caches.
 *
 * Never a stale answer: until the first LISTEN succeeds, and whenever the connection fails or
 * stops answering, the tracker is blind and the caches are bypassed (every request reads the
 * database). The server then tries again, waiting longer each time up to `maxRetryMs`, and says
 * so in its log both ways.
 */
export class AccessNotices {
  /** The connection listening, or being opened to listen. */
  private client: pg.Client | undefined;
  private heard = false;
  private retryMs = 100;
  private retryTimer: NodeJS.Timeout | undefined;
  private checkTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly checkEveryMs: number;
  private readonly maxRetryMs: number;

  constructor(
    private readonly url: string,
    private readonly tracker: AccessChangeTracker,
    private readonly log: LogSink,
    options: NoticeOptions = {},
  ) {
    this.checkEveryMs = options.checkEveryMs ?? 5_000;
    this.maxRetryMs = options.maxRetryMs ?? 5_000;
    tracker.goBlind();
  }

  /** Whether notices are being heard now. */
  get listening(): boolean {
    return this.heard;
  }

  /** Listens; resolves once listening, or once the first try failed (the retries go on). */
  async start(): Promise<void> {
    await this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.checkTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({
      connectionString: this.url,
      application_name: 'mustard-access-notices',
      keepAlive: true,
      query_timeout: this.checkEveryMs,
    });
    this.client = client;
    client.on('notification', () => this.tracker.bump());
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('the listening connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${ACCESS_CHANNEL}`);
    } catch (error) {
      this.lost(client, error);
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.retryMs = 100;
    this.heard = true;
    this.tracker.seeAgain();
    this.log.info('Listening for changes to sign-in state: cached sign-ins are in use');
    this.checkTimer = setInterval(() => {
      client.query('SELECT 1').catch((error) => this.lost(client, error));
    }, this.checkEveryMs);
    this.checkTimer.unref();
  }

  /** The connection `client` failed: stop trusting the caches, and listen again soon. */
  private lost(client: pg.Client, error: unknown): void {
    // A connection already given up (its 'error' and 'end' both come) changes nothing more.
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    this.heard = false;
    clearInterval(this.checkTimer);
    client.end().catch(() => undefined);
    this.tracker.goBlind();
    this.log.error(
      { err: error },
      `Not listening for changes to sign-in state: every request reads it from the database; trying again in ${this.retryMs} ms`,
    );
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, this.maxRetryMs);
  }
}
