import { Anchor, Box, Card, Center, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import './public.css';

/**
 * The frame of the pages a visitor sees before signing in: the product's name (linking to the
 * dashboard, which sends a visitor to sign in) above a card. `cover` puts a brand panel beside
 * the card on wide screens, the template's "cover" variant.
 */
export function PublicFrame({ children, cover = false, width = 440 }: { children: ReactNode; cover?: boolean; width?: number }) {
  const { t } = useTranslation();
  const card = (
    <Stack w={width} maw="100%" gap="md">
      <Anchor component={Link} to="/dashboard" underline="never" className="mustard-public-logo">
        <Title order={2} component="span">
          {t('app.name')}
        </Title>
      </Anchor>
      <Card withBorder shadow="sm" padding="xl" radius="md">
        {children}
      </Card>
      <Text size="xs" c="dimmed" ta="center">
        {t('app.footer', { year: new Date().getFullYear() })}
      </Text>
    </Stack>
  );
  if (!cover) {
    return (
      <Center mih="100vh" p="md" component="main">
        {card}
      </Center>
    );
  }
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing={0} mih="100vh" component="main">
      <Box className="mustard-cover" visibleFrom="md" p="xl">
        <Group h="100%" align="center">
          <Stack gap="xs">
            <Title order={2} c="white" component="p">
              {t('app.name')}
            </Title>
            <Text c="white" size="lg">
              {t('app.tagline')}
            </Text>
          </Stack>
        </Group>
      </Box>
      <Center p="md">{card}</Center>
    </SimpleGrid>
  );
}

/** A page heading inside the frame's card: title and a line of explanation. */
export function PublicHeading({ title, text }: { title: string; text?: string }) {
  return (
    <div>
      <Title order={1} size="h3">
        {title}
      </Title>
      {text && <Text c="dimmed">{text}</Text>}
    </div>
  );
}
