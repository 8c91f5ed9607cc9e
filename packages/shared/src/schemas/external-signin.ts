import { z } from 'zod';
import { INPUT_MESSAGES, SIGNIN_DOMAIN_MESSAGES } from '../messages.js';
import { requiredText, text } from './common.js';

/*
 * External sign-in (issue 29 point 6): an e-mail domain whose people sign in at their
 * organisation's OpenID provider, set by a platform administrator.
 */

/** A domain as people's e-mail addresses end: `school.ac.ug`, in small letters. */
export const SigninDomainSchema = text()
  .trim()
  .toLowerCase()
  .max(253, INPUT_MESSAGES.valueInvalid)
  .regex(/^(?=.{3,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, INPUT_MESSAGES.valueInvalid);

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/**
 * An issuer is an https:// address (the provider's tokens are trusted for what it says over it);
 * plain http only on this machine, for a provider run beside the server (tests, trials).
 */
export function isIssuerUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  if (url.username || url.password || url.search || url.hash) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.includes(url.hostname));
}

/** The domain a removal names (`?domain=`). */
export const SigninDomainQuerySchema = z.object({ domain: SigninDomainSchema });

/**
 * A provider for the domain: its issuer, and the client Mustard is registered as there. The
 * secret is written, never read back: left blank it keeps the one stored.
 */
export const SigninDomainBodySchema = z.strictObject({
  domain: SigninDomainSchema,
  issuer: requiredText(SIGNIN_DOMAIN_MESSAGES.issuerRequired).max(500).refine(isIssuerUrl, SIGNIN_DOMAIN_MESSAGES.issuerInvalid),
  client_id: requiredText(SIGNIN_DOMAIN_MESSAGES.clientIdRequired).max(500),
  client_secret: text()
    .max(1000)
    .nullish()
    .transform((value) => value || null),
});
export type SigninDomainBody = z.input<typeof SigninDomainBodySchema>;
export type SigninDomainInput = z.output<typeof SigninDomainBodySchema>;

/** A domain as the administrator sees it: never its secret. */
export const SigninDomainRecordSchema = z.object({
  domain: z.string(),
  issuer: z.string(),
  client_id: z.string(),
  updated_at: z.string(),
});
export type SigninDomain = z.infer<typeof SigninDomainRecordSchema>;

export const SigninDomainListSchema = z.object({ domains: z.array(SigninDomainRecordSchema) });

/** Why an external sign-in came back to /login without a code (`/login?external=<reason>`). */
export const EXTERNAL_SIGNIN_FAILURES = ['state', 'expired', 'unverified', 'domain', 'account', 'provider'] as const;
export type ExternalSignInFailure = (typeof EXTERNAL_SIGNIN_FAILURES)[number];
