import { type Kysely, sql } from 'kysely';
import { type Trx, withTenant } from '../db/tenant.js';
import type { DB } from '../db/types.js';

/*
 * How far each document being drawn is, for the web's "learners done of total" (issue 15 point
 * 6), kept in the database (issue 25 point 5): a PDF started on one server of a deployment is
 * followed from any other. The web makes up a token, sends it with the document's request and
 * asks for it meanwhile; a row is keyed by the school, the user and that token, and read only
 * by that user in that school (the tenant's row-level security, and the user in the query).
 *
 * Bounded:
 * - writes: a document's progress is written at most every WRITE_EVERY_MS (a few a second),
 *   never two at once, and once more at the end, not once per learner of a class of 170;
 * - rows: a school's rows not touched for KEEP_MS are deleted when one of its documents starts.
 */
export const WRITE_EVERY_MS = 250;
export const KEEP_MS = 10 * 60_000;
const KEEP = `${KEEP_MS / 1000} seconds`;

export interface ProgressKey {
  tenantId: string;
  userId: string;
  token: string;
}

export interface ProgressAnswer {
  done: number;
  total: number;
}

/** What one document reports: `update` as often as it likes, `finish` once (awaits the last write). */
export interface ProgressWriter {
  update(done: number, total: number): void;
  finish(): Promise<void>;
}

type Log = { error(obj: unknown, message: string): void };

export class DocumentProgressStore {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly log: Log,
    private readonly now: () => number = Date.now,
  ) {}

  /** A document starts: its row at 0 of `total`, the school's old rows pruned. */
  async start(key: ProgressKey, total: number): Promise<ProgressWriter> {
    await withTenant(this.db, { tenantId: key.tenantId, userId: key.userId }, async (trx) => {
      await trx
        .deleteFrom('document_progress')
        .where('tenant_id', '=', key.tenantId)
        .where(sql<boolean>`updated_at < now() - ${KEEP}::interval`)
        .execute();
      await this.upsert(trx, key, 0, total);
    });
    return this.writer(key, total);
  }

  /**
   * The progress of the user's document in the school; null when none is known: a token never
   * started (or not yet: the document is read before it is drawn), long done, forged, or another
   * user's or school's, which are all alike to the asker.
   */
  async get(key: ProgressKey): Promise<ProgressAnswer | null> {
    const row = await withTenant(this.db, { tenantId: key.tenantId, userId: key.userId }, (trx) =>
      trx
        .selectFrom('document_progress')
        .select(['done', 'total'])
        .where('tenant_id', '=', key.tenantId)
        .where('user_id', '=', key.userId)
        .where('token', '=', key.token)
        .where(sql<boolean>`updated_at >= now() - ${KEEP}::interval`)
        .executeTakeFirst(),
    );
    return row ? { done: row.done, total: row.total } : null;
  }

  private upsert(trx: Trx, key: ProgressKey, done: number, total: number) {
    return trx
      .insertInto('document_progress')
      .values({ tenant_id: key.tenantId, user_id: key.userId, token: key.token, done, total })
      .onConflict((conflict) => conflict.columns(['tenant_id', 'user_id', 'token']).doUpdateSet({ done, total, updated_at: sql`now()` }))
      .execute();
  }

  private write(key: ProgressKey, done: number, total: number): Promise<void> {
    return withTenant(this.db, { tenantId: key.tenantId, userId: key.userId }, async (trx) => {
      await this.upsert(trx, key, done, total);
    }).catch((error: unknown) => this.log.error({ err: error }, "a document's progress could not be written"));
  }

  /** Throttled: the latest value written at most every WRITE_EVERY_MS, one write at a time; `finish` writes the last. */
  private writer(key: ProgressKey, initialTotal: number): ProgressWriter {
    let latest = { done: 0, total: initialTotal };
    let written = { done: 0, total: initialTotal };
    let lastWrite = this.now();
    let writing: Promise<void> | null = null;
    let timer: NodeJS.Timeout | null = null;
    const flush = () => {
      timer = null;
      if (writing) return;
      if (latest.done === written.done && latest.total === written.total) return;
      const value = latest;
      lastWrite = this.now();
      writing = this.write(key, value.done, value.total).finally(() => {
        written = value;
        writing = null;
      });
    };
    return {
      update: (done, total) => {
        latest = { done, total };
        if (timer || writing) return;
        const wait = lastWrite + WRITE_EVERY_MS - this.now();
        if (wait <= 0) flush();
        else {
          timer = setTimeout(flush, wait);
          timer.unref();
        }
      },
      finish: async () => {
        if (timer) clearTimeout(timer);
        timer = null;
        while (writing) await writing;
        if (latest.done !== written.done || latest.total !== written.total) await this.write(key, latest.done, latest.total);
      },
    };
  }
}
