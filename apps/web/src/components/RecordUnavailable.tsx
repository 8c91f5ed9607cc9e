import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../lib/api.js';
import { errorText } from '../lib/notify.js';

/**
 * A page of one record that cannot show it: gone, of another school, or a stale link (404),
 * or no answer on a dropping connection. Says which, and offers the way on: the list the
 * record belongs to, and another try when the fault may pass. Never a spinner forever.
 */
export function RecordUnavailable({
  error,
  notFoundText,
  back,
  onRetry,
}: {
  error: unknown;
  /** What the page says when the record does not exist here (a locale key). */
  notFoundText: string;
  back: { to: string; label: string };
  onRetry(): void;
}) {
  const { t } = useTranslation();
  const missing = error instanceof ApiError && error.status === 404;
  return (
    <Card withBorder padding="xl" data-testid="record-unavailable" data-reason={missing ? 'not-found' : 'failed'}>
      <Stack align="flex-start">
        <Title order={1} size="h3">
          {missing ? t('errors.recordMissingTitle') : t('errors.recordFailedTitle')}
        </Title>
        <Text>{missing ? t(notFoundText) : errorText(error)}</Text>
        <Group>
          <Button component={Link} to={back.to}>
            {t(back.label)}
          </Button>
          {!missing && (
            <Button variant="default" onClick={onRetry}>
              {t('app.retry')}
            </Button>
          )}
        </Group>
      </Stack>
    </Card>
  );
}
