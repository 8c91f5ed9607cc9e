import { Alert, Anchor, Loader, Stack, Text } from '@mantine/core';
import { verifyRegistrationEndpoint } from '@mustard/shared';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError, callWithHeaders } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { PAGES } from '../../lib/pages.js';
import { PublicFrame, PublicHeading } from '../public/PublicFrame.js';
import { explainFailure } from './explain.js';
import { ResendForm } from './ResendForm.js';

/**
 * The mailed link (`/register/verify?token=`): the school or business is made, the person signed
 * in to it and taken to its dashboard. A link used, expired or not ours says so, with the resend form.
 */
export function VerifyPage() {
  const { t } = useTranslation();
  const { completeSignIn } = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [failure, setFailure] = useState<{ invalid: boolean; text: string } | null>(token ? null : { invalid: true, text: '' });
  const sent = useRef(false);

  useEffect(() => {
    if (!token || sent.current) return;
    // Once: a second call of the same link would be refused as used.
    sent.current = true;
    callWithHeaders(verifyRegistrationEndpoint, { body: { token } })
      .then(async ({ data, headers }) => {
        await completeSignIn((headers.get('authorization') ?? '').replace(/^Bearer /, ''), data);
        navigate(PAGES.dashboard.path, { replace: true });
      })
      .catch((error) => setFailure({ invalid: error instanceof ApiError && error.status === 400, text: explainFailure(error, t) }));
  }, [token, completeSignIn, navigate, t]);

  if (!failure) {
    return (
      <PublicFrame>
        <Stack align="center">
          <Loader />
          <Text role="status">{t('register.verifying')}</Text>
        </Stack>
      </PublicFrame>
    );
  }
  return (
    <PublicFrame>
      <Stack>
        <PublicHeading title={t('register.linkTitle')} text={t('register.linkText')} />
        {!failure.invalid && (
          <Alert color="red" role="alert">
            {failure.text}
          </Alert>
        )}
        <Text size="sm">{t('register.askAgain')}</Text>
        <ResendForm />
        <Anchor component={Link} to="/login" size="sm">
          {t('register.signInInstead')}
        </Anchor>
      </Stack>
    </PublicFrame>
  );
}
