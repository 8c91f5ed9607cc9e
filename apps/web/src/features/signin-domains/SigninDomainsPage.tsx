import { Alert, Button, Card, Code, Group, PasswordInput, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  deleteSigninDomainEndpoint,
  externalSignInCallbackEndpoint,
  type SigninDomain,
  SigninDomainBodySchema,
  saveSigninDomainEndpoint,
  signinDomainsEndpoint,
} from '@mustard/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '../../components/PageLoading.js';
import { call } from '../../lib/api.js';
import { useSchemaForm } from '../../lib/forms.js';
import { translateMessage } from '../../lib/messages.js';
import { errorText, notifyError } from '../../lib/notify.js';

const EMPTY = { domain: '', issuer: '', client_id: '', client_secret: '' };

/**
 * The platform's external sign-in domains (issue 29 point 6), for its administrator: each e-mail
 * domain whose people sign in at their organisation's OpenID provider, with the provider's
 * issuer and the client Mustard is registered as there. The secret is written, never shown.
 */
export function SigninDomainsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const domains = useQuery({ queryKey: ['signin-domains'], queryFn: () => call(signinDomainsEndpoint, {}) });
  // The domain being edited: '' for a new one, null when the form is closed.
  const [editing, setEditing] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { form, field, showServerErrors } = useSchemaForm(SigninDomainBodySchema, EMPTY);
  const redirectUri = `${window.location.origin}${externalSignInCallbackEndpoint.path}`;

  const open = (row?: SigninDomain) => {
    form.setValues(row ? { domain: row.domain, issuer: row.issuer, client_id: row.client_id, client_secret: '' } : EMPTY);
    form.resetDirty();
    form.clearErrors();
    setEditing(row?.domain ?? '');
  };

  const save = form.onSubmit(async (values) => {
    setBusy(true);
    try {
      await call(saveSigninDomainEndpoint, { body: values });
      await queryClient.invalidateQueries({ queryKey: ['signin-domains'] });
      notifications.show({ color: 'green', message: t('signinDomains.saved') });
      setEditing(null);
    } catch (error) {
      if (!showServerErrors(error)) notifyError(error);
    } finally {
      setBusy(false);
    }
  });

  const remove = async (domain: string) => {
    if (!window.confirm(t('signinDomains.confirmRemove', { domain }))) return;
    try {
      const answer = await call(deleteSigninDomainEndpoint, { query: { domain } });
      await queryClient.invalidateQueries({ queryKey: ['signin-domains'] });
      notifications.show({ color: 'green', message: translateMessage(answer.message) });
    } catch (error) {
      notifyError(error);
    }
  };

  return (
    <Card withBorder padding="md" data-testid="signin-domains">
      <Stack>
        <Title order={1} size="h3">
          {t('pages.signinDomains')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('signinDomains.explain')}
        </Text>
        <Text size="sm">
          {t('signinDomains.redirectUri')} <Code data-testid="redirect-uri">{redirectUri}</Code>
        </Text>
        {domains.isError ? (
          <Alert color="red" role="alert">
            {errorText(domains.error)}
          </Alert>
        ) : !domains.data ? (
          <PageLoading />
        ) : domains.data.domains.length === 0 ? (
          <Text size="sm">{t('signinDomains.none')}</Text>
        ) : (
          <Table withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('signinDomains.domain')}</Table.Th>
                <Table.Th>{t('signinDomains.issuer')}</Table.Th>
                <Table.Th>{t('signinDomains.clientId')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {domains.data.domains.map((row) => (
                <Table.Tr key={row.domain} data-domain={row.domain}>
                  <Table.Td>{row.domain}</Table.Td>
                  <Table.Td>{row.issuer}</Table.Td>
                  <Table.Td>{row.client_id}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end">
                      <Button size="xs" variant="light" onClick={() => open(row)}>
                        {t('signinDomains.edit')}
                      </Button>
                      <Button size="xs" variant="light" color="red" onClick={() => void remove(row.domain)}>
                        {t('signinDomains.remove')}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {editing === null ? (
          <Group>
            <Button onClick={() => open()}>{t('signinDomains.add')}</Button>
          </Group>
        ) : (
          <form onSubmit={save} noValidate>
            <Stack>
              <TextInput
                label={t('signinDomains.domain')}
                description={t('signinDomains.domainHint')}
                readOnly={editing !== ''}
                {...field('domain')}
              />
              <TextInput label={t('signinDomains.issuer')} description={t('signinDomains.issuerHint')} {...field('issuer')} />
              <TextInput label={t('signinDomains.clientId')} {...field('client_id')} />
              <PasswordInput
                label={t('signinDomains.clientSecret')}
                description={editing === '' ? undefined : t('signinDomains.secretKept')}
                autoComplete="new-password"
                {...field('client_secret')}
              />
              <Group justify="flex-end">
                <Button variant="default" onClick={() => setEditing(null)}>
                  {t('signinDomains.cancel')}
                </Button>
                <Button type="submit" loading={busy}>
                  {t('signinDomains.save')}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Card>
  );
}
