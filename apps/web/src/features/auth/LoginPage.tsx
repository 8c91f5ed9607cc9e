import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { authTypeRoute, type LoginResponse, loginRoute, redeemCodeRoute } from '@mustard/shared';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ApiError, callRoute } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { PAGES } from '../../lib/pages.js';
import { PublicFrame, PublicHeading } from '../public/PublicFrame.js';
import { externalSignInFailure } from '../signin-domains/external-failure.js';

/** Where to go after signing in: the page first asked for, else the dashboard. */
function destination(state: unknown): string {
  const from = (state as { from?: string } | null)?.from;
  return from?.startsWith('/') && !from.startsWith('/login') ? from : PAGES.dashboard.path;
}

function tokenFrom(headers: Headers): string {
  return (headers.get('authorization') ?? '').replace(/^Bearer /, '');
}

/**
 * Sign-in (spec §4): email first; the server says whether this email signs in with a password
 * or elsewhere; `?code=` redeems a one-time code on load. The calls go by their contracts'
 * routes, unparsed (`callRoute`): the schema library would take the page over its budget.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const { session, completeSignIn } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [stage, setStage] = useState<'email' | 'password'>('email');
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  const [emailError, setEmailError] = useState<string | null>(null);
  const redeemed = useRef(false);
  const code = params.get('code');
  const external = params.get('external');

  const finish = async (response: { data: LoginResponse; headers: Headers }) => {
    await completeSignIn(tokenFrom(response.headers), response.data);
    navigate(destination(location.state), { replace: true });
  };

  const fail = (error: unknown, unauthorizedText: string) => {
    setAlert(
      error instanceof ApiError && error.status === 401
        ? unauthorizedText
        : error instanceof ApiError && error.status === null
          ? t('errors.network')
          : (error as Error).message,
    );
  };

  const explainExternal = (reason: string) => externalSignInFailure(reason).then(setAlert);

  useEffect(() => {
    if (external) void explainExternal(external);
  }, [external]);

  useEffect(() => {
    if (!code || session || redeemed.current) return;
    redeemed.current = true;
    setBusy(true);
    callRoute(redeemCodeRoute, { body: { code } })
      .then(finish)
      .catch((error) => fail(error, t('auth.invalidCode')))
      .finally(() => setBusy(false));
  }, [code]);

  if (session) return <Navigate to={destination(location.state)} replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    // The one rule of the login form (spec §5): an email is required. The server checks the rest.
    const trimmed = email.trim();
    if (!trimmed) {
      setEmailError(t('auth.emailRequired'));
      return;
    }
    setEmailError(null);
    setBusy(true);
    try {
      if (stage === 'email') {
        const { data } = await callRoute(authTypeRoute, { body: { email: trimmed } });
        if (data.type === 'redirect') {
          // The organisation's provider, which sends the browser back to /login with a code.
          window.location.assign(data.url);
          return;
        }
        setStage('password');
      } else {
        await finish(await callRoute(loginRoute, { body: { user: { email: trimmed, password } } }));
      }
    } catch (error) {
      if (error instanceof ApiError && error.status === 502) await explainExternal('unreachable');
      else fail(error, t('auth.invalidCredentials'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <PublicFrame>
      <form onSubmit={submit} noValidate>
        <Stack>
          {alert && (
            <Alert color="red" role="alert" data-testid="login-alert">
              {alert}
            </Alert>
          )}
          <PublicHeading title={t('auth.title')} text={t('auth.subtitle')} />
          <TextInput
            label={t('auth.email')}
            placeholder={t('auth.emailPlaceholder')}
            type="email"
            autoComplete="username"
            value={email}
            onChange={(event) => {
              setEmail(event.currentTarget.value);
              if (stage === 'password') setStage('email');
            }}
            error={emailError}
            autoFocus
          />
          {stage === 'password' && (
            <PasswordInput
              label={t('auth.password')}
              placeholder={t('auth.passwordPlaceholder')}
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
              autoFocus
            />
          )}
          <Button type="submit" loading={busy} fullWidth>
            {stage === 'email' ? t('auth.continue') : t('auth.signIn')}
          </Button>
          <Group justify="space-between">
            <Anchor component={Link} to="/auth/password/reset" size="sm">
              {t('auth.forgotPassword')}
            </Anchor>
            <Text size="sm">
              {t('auth.noAccount')}{' '}
              <Anchor component={Link} to="/register">
                {t('auth.signup')}
              </Anchor>
            </Text>
          </Group>
        </Stack>
      </form>
    </PublicFrame>
  );
}
