import { Alert, Button, Stack, TextInput } from '@mantine/core';
import { type Language, resendRegistrationEndpoint } from '@mustard/shared';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../lib/api.js';
import { explainFailure } from './explain.js';

/** Asks for the verification link again; the answer is the same whether or not the address is known. */
export function ResendForm({ email: known = '' }: { email?: string }) {
  const { t, i18n } = useTranslation();
  const [email, setEmail] = useState(known);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setOutcome(null);
    try {
      await call(resendRegistrationEndpoint, { body: { email: email.trim(), locale: i18n.language as Language } });
      setOutcome({ ok: true, text: t('register.resent') });
    } catch (error) {
      setOutcome({ ok: false, text: explainFailure(error, t) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={send} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('register.email')}
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
        />
        <Button type="submit" variant="light" loading={busy}>
          {t('register.resend')}
        </Button>
        {outcome && (
          <Alert color={outcome.ok ? 'green' : 'red'} role={outcome.ok ? 'status' : 'alert'}>
            {outcome.text}
          </Alert>
        )}
      </Stack>
    </form>
  );
}
