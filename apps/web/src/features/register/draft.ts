import type { Business, Register } from '@mustard/shared';

/*
 * What the sign-up's steps have gathered so far, kept in memory only (the password never goes into
 * the browser's history or storage): the three steps are sent once, at the end. A reload starts
 * again at step one; the steps' pages say so.
 */
export interface RegistrationDraft {
  person?: Register;
  organisation?: Business;
  /** The organisation's logo as chosen (optional); sent with the rest, the server checks it. */
  logo?: File | null;
}

export const draft: RegistrationDraft = {};
