import { Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PublicFrame } from '../public/PublicFrame.js';

const PAGES = {
  404: { title: 'errors.notFoundTitle', text: 'errors.notFoundText' },
  403: { title: 'errors.forbiddenTitle', text: 'errors.forbiddenText' },
  500: { title: 'errors.serverErrorTitle', text: 'errors.serverErrorText' },
  network: { title: 'errors.network', text: 'errors.networkText' },
} as const;

/**
 * The 404, 403 and 500 pages, basic or cover, and the page shown when a page's code could not
 * be downloaded. "Back to Dashboard" goes to /dashboard on all
 * three (the spec sends 404 and 500 to /sales, a page this product does not have).
 */
export function ErrorPage({ status, cover = false }: { status: keyof typeof PAGES; cover?: boolean }) {
  const { t } = useTranslation();
  return (
    <PublicFrame cover={cover}>
      <Stack align="center" gap="sm" ta="center">
        {status !== 'network' && (
          <Text fz={64} fw={700} c="dimmed" aria-hidden>
            {status}
          </Text>
        )}
        <Title order={1} size="h2">
          {t(PAGES[status].title)}
        </Title>
        <Text c="dimmed">{t(PAGES[status].text)}</Text>
        {status === 'network' ? (
          <Button onClick={() => window.location.reload()}>{t('app.retry')}</Button>
        ) : (
          <Button component={Link} to="/dashboard">
            {t('errors.backToDashboard')}
          </Button>
        )}
      </Stack>
    </PublicFrame>
  );
}
