import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { PublicFrame, PublicHeading } from '../public/PublicFrame.js';
import { ResendForm } from './ResendForm.js';

/** After the sign-up: the link is on its way; the same page whether or not the address had an account. */
export function CheckEmailPage() {
  const { t } = useTranslation();
  const email = (useLocation().state as { email?: string } | null)?.email ?? '';
  return (
    <PublicFrame>
      <Stack>
        <PublicHeading title={t('register.checkTitle')} text={email ? t('register.checkText', { email }) : t('register.checkTextAny')} />
        <Text size="sm">{t('register.checkHint')}</Text>
        <ResendForm email={email} />
      </Stack>
    </PublicFrame>
  );
}
