import { LANGUAGES } from '@mustard/shared';
import { describe, expect, it } from 'vitest';
import { MailInputError, renderMail } from './outbox.js';
import { MAIL_TEXTS, type MailTemplate, TEMPLATE_VALUES } from './templates.js';

const TEMPLATES = Object.keys(TEMPLATE_VALUES) as MailTemplate[];
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);

const SAMPLE: Record<MailTemplate, Record<string, string>> = {
  verifyEmail: { name: 'Grace <b>Auma</b>', link: 'https://mustard.example/register/verify?token=a&b=1' },
  accountExists: { name: 'Grace & Auma', link: 'https://mustard.example/auth/password/reset' },
  passwordReset: { name: 'Grace & Co', link: 'https://mustard.example/auth/password/reset?token=x' },
  invitation: {
    inviter: 'Peter "P" Okello',
    organisation: "St. Mary's <Gulu>",
    link: 'https://mustard.example/join?code=AB12',
    code: 'AB12-CD34',
  },
  reportCard: { learner: 'Amina Nansubuga', school: 'Gulu <Primary> School', term: 'II', year: '2026' },
};

describe('the mail templates, in every language', () => {
  it('every language has every template, and nothing else', () => {
    for (const language of LANGUAGES) expect(Object.keys(MAIL_TEXTS[language]).sort()).toEqual([...TEMPLATES].sort());
    expect(Object.keys(MAIL_TEXTS).sort()).toEqual([...LANGUAGES].sort());
  });

  it('every template names each of its values in every language, and no value it does not take', () => {
    for (const language of LANGUAGES) {
      for (const template of TEMPLATES) {
        const texts = MAIL_TEXTS[language][template];
        const used = new Set([texts.subject, ...texts.paragraphs, texts.action ?? ''].flatMap(placeholders));
        expect([...used].sort(), `${language} ${template}`).toEqual([...TEMPLATE_VALUES[template]].sort());
        // The link is the button: a paragraph of its own, with the button's words.
        if (TEMPLATE_VALUES[template].includes('link')) {
          expect(texts.paragraphs, `${language} ${template}`).toContain('{link}');
          expect(texts.action, `${language} ${template}`).toBeTruthy();
        }
      }
    }
  });

  it('the texts are translated: no two languages share a subject', () => {
    for (const template of TEMPLATES) {
      const subjects = LANGUAGES.map((language) => MAIL_TEXTS[language][template].subject);
      expect(new Set(subjects).size, template).toBe(LANGUAGES.length);
    }
  });

  it('renders each: subject on one line, every value in the text as given and in the HTML escaped', () => {
    for (const language of LANGUAGES) {
      for (const template of TEMPLATES) {
        const values = SAMPLE[template];
        const mail = renderMail({ to: 'parent@example.com', template, locale: language, values });
        expect(mail.subject).not.toMatch(/[\r\n]/);
        expect(mail.subject).not.toMatch(/\{\w+\}/);
        expect(mail.text).not.toMatch(/\{\w+\}/);
        expect(mail.html).not.toMatch(/\{\w+\}/);
        for (const value of Object.values(values)) {
          expect(mail.text).toContain(value);
          expect(mail.html).not.toContain(value.includes('<') || value.includes('&') || value.includes('"') ? value : '\u0000');
        }
      }
    }
    const card = renderMail({ to: 'parent@example.com', template: 'reportCard', locale: 'en', values: SAMPLE.reportCard });
    expect(card.html).toContain('Gulu &lt;Primary&gt; School');
    const invitation = renderMail({ to: 'a@example.com', template: 'invitation', locale: 'gr', values: SAMPLE.invitation });
    expect(invitation.html).toContain('href="https://mustard.example/join?code=AB12"');
    expect(invitation.html).toContain('St. Mary&#39;s &lt;Gulu&gt;');
    expect(invitation.html).toContain('lang="de"');
    expect(invitation.text).toContain('AB12-CD34');
  });

  it("the report card's message names the school, the term and the learner, and nothing of another learner", () => {
    const card = renderMail({ to: 'parent@example.com', template: 'reportCard', locale: 'en', values: SAMPLE.reportCard });
    expect(card.subject).toBe('Report card from Gulu <Primary> School: term II, 2026');
    expect(TEMPLATE_VALUES.reportCard).toEqual(['learner', 'school', 'term', 'year']);
  });
});

/** What the refusal says, for the developer (the 422's words are the catalogue's). */
function refusal(render: () => unknown): string {
  try {
    render();
  } catch (error) {
    if (error instanceof MailInputError) return error.detail;
    throw error;
  }
  throw new Error('the message was not refused');
}

describe('what a message may not carry', () => {
  const ok = { to: 'head@school.example', template: 'verifyEmail' as const, locale: 'en' as const, values: SAMPLE.verifyEmail };

  it.each([
    ['a line break (header injection)', 'head@school.example\r\nBcc: all@example.com'],
    ['a second address after a comma', 'head@school.example, other@example.com'],
    ['a second address after a semicolon', 'head@school.example;other@example.com'],
    ['a display name', 'Head <head@school.example>'],
    ['no domain', 'head@'],
    ['a NUL', 'head@school.example\u0000'],
    ['more than 254 characters', `${'a'.repeat(250)}@school.example`],
  ])('refuses an address with %s', (_what, to) => {
    expect(refusal(() => renderMail({ ...ok, to }))).toMatch(/not one plain e-mail address/);
  });

  it('refuses a value with a line break, which would reach the subject', () => {
    const values = { ...SAMPLE.invitation, inviter: 'Peter\r\nBcc: all@example.com' };
    expect(refusal(() => renderMail({ ...ok, template: 'invitation', values }))).toMatch(/control character/);
  });

  it('refuses a missing value, an unknown value, a link that is not http(s), an unknown language', () => {
    expect(refusal(() => renderMail({ ...ok, values: { name: 'Grace' } }))).toMatch(/needs the value "link"/);
    expect(refusal(() => renderMail({ ...ok, values: { ...SAMPLE.verifyEmail, extra: 'x' } }))).toMatch(/takes no value "extra"/);
    expect(refusal(() => renderMail({ ...ok, values: { name: 'Grace', link: 'javascript:alert(1)' } }))).toMatch(/absolute http\(s\) link/);
    expect(refusal(() => renderMail({ ...ok, values: { name: 'Grace', link: '/relative/link' } }))).toMatch(/absolute http\(s\) link/);
    expect(refusal(() => renderMail({ ...ok, locale: 'fr' as never }))).toMatch(/no language "fr"/);
  });

  it('answers a 422 with the field at fault when it reaches a route', () => {
    try {
      renderMail({ ...ok, to: 'a@b.example\nX: y' });
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ statusCode: 422, errors: { email: ['Invalid email'] } });
    }
  });
});
