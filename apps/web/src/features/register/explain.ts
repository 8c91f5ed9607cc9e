import type { TFunction } from 'i18next';
import { ApiError } from '../../lib/api.js';
import { translateMessage } from '../../lib/messages.js';

/** What a refused sign-up call says to the person: the first field's words, or the answer's, or the network. */
export function explainFailure(error: unknown, t: TFunction): string {
  if (!(error instanceof ApiError)) return (error as Error).message;
  if (error.status === null) return t('errors.network');
  const first = Object.values(error.data?.errors ?? {})[0]?.[0];
  return translateMessage(first ?? error.message);
}
