import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

const PAGES = {
  404: { title: 'errors.notFoundTitle', text: 'errors.notFoundText' },
  403: { title: 'errors.forbiddenTitle', text: 'errors.forbiddenText' },
  500: { title: 'errors.serverErrorTitle', text: 'errors.serverErrorText' },
} as const;

/** The 404, 403 and 500 pages; "Back to Dashboard" goes to /dashboard (the spec's /sales is no page here). */
export function ErrorPage({ status }: { status: keyof typeof PAGES }) {
  const { t } = useTranslation();
  return (
    <Center mih="70vh" p="md">
      <Stack align="center" gap="sm">
        <Text fz={64} fw={700} c="dimmed" aria-hidden>
          {status}
        </Text>
        <Title order={1}>{t(PAGES[status].title)}</Title>
        <Text c="dimmed">{t(PAGES[status].text)}</Text>
        <Button component={Link} to="/dashboard">
          {t('errors.backToDashboard')}
        </Button>
      </Stack>
    </Center>
  );
}
