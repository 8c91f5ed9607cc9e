import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { COMING_SOON_TARGET, notifyMeRoute } from '@mustard/shared';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError, callRoute } from '../../lib/api.js';
import { translateMessage } from '../../lib/messages.js';
import { errorText } from '../../lib/notify.js';
import { PublicFrame, PublicHeading } from './PublicFrame.js';

/**
 * "Notify me" (spec §2): the visitor's address is kept and they are told so. The server checks
 * the address (this page carries no validation library, so it calls by the contract's route,
 * unparsed); its words show under the field.
 */
function NotifyMe() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { data } = await callRoute(notifyMeRoute, { body: { email: email.trim() } });
      setDone(translateMessage(data.message));
    } catch (failure) {
      const field = failure instanceof ApiError ? failure.data?.errors?.email?.[0] : undefined;
      setError(field ? translateMessage(field) : errorText(failure));
    } finally {
      setBusy(false);
    }
  };
  if (done)
    return (
      <Alert color="green" data-testid="notify-done">
        {done}
      </Alert>
    );
  return (
    <form onSubmit={submit} noValidate aria-label={t('status.notifyMe')}>
      <Stack gap="xs">
        <Text size="sm">{t('status.notifyText')}</Text>
        <Group align="flex-start" wrap="nowrap">
          <TextInput
            type="email"
            aria-label={t('status.notifyEmail')}
            placeholder={t('status.notifyEmail')}
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            error={error}
            style={{ flex: 1 }}
          />
          <Button type="submit" loading={busy}>
            {t('status.notifyMe')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Days, hours, minutes and seconds until `target`, never below zero. */
export function timeLeft(target: Date, now: Date): { days: number; hours: number; minutes: number; seconds: number } {
  const total = Math.max(0, Math.floor((target.getTime() - now.getTime()) / 1000));
  return {
    days: Math.floor(total / 86_400),
    hours: Math.floor((total % 86_400) / 3600),
    minutes: Math.floor((total % 3600) / 60),
    seconds: total % 60,
  };
}

/** Coming Soon: a countdown to the launch date of spec §9 that stops at zero. */
export function ComingSoonPage() {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  const left = timeLeft(new Date(COMING_SOON_TARGET), now);
  const units = [
    ['days', left.days],
    ['hours', left.hours],
    ['minutes', left.minutes],
    ['seconds', left.seconds],
  ] as const;
  return (
    <PublicFrame cover width={520}>
      <Stack>
        <PublicHeading title={t('status.comingSoonTitle')} text={t('status.comingSoonText')} />
        <SimpleGrid cols={4} role="timer" aria-label={t('status.countdown')}>
          {units.map(([unit, value]) => (
            <Paper key={unit} withBorder p="sm" ta="center" data-unit={unit}>
              <Text fz={28} fw={700}>
                {value}
              </Text>
              <Text size="sm" c="dimmed">
                {t(`status.${unit}`)}
              </Text>
            </Paper>
          ))}
        </SimpleGrid>
        <NotifyMe />
        <Group justify="center">
          <Button component={Link} to="/login" variant="light">
            {t('auth.signInAgain')}
          </Button>
        </Group>
      </Stack>
    </PublicFrame>
  );
}

/** Maintenance: what a visitor sees while the service is being upgraded. */
export function MaintenancePage() {
  const { t } = useTranslation();
  return (
    <PublicFrame width={520}>
      <Stack>
        <PublicHeading title={t('status.maintenanceTitle')} text={t('status.maintenanceText')} />
        <Group justify="center">
          <Button component={Link} to="/login" variant="light">
            {t('status.tryAgain')}
          </Button>
        </Group>
      </Stack>
    </PublicFrame>
  );
}
