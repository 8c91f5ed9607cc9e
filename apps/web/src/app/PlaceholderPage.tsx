import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A route whose feature arrives with a later issue: its title, and nothing pretending to work. */
export function PlaceholderPage({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={1} size="h3">
        {t(title)}
      </Title>
      <Text c="dimmed">{t('pages.comingWithLaterRelease')}</Text>
    </Stack>
  );
}
