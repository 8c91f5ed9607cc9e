import { Button, Stack } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuth } from '../../lib/auth.js';
import { PublicFrame, PublicHeading } from '../public/PublicFrame.js';

/** Clears the session (and every other tab's), then says so with a way back in (spec §2). */
export function LogoutPage() {
  const { t } = useTranslation();
  const { session, logout } = useAuth();
  useEffect(() => {
    if (session) logout();
  }, [session, logout]);
  return (
    <PublicFrame>
      <Stack>
        <PublicHeading title={t('auth.loggedOutTitle')} text={t('auth.loggedOutText')} />
        <Button component={Link} to="/login">
          {t('auth.signInAgain')}
        </Button>
      </Stack>
    </PublicFrame>
  );
}
