import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message the test SMTP server received, parsed by mailparser, with its envelope's recipient. */
export type ReceivedMail = ParsedMail & {
  /** The envelope's (first) recipient, a plain address: what `waitFor` predicates mostly look at. */
  to: string;
  /** Every envelope recipient. */
  recipients: string[];
  /** The message as it came over the wire. */
  raw: Buffer;
};

export interface TestSmtp {
  /** smtp://127.0.0.1:<port>: give it to buildTestApp as `{ smtpUrl: smtp.url }`. */
  url: string;
  port: number;
  /** Every message received so far, in order. */
  messages: ReceivedMail[];
  /** The first message (received already or later) that matches, or a rejection after timeoutMs. */
  waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** The mail server goes down: connections are refused until start(). */
  stop(): Promise<void>;
  /** The mail server is back, on the same port. */
  start(): Promise<void>;
  /** Answer every message with this SMTP reply code (e.g. 451 try later, 550 refused) until set back to null. */
  refuse(code: number | null): void;
  close(): Promise<void>;
}

/**
 * A real SMTP server for a test, on a free port of 127.0.0.1: no TLS, any sender, any recipient,
 * every message parsed as a mail program would (mailparser). Start one per test file.
 */
export async function startTestSmtp(): Promise<TestSmtp> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<{ predicate: (mail: ReceivedMail) => boolean; resolve: (mail: ReceivedMail) => void }>();
  let refusal: number | null = null;
  let server: SMTPServer | null = null;
  let port = 0;

  const listen = async () => {
    const instance = new SMTPServer({
      authOptional: true,
      // No DNS lookup of the client (127.0.0.1) per connection: it costs each message tens of milliseconds.
      disableReverseLookup: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      // stop() must not wait for a client to say goodbye.
      closeTimeout: 50,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          if (refusal !== null) {
            callback(Object.assign(new Error('refused by the test'), { responseCode: refusal }));
            return;
          }
          const raw = Buffer.concat(chunks);
          simpleParser(raw)
            .then((parsed) => {
              const recipients = session.envelope.rcptTo.map((address) => address.address);
              const mail: ReceivedMail = Object.assign(parsed, { to: recipients[0] ?? '', recipients, raw });
              messages.push(mail);
              for (const waiter of waiters) {
                if (waiter.predicate(mail)) {
                  waiters.delete(waiter);
                  waiter.resolve(mail);
                }
              }
              callback();
            })
            .catch((error: Error) => callback(error));
        });
      },
    });
    instance.on('error', () => {});
    await new Promise<void>((resolve, reject) => {
      instance.server.once('error', reject);
      instance.listen(port, '127.0.0.1', () => resolve());
    });
    port = (instance.server.address() as AddressInfo).port;
    server = instance;
  };

  const stop = async () => {
    const instance = server;
    server = null;
    if (instance) await new Promise<void>((resolve) => instance.close(() => resolve()));
  };

  await listen();

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    waitFor(predicate, timeoutMs = 5000) {
      const found = messages.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = {
          predicate,
          resolve: (mail: ReceivedMail) => {
            clearTimeout(timer);
            resolve(mail);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(
            new Error(`no such message within ${timeoutMs} ms (${messages.length} received: ${messages.map((m) => m.to).join(', ')})`),
          );
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    stop,
    start: async () => {
      if (!server) await listen();
    },
    refuse(code) {
      refusal = code;
    },
    close: stop,
  };
}
