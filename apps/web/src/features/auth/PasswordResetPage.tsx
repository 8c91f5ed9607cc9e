import { Anchor, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PublicFrame, PublicHeading } from '../public/PublicFrame.js';

/**
 * Forgotten password (spec §2 /auth/password/reset). Mustard sends no email yet, so the page
 * does not pretend to: it says who can help the user back in.
 */
export function PasswordResetPage() {
  const { t } = useTranslation();
  return (
    <PublicFrame>
      <Stack>
        <PublicHeading title={t('reset.title')} />
        <Text>{t('reset.howTo')}</Text>
        <Anchor component={Link} to="/login">
          {t('reset.backToSignIn')}
        </Anchor>
      </Stack>
    </PublicFrame>
  );
}
