import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuth } from '../../lib/auth.js';

/** Clears the session (and every other tab's), then says so with a way back in (spec §2). */
export function LogoutPage() {
  const { t } = useTranslation();
  const { session, logout } = useAuth();
  useEffect(() => {
    if (session) logout();
  }, [session, logout]);
  return (
    <Center mih="100vh">
      <Stack align="center">
        <Title order={1}>{t('auth.loggedOutTitle')}</Title>
        <Text c="dimmed">{t('auth.loggedOutText')}</Text>
        <Button component={Link} to="/login">
          {t('auth.signInAgain')}
        </Button>
      </Stack>
    </Center>
  );
}
