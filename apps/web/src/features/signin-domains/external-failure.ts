import { i18next, loadScreenTexts } from '../../lib/i18n.js';

/**
 * Why an external sign-in came back to /login without a code (`?external=<reason>`, or
 * `unreachable` when the provider does not answer), in the person's language. The words are the
 * screens' part of the locale files, fetched only then: they do not weigh on /login's budget.
 */
export async function externalSignInFailure(reason: string): Promise<string> {
  await loadScreenTexts();
  return i18next.t([`externalSignIn.${reason}`, 'externalSignIn.provider']);
}
