import { Alert, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { formatInvitationCode, type JoinDetails, joinDetailsEndpoint, joinEndpoint, PASSWORD_MIN } from '@mustard/shared';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError, call, callWithHeaders } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { translateMessage } from '../../lib/messages.js';
import { PAGES } from '../../lib/pages.js';
import { PublicFrame, PublicHeading } from '../public/PublicFrame.js';

/**
 * Joining a school with the code it handed the person (issue 9 point 2), from the link
 * /join?code=... or typed off paper. One form for everyone: whoever already uses Mustard with
 * that e-mail enters their password; a new person chooses one. The page never says which, so the
 * link tells nobody whether an e-mail has an account.
 */
export function JoinPage() {
  const { t } = useTranslation();
  const { completeSignIn } = useAuth();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const code = params.get('code') ?? '';
  const [typed, setTyped] = useState(code);
  const [details, setDetails] = useState<JoinDetails | null>(null);
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<{ password?: string; repeat?: string }>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const explain = (error: unknown) =>
    setAlert(
      error instanceof ApiError
        ? error.status === null
          ? t('errors.network')
          : error.status === 401
            ? t('join.wrongPassword')
            : translateMessage(error.data?.errors?.code?.[0] ?? error.message)
        : (error as Error).message,
    );

  useEffect(() => {
    setDetails(null);
    setAlert(null);
    if (!code) return;
    setBusy(true);
    call(joinDetailsEndpoint, { query: { code } })
      .then(setDetails)
      .catch(explain)
      .finally(() => setBusy(false));
  }, [code]);

  const lookUp = (event: FormEvent) => {
    event.preventDefault();
    if (typed.trim()) setParams({ code: typed.trim() });
  };

  const join = async (event: FormEvent) => {
    event.preventDefault();
    const problems = {
      password: password.length < PASSWORD_MIN ? t('join.passwordTooShort', { count: PASSWORD_MIN }) : undefined,
      repeat: repeat !== password ? t('join.repeatDiffers') : undefined,
    };
    setErrors(problems);
    if (problems.password || problems.repeat) return;
    setAlert(null);
    setBusy(true);
    try {
      const { data, headers } = await callWithHeaders(joinEndpoint, { body: { code, password } });
      await completeSignIn((headers.get('authorization') ?? '').replace(/^Bearer /, ''), data, data.tenant);
      navigate(PAGES.dashboard.path, { replace: true });
    } catch (error) {
      explain(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <PublicFrame>
      <Stack>
        <PublicHeading
          title={details ? t('join.title', { school: details.tenant.name }) : t('join.titleNoSchool')}
          text={t('join.subtitle')}
        />
        {alert && (
          <Alert color="red" role="alert" data-testid="join-alert">
            {alert}
          </Alert>
        )}
        {!details ? (
          <form onSubmit={lookUp} noValidate>
            <Stack>
              <TextInput
                label={t('join.code')}
                placeholder="K7QM-2XPD-9WTR"
                value={typed}
                onChange={(event) => setTyped(event.currentTarget.value)}
                autoComplete="off"
                autoFocus
              />
              <Button type="submit" loading={busy} fullWidth>
                {t('auth.continue')}
              </Button>
            </Stack>
          </form>
        ) : (
          <form onSubmit={join} noValidate>
            <Stack>
              <Text data-testid="join-details">
                {t('join.invites', {
                  school: details.tenant.name,
                  name: details.name,
                  email: details.email,
                  roles: details.roles.map((role) => t(`roles.${role}`, { defaultValue: role })).join(', ') || t('invitations.noRole'),
                })}
              </Text>
              <Text size="sm" c="dimmed">
                {t('join.passwordHelp', { code: formatInvitationCode(code) })}
              </Text>
              <PasswordInput
                label={t('auth.password')}
                autoComplete="current-password"
                value={password}
                onChange={(event) => setPassword(event.currentTarget.value)}
                error={errors.password}
                autoFocus
              />
              <PasswordInput
                label={t('join.repeat')}
                autoComplete="current-password"
                value={repeat}
                onChange={(event) => setRepeat(event.currentTarget.value)}
                error={errors.repeat}
              />
              <Button type="submit" loading={busy} fullWidth>
                {t('join.submit')}
              </Button>
            </Stack>
          </form>
        )}
      </Stack>
    </PublicFrame>
  );
}
