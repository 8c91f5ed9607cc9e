import { createHash } from 'node:crypto';
import {
  type MailedLearner,
  type NcTerminalReportQuery,
  ncReportFileName,
  type ReportEmailSummary,
  type ReportModel,
  type TerminalReportQuery,
} from '@mustard/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { recordAudit } from '../../audit/audit.repository.js';
import type { TenantTx } from '../../db/tenant.js';
import type { DrawInTurn } from '../../documents/drawers.js';
import { enqueueMail, MailInputError } from '../../mail/outbox.js';
import { withAction } from '../../plugins/endpoints.js';
import { guardianAddresses } from '../students/guardians.repository.js';
import { NC_REPORT_CARDS_DRAWER, REPORT_CARDS_DRAWER } from './document-drawers.js';
import { type NcReport, type NcReportRead, ncTerminalReportKind } from './nc-report/nc-report.kind.js';
import { imagesForPrint } from './pdf/images.js';
import { readKindWithMore } from './pipeline/kind.js';
import type { GradingLoad } from './pipeline/loader.js';
import { reportImages } from './report-images.js';
import { reportFileName, type TerminalReport, type TerminalReportRead, terminalReportKind } from './terminal-report.kind.js';

/*
 * The report cards by e-mail (issue 29 point 5). A class's cards are read and built exactly as
 * for printing (the kind's read in one transaction, its pure build), then each learner with a
 * guardian's address gets their own card, drawn alone by the same drawer as the class's PDF (in
 * the document queue's turn, followed by the page as the class's PDF is), and all the messages
 * go to the outbox in one transaction: every message or none. The mail is sent after commit by
 * the outbox's sender; a message names the learner, school, term and year, and carries that one
 * learner's card.
 *
 * The same request twice sends nothing twice: each message's dedupe key is the school, the kind,
 * class, term and year, the learner, and a fingerprint of the card's PDF (its bytes less the
 * moment they were drawn: the creation date and the file id made of it), so an unchanged card is
 * never sent again while a corrected one is.
 */

/** A learner as a card names them. */
interface CardLearner {
  id: string;
  studentid: string;
  fullname: string;
  stream: string | null;
  photo: string | null;
}

/** What the mailing needs of a kind's built cards; the two card kinds below. */
interface MailedCards<Query, Read extends { load: GradingLoad }, Built> {
  /** The kind's name, part of each message's dedupe key. */
  kind: string;
  /** The kind's read (scope, grading inputs, sources), in the caller's transaction. */
  read(tx: TenantTx, query: Query): Promise<Read>;
  /** The kind's pure build. */
  build(read: Read): Built;
  model(built: Built): {
    school: { name: string; logo: string | null };
    report: { form: string; term: string; year: number };
    learners: ReadonlyArray<CardLearner>;
  };
  /** The card's pictures (badge, photos) for print, the class's at once. */
  images(built: Built, app: FastifyInstance, tenantId: string): Promise<Map<string, Uint8Array>>;
  /** One learner's card alone, drawn by the class PDF's drawer in the document's turn (`draw`). */
  draw(built: Built, learnerId: string, images: ReadonlyMap<string, Uint8Array>, draw: DrawInTurn): Promise<Buffer>;
  /** The class PDF's file name for the learner's stream, before the learner's name is added. */
  fileName(report: { form: string; stream: string | null; year: number; term: string }): string;
}

/** Only the learner's own card: the class's model with that one learner, and only their photo and the badge. */
function oneLearner<M extends { school: { logo: string | null }; learners: ReadonlyArray<{ id: string; photo: string | null }> }>(
  model: M,
  learnerId: string,
  images: ReadonlyMap<string, Uint8Array>,
): { model: M; images: Map<string, Uint8Array> } {
  const learners = model.learners.filter((learner) => learner.id === learnerId);
  const wanted = [model.school.logo, ...learners.map((learner) => learner.photo)];
  const own = new Map<string, Uint8Array>();
  for (const url of wanted) {
    const bytes = url ? images.get(url) : undefined;
    if (url && bytes) own.set(url, bytes);
  }
  return { model: { ...model, learners }, images: own };
}

export const TERMINAL_REPORT_CARDS: MailedCards<TerminalReportQuery, TerminalReportRead, TerminalReport> = {
  kind: terminalReportKind.name,
  read: (tx, query) => readKindWithMore(tx, terminalReportKind, query),
  build: (read) => terminalReportKind.build(read),
  model: (built) => built.model,
  images: async (built, app, tenantId) =>
    imagesForPrint(await reportImages(app.config.dataDir, tenantId, built.model, built.photoFiles, built.logoFile)),
  draw: (built, learnerId, images, draw) =>
    draw(REPORT_CARDS_DRAWER, { ...oneLearner(built.model, learnerId, images), layout: built.layout }),
  fileName: reportFileName,
};

export const NC_REPORT_CARDS: MailedCards<NcTerminalReportQuery, NcReportRead, NcReport> = {
  kind: ncTerminalReportKind.name,
  read: (tx, query) => readKindWithMore(tx, ncTerminalReportKind, query),
  build: (read) => ncTerminalReportKind.build(read),
  model: (built) => built.model,
  // reportImages reads the badge and the learners' photos, which the new-curriculum model names alike.
  images: async (built, app, tenantId) =>
    imagesForPrint(
      await reportImages(app.config.dataDir, tenantId, built.model as unknown as ReportModel, built.photoFiles, built.logoFile),
    ),
  draw: (built, learnerId, images, draw) =>
    draw(NC_REPORT_CARDS_DRAWER, { ...oneLearner(built.model, learnerId, images), layout: built.layout }),
  fileName: ncReportFileName,
};

/** A mailing's cards asked to be drawn at once: enough to keep a few job workers busy, the queue bounding the rest. */
const CARDS_DRAWN_AT_ONCE = 4;

/** A part of a file name: letters, digits, dashes and underscores only. */
const namePart = (value: string) => value.replace(/[^A-Za-z0-9_-]+/g, '_');

/**
 * The card's fingerprint: the SHA-256 of its PDF's bytes less what changes each time the same
 * card is drawn (the metadata's creation date and the file id pdfkit derives from it).
 */
export function cardFingerprint(pdf: Uint8Array): string {
  const stable = Buffer.from(pdf)
    .toString('latin1')
    // pdfkit writes the date as its own object, `(D:20261126143000Z)`, referred to by the metadata.
    .replace(/\(D:\d{14}[^)]*\)/g, '')
    .replace(/\/ID \[<[0-9a-fA-F]*> <[0-9a-fA-F]*>\]/g, '');
  return createHash('sha256').update(stable, 'latin1').digest('hex');
}

/** The message's dedupe key: one per school, kind, class, term, year, learner and card (at most 300 characters). */
export function cardDedupeKey(parts: {
  tenantId: string;
  kind: string;
  form: string;
  term: string;
  year: number;
  learnerId: string;
  fingerprint: string;
}) {
  const of = createHash('sha256')
    .update(
      JSON.stringify([parts.tenantId, parts.kind, parts.form.toLowerCase(), parts.term, parts.year, parts.learnerId, parts.fingerprint]),
    )
    .digest('hex');
  return `reportCard:${of}`;
}

/** Where a request's mailing runs: the server, the school and member, and the request's own transactions. */
export interface CardMailContext {
  app: FastifyInstance;
  request: FastifyRequest;
  tenantId: string;
  userId: string;
  /** Draws a card in the document's turn, here or on a job worker (app.documents.serve hands it). */
  draw: DrawInTurn;
}

const named = (learner: CardLearner): MailedLearner => ({ id: learner.id, studentid: learner.studentid, fullname: learner.fullname });

/**
 * E-mails each printed learner's own card to their guardian: read and build as the kind prints,
 * draw each learner's card with an address (progress under the request's token), then every
 * message into the outbox in one transaction; answers the summary.
 */
export async function mailReportCards<Query extends { progress?: string | undefined }, Read extends { load: GradingLoad }, Built>(
  cards: MailedCards<Query, Read, Built>,
  context: CardMailContext,
  query: Query,
): Promise<ReportEmailSummary> {
  const { app, request, tenantId, userId } = context;
  const { read, addresses } = await withAction(app, request, async ({ tx }) => {
    const read = await cards.read(tx, query);
    const learnerIds = read.load.classes.flatMap((inputs) => inputs.learners.map((learner) => learner.id));
    return { read, addresses: await guardianAddresses(tx, learnerIds) };
  });
  const built = cards.build(read);
  const model = cards.model(built);
  const addressed = model.learners.filter((learner) => addresses.has(learner.id));
  const withoutAddress = model.learners.filter((learner) => !addresses.has(learner.id)).map(named);

  const progress = query.progress
    ? await app.documents.progress.start({ tenantId, userId, token: query.progress }, addressed.length)
    : null;
  // Each learner's card in its own turn (with Redis, its own job, so a class's cards spread over
  // the workers), a few at once, under the one admission; kept in the class's order.
  const outcomes: Array<{ learner: CardLearner; pdf: Buffer | null }> = [];
  if (addressed.length > 0) {
    const images = await cards.images(built, app, tenantId);
    let next = 0;
    let finished = 0;
    const lane = async () => {
      while (next < addressed.length) {
        const index = next++;
        const learner = addressed[index] as CardLearner;
        try {
          outcomes[index] = { learner, pdf: await cards.draw(built, learner.id, images, context.draw) };
        } catch (error) {
          // One card that cannot be drawn does not keep the others from going: it is named as failed.
          request.log.error({ err: error, learner: learner.id }, 'a report card to e-mail could not be drawn');
          outcomes[index] = { learner, pdf: null };
        }
        finished += 1;
        progress?.update(finished, addressed.length);
      }
    };
    await Promise.all(Array.from({ length: Math.min(CARDS_DRAWN_AT_ONCE, addressed.length) }, lane));
  }
  const drawn = outcomes.flatMap(({ learner, pdf }) => (pdf ? [{ learner, pdf }] : []));
  const failed: MailedLearner[] = outcomes.flatMap(({ learner, pdf }) => (pdf ? [] : [named(learner)]));
  await progress?.finish();

  const { report, school } = model;
  const counts = await withAction(app, request, async ({ tx }) => {
    let sent = 0;
    let alreadySent = 0;
    for (const { learner, pdf } of drawn) {
      const filename = cards.fileName({ ...report, stream: learner.stream }).replace(/\.pdf$/, `-${namePart(learner.fullname)}.pdf`);
      try {
        const fresh = await enqueueMail(tx.trx, {
          to: addresses.get(learner.id) as string,
          template: 'reportCard',
          // The card is the school's document in its language of instruction (reports/words.ts); its message goes with it.
          locale: 'en',
          values: { learner: learner.fullname, school: school.name, term: report.term, year: String(report.year) },
          attachments: [{ filename, contentType: 'application/pdf', content: pdf }],
          tenantId,
          dedupeKey: cardDedupeKey({ tenantId, kind: cards.kind, ...report, learnerId: learner.id, fingerprint: cardFingerprint(pdf) }),
        });
        if (fresh) sent += 1;
        else alreadySent += 1;
      } catch (error) {
        // A message the outbox refuses (checked before anything is written) is this learner's failure alone.
        if (!(error instanceof MailInputError)) throw error;
        request.log.warn({ learner: learner.id, detail: error.detail }, 'a report card could not be e-mailed');
        failed.push(named(learner));
      }
    }
    const summary = { sent, alreadySent, noAddress: withoutAddress.length, failed: failed.length };
    await recordAudit(tx, { action: 'email', entity: 'report-cards', after: { kind: cards.kind, ...report, ...summary } });
    return summary;
  });
  // Committed: the sender sends them now rather than at its next poll.
  if (counts.sent > 0) app.mail.wake();
  return { ...counts, withoutAddress, failedLearners: failed };
}
