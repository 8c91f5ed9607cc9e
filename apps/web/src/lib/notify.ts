import { notifications } from '@mantine/notifications';
import { ApiError } from './api.js';
import { i18next } from './i18n.js';
import { translateMessage } from './messages.js';

/**
 * The text the spec's catalogue (§8) shows for a failed call, in the user's language:
 * "Network error" when no answer came, the catalogue's text for 401, 403, 404 and 500, the
 * server's own message (a 409's reason, say) otherwise.
 */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === null) return i18next.t('errors.network');
    // A 403 says why when the server does (a catalogue text: "The demo accounts cannot create schools…").
    if (error.status === 403 && error.data?.message) return translateMessage(error.data.message);
    // The catalogue's ERROR_MESSAGES by their keys: naming the constant would bring every
    // catalogue's English into the first paint's code (lib/messages.ts).
    if (error.status === 500 || error.status === 401 || error.status === 403 || error.status === 404)
      return i18next.t(`messages.errors.${error.status}`);
    return translateMessage(error.data?.message ?? error.message);
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * One toast per text: a page whose three calls fail alike (a learner of another school) says
 * so once. Mantine keeps a single notification per id while it shows.
 */
export function notifyError(error: unknown): void {
  const message = errorText(error);
  notifications.show({ id: `error:${message}`, color: 'red', message });
}

/**
 * A long action (an upload, a report): a "Please wait.." toast while it runs, then the
 * success text or the server's error in the same toast.
 */
export async function runLongAction<T>(action: Promise<T>, successText: string | ((result: T) => string)): Promise<T> {
  const id = notifications.show({ loading: true, message: i18next.t('errors.pleaseWait'), autoClose: false, withCloseButton: false });
  try {
    const result = await action;
    notifications.update({
      id,
      loading: false,
      color: 'green',
      message: typeof successText === 'function' ? successText(result) : successText,
      autoClose: 4000,
    });
    return result;
  } catch (error) {
    notifications.update({ id, loading: false, color: 'red', message: errorText(error), autoClose: 6000 });
    throw error;
  }
}
