import { Button, Fieldset, FileInput, Group, Image, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { removeSchoolLogoEndpoint, schoolLogoEndpoint, uploadSchoolLogoEndpoint } from '@mustard/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { translateMessage } from '../../lib/messages.js';
import { errorText } from '../../lib/notify.js';

/** The pictures a badge may be (the server checks the bytes; this only narrows the file chooser). */
const ACCEPT = 'image/png,image/jpeg,image/webp';

/** A failed upload's reason: the field's own (not a picture, too large), else the call's. */
function uploadError(error: unknown): string {
  if (error instanceof ApiError) {
    const own = error.data?.errors?.logo?.[0];
    if (own) return translateMessage(own);
  }
  return errorText(error);
}

/**
 * The school's badge (issue 24 point 3): printed at the top left of every report card. Shown as
 * stored (fetched with the session: it is served to the school's members only), replaced by an
 * upload, or removed; the card preview beside it is redrawn with it.
 */
export function SchoolBadge() {
  const { t } = useTranslation();
  const { session } = useAuth();
  const queryClient = useQueryClient();
  const tenant = session?.tenant?.id;
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const badge = useQuery({
    queryKey: ['school-logo', tenant],
    queryFn: async () => {
      try {
        return await call(schoolLogoEndpoint, {});
      } catch (failure) {
        if (failure instanceof ApiError && failure.status === 404) return null;
        throw failure;
      }
    },
    retry: false,
  });
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const blob = badge.data;
    if (!blob) {
      setUrl(null);
      return;
    }
    const objectUrl = URL.createObjectURL(blob);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [badge.data]);

  const changed = async (message: string) => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ['school-logo', tenant] }),
      queryClient.invalidateQueries({ queryKey: ['report-sample', tenant] }),
    ]);
    notifications.show({ color: 'green', message });
  };
  const upload = async () => {
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      const form = new FormData();
      form.set('logo', file);
      await call(uploadSchoolLogoEndpoint, { body: form });
      setFile(null);
      await changed(t('reportLayout.badgeSaved'));
    } catch (failure) {
      setError(uploadError(failure));
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      await call(removeSchoolLogoEndpoint, {});
      await changed(t('reportLayout.badgeRemoved'));
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Fieldset legend={t('reportLayout.badge')} data-testid="school-badge">
      <Stack gap="xs">
        <Text size="sm" c="dimmed">
          {t('reportLayout.badgeHint')}
        </Text>
        {url ? (
          <Image src={url} alt={t('reportLayout.badgeAlt')} w={72} h={72} fit="contain" data-testid="school-badge-image" />
        ) : (
          badge.isSuccess && (
            <Text size="sm" data-testid="school-badge-none">
              {t('reportLayout.badgeNone')}
            </Text>
          )
        )}
        <FileInput
          label={t('reportLayout.badgeFile')}
          placeholder={t('reportLayout.badgeChoose')}
          accept={ACCEPT}
          value={file}
          onChange={(chosen) => {
            setFile(chosen);
            setError(null);
          }}
          clearable
          error={error}
        />
        <Group gap="xs">
          <Button size="xs" onClick={() => void upload()} disabled={!file} loading={busy}>
            {t('reportLayout.badgeUpload')}
          </Button>
          {url && (
            <Button size="xs" variant="default" color="red" onClick={() => void remove()} disabled={busy}>
              {t('reportLayout.badgeRemove')}
            </Button>
          )}
        </Group>
      </Stack>
    </Fieldset>
  );
}
