import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { acceptInvitationRoute, declineInvitationRoute, type MyInvitation, myInvitationsRoute } from '@mustard/shared';
import { IconMailOpened } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callRoute } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { translateMessage } from '../../lib/messages.js';

/**
 * The invitations a school sent this person (issue 9 point 2), at the top of every signed-in
 * page: they join with the code the school gave them (or follow its link), or say no. Joining
 * switches to the school at once, as the school switcher does. Being in every signed-in page's
 * cold load, it calls by the contracts' routes, unparsed (`callRoute`).
 */
export function InvitationsBanner() {
  const { t } = useTranslation();
  const { session, switchTenant } = useAuth();
  const queryClient = useQueryClient();
  const [codes, setCodes] = useState<Record<string, string>>({});
  const [codeErrors, setCodeErrors] = useState<Record<string, string>>({});
  /** A wrong code is said beside its field, besides the toast every failed call gets. */
  const showCodeError = (error: unknown, invitation: MyInvitation) => {
    const message = error instanceof ApiError ? error.data?.errors?.code?.[0] : undefined;
    if (message) setCodeErrors((all) => ({ ...all, [invitation.id]: translateMessage(message) }));
  };
  const invitations = useQuery({
    queryKey: ['my-invitations', session?.user.id],
    queryFn: async () => (await callRoute(myInvitationsRoute, {})).data.invitations,
    enabled: Boolean(session),
    staleTime: 60_000,
  });
  const accept = useMutation({
    mutationFn: async (invitation: MyInvitation) =>
      (await callRoute(acceptInvitationRoute, { params: { id: invitation.id }, body: { code: codes[invitation.id] ?? '' } })).data,
    onSuccess: (accepted) => switchTenant(accepted.tenant),
    onError: (error, invitation) => showCodeError(error, invitation),
  });
  const decline = useMutation({
    mutationFn: async (invitation: MyInvitation) =>
      (await callRoute(declineInvitationRoute, { params: { id: invitation.id }, body: { code: codes[invitation.id] ?? '' } })).data,
    onSuccess: (answer) => {
      notifications.show({ color: 'green', message: translateMessage(answer.message) });
      void queryClient.invalidateQueries({ queryKey: ['my-invitations'] });
    },
    onError: (error, invitation) => showCodeError(error, invitation),
  });

  const pending = invitations.data ?? [];
  if (pending.length === 0) return null;
  const roleNames = (invitation: MyInvitation) =>
    invitation.roles.map((role) => t(`roles.${role}`, { defaultValue: role })).join(', ') || t('invitations.noRole');

  const confirmDecline = (invitation: MyInvitation) =>
    modals.openConfirmModal({
      title: t('invitations.declineTitle'),
      children: t('invitations.declineText', { school: invitation.tenant.name }),
      labels: { confirm: t('invitations.decline'), cancel: t('list.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => decline.mutate(invitation),
    });

  return (
    <Stack gap="xs" mb="md" data-testid="invitations">
      {pending.map((invitation) => {
        const code = codes[invitation.id] ?? '';
        return (
          <Alert key={invitation.id} color="mustard" icon={<IconMailOpened size={20} />} title={t('invitations.title')}>
            <Stack gap="xs">
              <Text size="sm">{t('invitations.text', { school: invitation.tenant.name, roles: roleNames(invitation) })}</Text>
              <Group gap="xs" align="flex-start">
                <TextInput
                  size="xs"
                  aria-label={t('invitations.code')}
                  placeholder={t('invitations.code')}
                  value={code}
                  onChange={(event) => {
                    const value = event.currentTarget.value;
                    setCodes((all) => ({ ...all, [invitation.id]: value }));
                    setCodeErrors((all) => ({ ...all, [invitation.id]: '' }));
                  }}
                  error={codeErrors[invitation.id] || undefined}
                  autoComplete="off"
                />
                <Button
                  size="xs"
                  loading={accept.isPending && accept.variables?.id === invitation.id}
                  disabled={accept.isPending || decline.isPending || !code.trim()}
                  onClick={() => accept.mutate(invitation)}
                >
                  {t('invitations.accept')}
                </Button>
                <Button
                  size="xs"
                  variant="default"
                  disabled={accept.isPending || decline.isPending || !code.trim()}
                  onClick={() => confirmDecline(invitation)}
                >
                  {t('invitations.decline')}
                </Button>
              </Group>
            </Stack>
          </Alert>
        );
      })}
    </Stack>
  );
}
