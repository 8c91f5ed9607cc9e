import { Badge, Button, Card, Code, CopyButton, Group, Stack, Table, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import {
  type EndpointInput,
  type InvitationCreated,
  invitationsEndpoint,
  inviteUserEndpoint,
  members,
  removeUserEndpoint,
  type User,
  updateUserEndpoint,
  userEndpoint,
  usersEndpoint,
  withdrawInvitationEndpoint,
} from '@mustard/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useAccess } from '../../lib/access.js';
import { call, downloadFrom } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { storedLanguage } from '../../lib/i18n.js';
import { translateMessage } from '../../lib/messages.js';
import { notifyError } from '../../lib/notify.js';
import { PAGES } from '../../lib/pages.js';
import type { ResourceCalls } from '../../lib/resource-calls.js';
import { ResourceListPage } from '../../resources/ResourceListPage.js';
import { defineScreen } from '../../resources/screen.js';

/*
 * The school's people (issue 13 point 5), where the Admin Console link leads until the admin
 * console exists: members with their roles on the list mechanism. Adding a member invites them:
 * the school hands the code to the person, who joins with a password of their own.
 */

/** A role as people read it (`headteacher` is "head teacher"); a school's own role by its name. */
function RoleBadges({ roles }: { roles: User['roles'] }) {
  const { t } = useTranslation();
  return (
    <Group gap={4}>
      {roles.map((role) => (
        <Badge key={role.id} variant="light" size="sm">
          {t(`roles.${role.name}`, { defaultValue: role.name })}
        </Badge>
      ))}
    </Group>
  );
}

/** The join link of a code, on this server: the person opens it, or types the code at /join. */
function joinLink(code: string): string {
  return `${window.location.origin}/join?code=${encodeURIComponent(code)}`;
}

/** The code of a new invitation, shown this once (only its hash is kept), with its link to copy. */
function InvitationCode({ invitation }: { invitation: InvitationCreated }) {
  const { t } = useTranslation();
  const { session } = useAuth();
  const link = joinLink(invitation.code);
  const until = new Date(invitation.expires_at).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
  return (
    <Stack data-testid="invitation-code">
      <Text>{t('people.giveCode', { name: invitation.name, school: session?.tenant?.name ?? '' })}</Text>
      <Group justify="space-between" wrap="nowrap">
        <Code fz="xl" fw={700} data-code>
          {invitation.code}
        </Code>
        <CopyButton value={invitation.code}>
          {({ copied, copy }) => (
            <Button variant="light" onClick={copy}>
              {copied ? t('people.copied') : t('people.copyCode')}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-link>
          {link}
        </Text>
        <CopyButton value={link}>
          {({ copied, copy }) => (
            <Button variant="default" onClick={copy}>
              {copied ? t('people.copied') : t('people.copyLink')}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Text size="sm" c="dimmed">
        {t('people.codeOnce', { date: until })}
      </Text>
    </Stack>
  );
}

/** Pending invitations, below the members: who has not joined yet, and a way to take it back. */
function PendingInvitations() {
  const { t } = useTranslation();
  const { session } = useAuth();
  const { can } = useAccess();
  const queryClient = useQueryClient();
  // Under the members list's key: adding a member (an invitation) refreshes this too.
  const queryKey = ['resource', members.name, session?.tenant?.id, 'invitations'];
  const pending = useQuery({ queryKey, queryFn: () => call(invitationsEndpoint, { query: { page: 1, per_page: 100 } }) });
  const invitations = pending.data?.invitations ?? [];
  if (invitations.length === 0) return null;

  const withdraw = (id: string) =>
    modals.openConfirmModal({
      title: t('people.withdrawTitle'),
      children: t('people.withdrawText'),
      labels: { confirm: t('people.withdraw'), cancel: t('list.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: async () => {
        try {
          const answer = await call(withdrawInvitationEndpoint, { params: { id } });
          notifications.show({ color: 'green', message: translateMessage(answer.message) });
          void queryClient.invalidateQueries({ queryKey });
        } catch (error) {
          notifyError(error);
        }
      },
    });

  return (
    <Card withBorder padding="md" data-testid="pending-invitations">
      <Stack>
        <Title order={2} size="h4">
          {t('people.pending', { count: pending.data?.totalRecords ?? invitations.length })}
        </Title>
        <Table.ScrollContainer minWidth={480}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('fields.name')}</Table.Th>
                <Table.Th>{t('fields.email')}</Table.Th>
                <Table.Th>{t('fields.roles')}</Table.Th>
                <Table.Th>{t('people.invitedOn')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invitations.map((invitation) => (
                <Table.Tr key={invitation.id} data-invitation={invitation.email}>
                  <Table.Td>{invitation.name}</Table.Td>
                  <Table.Td>{invitation.email}</Table.Td>
                  <Table.Td>
                    <RoleBadges roles={invitation.roles} />
                  </Table.Td>
                  <Table.Td>
                    {new Date(invitation.invited_at).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' })}
                  </Table.Td>
                  <Table.Td ta="right">
                    {can('create', 'user') && (
                      <Button size="xs" variant="subtle" color="red" onClick={() => withdraw(invitation.id)}>
                        {t('people.withdraw')}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>
    </Card>
  );
}

type MembersQuery = EndpointInput<typeof usersEndpoint>['query'];

/**
 * Members have routes of their own: adding one invites them (the answer is the invitation's
 * code), a read answers `{ user }`, a change touches the roles alone.
 */
function memberCalls(): ResourceCalls<User> {
  return {
    list: async (query) => {
      const answer = await call(usersEndpoint, { query: query as MembersQuery });
      return { rows: answer.users, totalRecords: answer.totalRecords };
    },
    download: (query) => downloadFrom(usersEndpoint, { query: query as MembersQuery }),
    read: async (id) => (await call(userEndpoint, { params: { id } })).user,
    // The invitation e-mail is written in the sender's language.
    create: (body) =>
      call(inviteUserEndpoint, { body: { ...(body as EndpointInput<typeof inviteUserEndpoint>['body']), locale: storedLanguage() } }),
    update: (id, body) => call(updateUserEndpoint, { params: { id }, body: body as EndpointInput<typeof updateUserEndpoint>['body'] }),
    remove: (id) => call(removeUserEndpoint, { params: { id } }),
  };
}

export const membersScreen = defineScreen({
  resource: members,
  page: PAGES.users,
  columns: [
    { field: 'name' },
    { field: 'email' },
    { field: 'roles', label: 'fields.roles', render: (row) => <RoleBadges roles={row.roles} /> },
  ],
  fields: [
    { name: 'name', kind: 'text' },
    { name: 'email', kind: 'text' },
    {
      name: 'roles',
      kind: 'multiselect',
      choices: 'roles',
      fromRecord: (record) => (record.roles as User['roles']).map((role) => role.name),
    },
  ],
  pageSizeOptions: [25, 50, 100],
  addLabel: 'people.addMember',
  addTitle: 'people.addMember',
  editTitle: 'people.changeRoles',
  deleteText: 'people.removeText',
  calls: memberCalls(),
  created: { title: 'people.invitationTitle', render: (answer) => <InvitationCode invitation={answer as InvitationCreated} /> },
  footer: () => <PendingInvitations />,
});

export function UsersPage() {
  return <ResourceListPage screen={membersScreen} />;
}
