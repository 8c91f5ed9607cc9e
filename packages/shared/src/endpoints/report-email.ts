import { z } from 'zod';
import { TerminalReportQuerySchema } from '../reports/model.js';
import { NcTerminalReportQuerySchema } from '../reports/nc-report.js';
import { defineEndpoint } from './definition.js';

/*
 * The Email option of the report cards (issue 29 point 5): each learner's own card, drawn as its
 * own PDF, sent to the guardian's e-mail on the learner's record. The request names the cards as
 * the card's own filter does (class, stream or learner, term, year and the card's options), with
 * a `progress` token the page follows as the cards are drawn (the report progress endpoint); the
 * answer, once every message is in the outbox, is the summary. The same request again sends
 * nothing twice: a card already sent unchanged is counted, not sent; a corrected card is sent.
 *
 * Who may: sending a class's cards home is releasing its results, the act of those who publish
 * marks (`manage` on publish-mark), while any member may print a card to read it over.
 */

/** A learner the summary names: one without a guardian's address (so the school can add it), or one whose card could not be sent. */
export const MailedLearnerSchema = z.object({ id: z.uuid(), studentid: z.string(), fullname: z.string() });
export type MailedLearner = z.infer<typeof MailedLearnerSchema>;

/** What the Email option did: messages put in the outbox now, cards sent before unchanged, learners without an address, cards that failed. */
export const ReportEmailSummarySchema = z.object({
  sent: z.number().int(),
  alreadySent: z.number().int(),
  noAddress: z.number().int(),
  failed: z.number().int(),
  withoutAddress: z.array(MailedLearnerSchema),
  failedLearners: z.array(MailedLearnerSchema),
});
export type ReportEmailSummary = z.infer<typeof ReportEmailSummarySchema>;

const releaseResults = { action: 'manage', subject: 'publish-mark' } as const;

/** The terminal report's cards by e-mail: the Terminal Reports filter (no preview or JSON), and a progress token. */
export const terminalReportEmailEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/school/terminalreport/email',
  access: releaseResults,
  body: TerminalReportQuerySchema.omit({ json: true, html: true }),
  response: ReportEmailSummarySchema,
});

/** The new-curriculum cards by e-mail: the card's filter and options (no preview, JSON or PDF), and a progress token. */
export const ncTerminalReportEmailEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/school/ncterminalreport/email',
  access: releaseResults,
  body: NcTerminalReportQuerySchema.omit({ json: true, html: true, pdf: true }),
  response: ReportEmailSummarySchema,
});
