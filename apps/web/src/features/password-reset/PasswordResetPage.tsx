import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { NewPasswordSchema, PASSWORD_RESET_MESSAGES, passwordResetConfirmEndpoint, passwordResetEndpoint } from '@mustard/shared';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { z } from 'zod';
import { ApiError, call } from '../../lib/api.js';
import { useSchemaForm } from '../../lib/forms.js';
import { storedLanguage } from '../../lib/i18n.js';
import { translateMessage } from '../../lib/messages.js';
import { PublicFrame, PublicHeading } from '../public/PublicFrame.js';

/**
 * A forgotten password (spec §2 /auth/password/reset, issue 29 point 3). Without a token the
 * page asks for the e-mail address (Send Request) and then says a link is on its way if an
 * account uses it, the same words for any address; the e-mail's link opens this page with
 * `?token=`, where the person chooses the new password (§5's rule) and then signs in with it.
 */
export function PasswordResetPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  return <PublicFrame>{token ? <NewPasswordForm token={token} /> : <RequestForm />}</PublicFrame>;
}

/** What went wrong, in the reader's language: the network, or the server's catalogue words. */
function problemOf(error: unknown, t: (key: string) => string): string {
  if (error instanceof ApiError) return error.status === null ? t('errors.network') : translateMessage(error.message);
  return (error as Error).message;
}

function RequestForm() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [answer, setAnswer] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    setFieldError(null);
    setBusy(true);
    try {
      const { message } = await call(passwordResetEndpoint, { body: { email, locale: storedLanguage() } });
      setAnswer(translateMessage(message));
    } catch (error) {
      const refused = error instanceof ApiError ? error.data?.errors?.email?.[0] : undefined;
      if (refused) setFieldError(translateMessage(refused));
      else setProblem(problemOf(error, t));
    } finally {
      setBusy(false);
    }
  };

  if (answer) {
    return (
      <Stack>
        <PublicHeading title={t('reset.sentTitle')} />
        <Text data-testid="reset-requested">{answer}</Text>
        <Button variant="light" onClick={() => setAnswer(null)}>
          {t('reset.askAgain')}
        </Button>
        <Anchor component={Link} to="/login">
          {t('reset.backToSignIn')}
        </Anchor>
      </Stack>
    );
  }
  return (
    <form onSubmit={send} noValidate>
      <Stack>
        <PublicHeading title={t('reset.title')} text={t('reset.text')} />
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <TextInput
          label={t('auth.email')}
          type="email"
          autoComplete="email"
          placeholder={t('auth.emailPlaceholder')}
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
          error={fieldError}
          withAsterisk
          autoFocus
        />
        <Button type="submit" loading={busy} fullWidth>
          {t('reset.send')}
        </Button>
        <Anchor component={Link} to="/login">
          {t('reset.backToSignIn')}
        </Anchor>
      </Stack>
    </form>
  );
}

interface NewPassword extends Record<string, unknown> {
  password: string;
  repeat: string;
}

function NewPasswordForm({ token }: { token: string }) {
  const { t } = useTranslation();
  // The new password twice: §5's rule on the first (the server's own schema), the same text on
  // the second; both said at once (the rule's checks stop a whole object's parse at its first fault).
  const schema = useMemo(
    () =>
      z.object({ password: z.string(), repeat: z.string() }).superRefine((values, context) => {
        const rule = NewPasswordSchema.safeParse(values.password);
        if (!rule.success) context.addIssue({ code: 'custom', path: ['password'], message: rule.error.issues[0]?.message ?? '' });
        if (values.repeat !== values.password) context.addIssue({ code: 'custom', path: ['repeat'], message: t('reset.repeatDiffers') });
      }),
    [t],
  );
  const { form, field, showServerErrors } = useSchemaForm<NewPassword>(schema, { password: '', repeat: '' });
  const [state, setState] = useState<'open' | 'done' | 'linkInvalid'>('open');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async (values: NewPassword) => {
    setProblem(null);
    setBusy(true);
    try {
      await call(passwordResetConfirmEndpoint, { body: { token, password: values.password } });
      setState('done');
    } catch (error) {
      if (error instanceof ApiError && error.data?.errors?.token) setState('linkInvalid');
      else if (!showServerErrors(error)) setProblem(problemOf(error, t));
    } finally {
      setBusy(false);
    }
  };

  if (state === 'done') {
    return (
      <Stack>
        <PublicHeading title={t('reset.doneTitle')} />
        <Text data-testid="reset-done">{translateMessage(PASSWORD_RESET_MESSAGES.changed)}</Text>
        <Button component={Link} to="/login" fullWidth>
          {t('auth.signIn')}
        </Button>
      </Stack>
    );
  }
  if (state === 'linkInvalid') {
    return (
      <Stack>
        <PublicHeading title={t('reset.linkInvalidTitle')} />
        <Alert color="red" role="alert" data-testid="reset-link-invalid">
          {translateMessage(PASSWORD_RESET_MESSAGES.linkInvalid)}
        </Alert>
        <Button component={Link} to="/auth/password/reset" fullWidth>
          {t('reset.askAgain')}
        </Button>
      </Stack>
    );
  }
  return (
    <form onSubmit={form.onSubmit(save)} noValidate>
      <Stack>
        <PublicHeading title={t('reset.newTitle')} />
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <PasswordInput
          label={t('reset.newPassword')}
          description={t('register.passwordHint')}
          autoComplete="new-password"
          withAsterisk
          autoFocus
          {...field('password')}
        />
        <PasswordInput label={t('reset.repeat')} autoComplete="new-password" withAsterisk {...field('repeat')} />
        <Button type="submit" loading={busy} fullWidth>
          {t('reset.save')}
        </Button>
      </Stack>
    </form>
  );
}
