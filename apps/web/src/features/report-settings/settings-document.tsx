import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ERROR_MESSAGES, REPORT_MESSAGES, RESULT_MESSAGES } from '@mustard/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { PageLoading } from '../../components/PageLoading.js';
import { ApiError } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { translateMessage } from '../../lib/messages.js';
import { errorText, notifyError } from '../../lib/notify.js';
import { fieldErrors, serverErrors } from './form.js';

/** A setting as the API answers it: the school's value, the guide's default, and the version read. */
export interface SettingsAnswer<T> {
  value: T;
  defaults: T;
  version: number;
}

export interface SettingsDocumentOptions<T> {
  /** The query's key (with the school's id added) and the body's field of the value (`rules`). */
  name: string;
  load: () => Promise<SettingsAnswer<T>>;
  save: (value: T, version: number) => Promise<SettingsAnswer<T>>;
  /** The check the server makes too; errors are shown beside the fields before anything is sent. */
  schema: z.ZodType<T, unknown>;
}

/**
 * One school setting edited as a whole document (grading rules, report layout): loaded with
 * react-query, edited in one state (what a preview draws), checked by the shared schema, saved
 * with the version it was loaded at. A save someone else made since is not overwritten: the
 * page says so (`conflict`) and reloads on request. "Restore the defaults" only fills the form.
 */
export function useSettingsDocument<T>({ name, load, save, schema }: SettingsDocumentOptions<T>) {
  const { session } = useAuth();
  const queryClient = useQueryClient();
  const queryKey = ['report-settings', name, session?.tenant?.id];
  // Read afresh when the page opens, never behind the person's back while they edit (a refetch
  // on focus would replace their changes): someone else's save shows as a conflict instead.
  const query = useQuery({
    queryKey,
    queryFn: load,
    enabled: Boolean(session?.tenant),
    staleTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  const [value, setValue] = useState<T | null>(null);
  const [version, setVersion] = useState(0);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [conflict, setConflict] = useState(false);
  const [busy, setBusy] = useState(false);
  // After a save refused for its fields, every change is checked again: a fixed field's error goes.
  const [checking, setChecking] = useState(false);

  const reset = useCallback((answer: SettingsAnswer<T>) => {
    setValue(structuredClone(answer.value));
    setVersion(answer.version);
    setErrors({});
    setConflict(false);
    setChecking(false);
  }, []);
  const showErrors = useCallback((next: Record<string, string>) => {
    // The same errors keep their object, so the sections that show none are not drawn again.
    setErrors((current) => (JSON.stringify(current) === JSON.stringify(next) ? current : next));
  }, []);
  useEffect(() => {
    if (!checking || value === null) return;
    const checked = schema.safeParse(value);
    showErrors(checked.success ? {} : fieldErrors(checked.error));
  }, [checking, value, schema, showErrors]);
  useEffect(() => {
    if (query.data) reset(query.data);
  }, [query.data, reset]);

  /** A change to the document (checked again at once after a refused save). */
  const change = useCallback((update: (current: T) => T) => setValue((current) => (current === null ? current : update(current))), []);

  const submit = async (prepare: (value: T) => T = (same) => same) => {
    if (value === null) return;
    const checked = schema.safeParse(prepare(value));
    if (!checked.success) {
      showErrors(fieldErrors(checked.error));
      setChecking(true);
      return;
    }
    showErrors({});
    setBusy(true);
    try {
      const saved = await save(checked.data, version);
      queryClient.setQueryData(queryKey, saved);
      reset(saved);
      notifications.show({ color: 'green', message: translateMessage(RESULT_MESSAGES.updated) });
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) setConflict(true);
      else if (error instanceof ApiError && error.status === 422 && error.data?.errors) showErrors(serverErrors(error.data.errors, name));
      else notifyError(error);
    } finally {
      setBusy(false);
    }
  };

  /** After a conflict: the school's settings as they are now (the form's changes are dropped). */
  const reload = async () => {
    const fresh = await query.refetch();
    if (fresh.data) reset(fresh.data);
  };

  const restoreDefaults = () => {
    if (!query.data) return;
    setValue(structuredClone(query.data.defaults));
    setErrors({});
    setChecking(false);
  };

  /** The translated error of a field (`primary.divisions.1.aggregateAtMost`), if any. */
  const errorOf = useCallback(
    (field: string): string | undefined => (errors[field] ? translateMessage(errors[field]) : undefined),
    [errors],
  );

  return { query, value, change, errors, errorOf, conflict, busy, submit, reload, restoreDefaults };
}

/** What a settings page shows until its document is there: loading, or why it did not come. */
export function SettingsLoading({ query }: { query: { isError: boolean; error: unknown; refetch: () => unknown } }) {
  const { t } = useTranslation();
  if (!query.isError) return <PageLoading />;
  return (
    <Alert color="red" data-testid="settings-load-failed">
      <Stack gap="xs">
        <Text size="sm">{errorText(query.error)}</Text>
        <Group>
          <Button size="xs" variant="default" onClick={() => void query.refetch()}>
            {t('app.retry')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

/** The foot of a settings page: the conflict (someone saved since) and the fields at fault, then the buttons. */
export function SettingsActions({
  conflict,
  invalid,
  busy,
  onSave,
  onRestore,
  onReload,
  children,
}: {
  conflict: boolean;
  invalid: boolean;
  busy: boolean;
  onSave: () => void;
  onRestore: () => void;
  onReload: () => Promise<void>;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Stack>
      {conflict && (
        <Alert color="orange" title={t('reportSettings.conflictTitle')} data-testid="settings-conflict">
          <Stack gap="xs">
            <Text size="sm">{translateMessage(REPORT_MESSAGES.settingsChanged)}</Text>
            <Group>
              <Button size="xs" variant="default" onClick={() => void onReload().catch(notifyError)}>
                {t('reportSettings.reload')}
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}
      {invalid && (
        <Alert color="red" data-testid="settings-invalid">
          {translateMessage(ERROR_MESSAGES[422])}
        </Alert>
      )}
      <Group justify="space-between">
        <Button variant="default" onClick={onRestore} data-testid="restore-defaults">
          {t('reportSettings.restore')}
        </Button>
        <Group>
          {children}
          <Button onClick={onSave} loading={busy} data-testid="settings-save">
            {t('list.save')}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
