import { ERROR_MESSAGES, INPUT_MESSAGES, LANGUAGES, type Language, LOGIN_MESSAGES } from '@mustard/shared';
import type { Kysely } from 'kysely';
import { newId } from '../db/ids.js';
import type { DB } from '../db/types.js';
import { AppError } from '../errors.js';
import { LINK_VALUES, MAIL_TEXTS, type MailTemplate, TEMPLATE_VALUES, type TemplateText } from './templates.js';

export type { MailTemplate } from './templates.js';

/**
 * The one way a message leaves Mustard: written to the outbox (the table mail_outbox) in the
 * transaction of the action that causes it, sent after commit by the sender (mail/sender.ts).
 * A rolled-back action leaves no message; a committed one is not lost when the mail server is
 * down, and enqueueing never talks to the mail server, so the action never fails because of it.
 */
export interface OutgoingMail {
  /** One address; header injection (CR/LF, commas, a second address) is refused. */
  to: string;
  template: MailTemplate;
  locale: Language;
  /** The template's values (TEMPLATE_VALUES): all of them, no others; links absolute http(s). */
  values: Record<string, string>;
  attachments?: { filename: string; contentType: string; content: Buffer }[];
  /** Whose message it is (null: registration, reset). */
  tenantId?: string | null;
  /** A second enqueue with the same key does nothing (the same request twice sends once). */
  dedupeKey?: string;
}

/**
 * What is wrong with a message a caller asked for: a 422 if it reaches a route (a person typed
 * the address or the name), with `detail` saying exactly what, for the log and the developer.
 */
export class MailInputError extends AppError {
  constructor(
    field: string,
    message: string,
    readonly detail: string,
  ) {
    super(422, ERROR_MESSAGES[422], { [field]: [message] });
    this.name = 'MailInputError';
  }
}

const MAX_VALUE_LENGTH = 500;
const MAX_LINK_LENGTH = 2000;
const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
/** Control characters (CR and LF among them): never in a header, and never in a value that may become one. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f]/;
/** One plain address: no display name, no second address (comma, semicolon), nothing a header parser would split on. */
const ADDRESS = /^[^\s@,;:<>()[\]\\"]+@[^\s@,;:<>()[\]\\".]+(\.[^\s@,;:<>()[\]\\".]+)+$/;
const CONTENT_TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/i;

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/**
 * Checks a message and renders it, or throws MailInputError. Exported for the tests and the
 * outbox screen's previews; enqueueMail is what callers use.
 */
export function renderMail(mail: Pick<OutgoingMail, 'to' | 'template' | 'locale' | 'values'>): RenderedMail {
  checkAddress(mail.to);
  if (!(LANGUAGES as readonly string[]).includes(mail.locale)) {
    throw new MailInputError(
      'locale',
      INPUT_MESSAGES.valueInvalid,
      `no language "${String(mail.locale)}" (one of ${LANGUAGES.join(', ')})`,
    );
  }
  const texts = MAIL_TEXTS[mail.locale][mail.template];
  if (!texts) throw new MailInputError('template', INPUT_MESSAGES.valueInvalid, `no mail template "${String(mail.template)}"`);
  const values = checkValues(mail.template, mail.values);
  return {
    subject: fill(texts.subject, values, (value) => value),
    text: renderText(texts, values),
    html: renderHtml(texts, values, mail.locale),
  };
}

/**
 * Renders the message and writes it to the outbox inside the caller's transaction; answers false
 * when dedupeKey was already there. Sent after commit by the sender: the caller may call
 * `app.mail.wake()` once its transaction has committed to have it sent at once, else the
 * sender finds it within its poll interval.
 */
export async function enqueueMail(trx: Kysely<DB>, mail: OutgoingMail): Promise<boolean> {
  const rendered = renderMail(mail);
  const attachments = (mail.attachments ?? []).map(checkAttachment);
  const total = attachments.reduce((sum, attachment) => sum + attachment.content.length, 0);
  if (total > MAX_ATTACHMENT_BYTES) {
    throw new MailInputError('attachments', INPUT_MESSAGES.valueInvalid, `attachments of ${total} bytes; at most ${MAX_ATTACHMENT_BYTES}`);
  }
  if (mail.dedupeKey !== undefined && (mail.dedupeKey.length < 1 || mail.dedupeKey.length > 300)) {
    throw new MailInputError('dedupeKey', INPUT_MESSAGES.valueInvalid, 'a dedupe key is 1 to 300 characters');
  }
  const id = newId();
  const inserted = await trx
    .insertInto('mail_outbox')
    .values({
      id,
      tenant_id: mail.tenantId ?? null,
      dedupe_key: mail.dedupeKey ?? null,
      recipient: mail.to,
      template: mail.template,
      locale: mail.locale,
      subject: rendered.subject,
      body_text: rendered.text,
      body_html: rendered.html,
      last_error: null,
      message_id: null,
      sent_at: null,
    })
    // The same key twice, even from two requests at once: the second waits for the first's
    // transaction and then inserts nothing.
    .onConflict((conflict) => conflict.column('dedupe_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return false;
  if (attachments.length > 0) {
    await trx
      .insertInto('mail_outbox_attachments')
      .values(
        attachments.map((attachment, position) => ({
          mail_id: id,
          position,
          filename: attachment.filename,
          content_type: attachment.contentType,
          content: attachment.content,
        })),
      )
      .execute();
  }
  return true;
}

function checkAddress(to: string): void {
  if (typeof to !== 'string' || to.length > 254 || CONTROL.test(to) || !ADDRESS.test(to)) {
    throw new MailInputError('email', LOGIN_MESSAGES.emailInvalid, `"${String(to).slice(0, 100)}" is not one plain e-mail address`);
  }
}

function checkValues(template: MailTemplate, values: Record<string, string>): Record<string, string> {
  const expected = TEMPLATE_VALUES[template];
  for (const name of Object.keys(values ?? {})) {
    if (!expected.includes(name))
      throw new MailInputError(name, INPUT_MESSAGES.fieldNotAccepted, `the ${template} mail takes no value "${name}"`);
  }
  for (const name of expected) {
    const value = values?.[name];
    if (typeof value !== 'string' || value.trim() === '') {
      throw new MailInputError(name, INPUT_MESSAGES.valueInvalid, `the ${template} mail needs the value "${name}"`);
    }
    // A value may become part of the subject, a header: no line breaks or other control characters.
    if (CONTROL.test(value)) throw new MailInputError(name, INPUT_MESSAGES.textInvalid, `the value "${name}" holds a control character`);
    if (LINK_VALUES.has(name)) {
      if (value.length > MAX_LINK_LENGTH || !/^https?:\/\/[^\s]+$/.test(value) || !URL.canParse(value)) {
        throw new MailInputError(name, INPUT_MESSAGES.valueInvalid, `the value "${name}" is not an absolute http(s) link`);
      }
    } else if (value.length > MAX_VALUE_LENGTH) {
      throw new MailInputError(name, INPUT_MESSAGES.valueInvalid, `the value "${name}" is longer than ${MAX_VALUE_LENGTH} characters`);
    }
  }
  return values;
}

function checkAttachment(attachment: { filename: string; contentType: string; content: Buffer }) {
  const { filename, contentType, content } = attachment;
  if (typeof filename !== 'string' || filename.length < 1 || filename.length > 200 || CONTROL.test(filename) || /[/\\"]/.test(filename)) {
    throw new MailInputError(
      'attachments',
      INPUT_MESSAGES.valueInvalid,
      `the attachment name "${String(filename).slice(0, 100)}" cannot be sent`,
    );
  }
  if (typeof contentType !== 'string' || !CONTENT_TYPE.test(contentType)) {
    throw new MailInputError(
      'attachments',
      INPUT_MESSAGES.valueInvalid,
      `the attachment type "${String(contentType).slice(0, 100)}" is not a media type`,
    );
  }
  if (!(content instanceof Uint8Array)) throw new MailInputError('attachments', INPUT_MESSAGES.valueInvalid, 'an attachment is bytes');
  return attachment;
}

const fill = (text: string, values: Record<string, string>, encode: (value: string) => string) =>
  text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? encode(values[name] as string) : whole));

export const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

function renderText(texts: TemplateText, values: Record<string, string>): string {
  const paragraphs = texts.paragraphs.map((paragraph) => fill(paragraph, values, (value) => value));
  return `${paragraphs.join('\n\n')}\n\n-- \nMustard\n`;
}

/** The language attribute of the HTML part, by the product's language keys. */
const HTML_LANG: Record<Language, string> = { en: 'en', sp: 'es', gr: 'de', it: 'it', rs: 'ru' };

function renderHtml(texts: TemplateText, values: Record<string, string>, locale: Language): string {
  const body = texts.paragraphs
    .map((paragraph) => {
      if (paragraph === '{link}') {
        const href = escapeHtml(values.link as string);
        const label = escapeHtml(fill(texts.action ?? '{link}', values, (value) => value));
        return (
          `<p style="margin:24px 0"><a href="${href}" style="display:inline-block;background:#e0a800;color:#1a1a1a;padding:12px 20px;` +
          `border-radius:6px;text-decoration:none;font-weight:bold">${label}</a></p>\n` +
          `<p style="font-size:12px;color:#555;word-break:break-all"><a href="${href}" style="color:#555">${href}</a></p>`
        );
      }
      return `<p style="margin:0 0 16px">${fill(paragraph, values, escapeHtml)}</p>`;
    })
    .join('\n');
  const title = escapeHtml(fill(texts.subject, values, (value) => value));
  return `<!doctype html>
<html lang="${HTML_LANG[locale] ?? 'en'}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${title}</title></head>
<body style="margin:0;padding:24px;background:#f4f4f0;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1a1a1a">
<div style="max-width:560px;margin:0 auto;background:#ffffff;padding:28px;border-radius:8px">
${body}
<p style="margin:24px 0 0;font-size:12px;color:#777">Mustard</p>
</div>
</body>
</html>
`;
}
