import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  Pagination,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { MAIL_STATUSES, type MailStatus, mailOutboxEndpoint, type OutboxMessage } from '@mustard/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '../../components/PageLoading.js';
import { call } from '../../lib/api.js';
import { errorText } from '../../lib/notify.js';

const PER_PAGE = 25;
const STATUS_COLOR: Record<MailStatus, string> = { pending: 'yellow', sending: 'blue', sent: 'green', failed: 'red' };
/** The links of a message's text: what an administrator hands over when nothing is sent. */
const linksIn = (text: string) => [...new Set(text.match(/https?:\/\/[^\s<>"]+/g) ?? [])];

/**
 * The mail outbox (issue 29 point 1), for the platform's administrator: every message Mustard
 * wrote, newest first, with where it stands. Without SMTP_URL nothing is sent and messages wait
 * here, so a person's verification or reset link can be copied from its text and handed over.
 */
export function MailOutboxPage() {
  const { t, i18n } = useTranslation();
  const [status, setStatus] = useState<MailStatus | 'all'>('all');
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const outbox = useQuery({
    queryKey: ['mail-outbox', status, page],
    queryFn: () => call(mailOutboxEndpoint, { query: { page, per_page: PER_PAGE, ...(status === 'all' ? {} : { status }) } }),
    placeholderData: keepPreviousData,
  });
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language);

  return (
    <Card withBorder padding="md" data-testid="mail-outbox">
      <Stack>
        <Title order={1} size="h3">
          {t('pages.mailOutbox')}
        </Title>
        {outbox.data && (
          <Text size="sm" c="dimmed" data-testid="mail-outbox-mode">
            {outbox.data.sending ? t('mailOutbox.explainSending') : t('mailOutbox.explainKept')}
          </Text>
        )}
        <SegmentedControl
          aria-label={t('mailOutbox.status')}
          value={status}
          onChange={(value) => {
            setStatus(value as MailStatus | 'all');
            setPage(1);
          }}
          data={(['all', ...MAIL_STATUSES] as const).map((value) => ({ value, label: t(`mailOutbox.statuses.${value}`) }))}
        />
        {outbox.isError ? (
          <Alert color="red" role="alert">
            {errorText(outbox.error)}
          </Alert>
        ) : !outbox.data ? (
          <PageLoading />
        ) : outbox.data.messages.length === 0 ? (
          <Text size="sm">{t('mailOutbox.none')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('mailOutbox.to')}</Table.Th>
                  <Table.Th>{t('mailOutbox.subject')}</Table.Th>
                  <Table.Th>{t('mailOutbox.status')}</Table.Th>
                  <Table.Th>{t('mailOutbox.created')}</Table.Th>
                  <Table.Th>{t('mailOutbox.attempts')}</Table.Th>
                  <Table.Th>{t('mailOutbox.lastError')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('mailOutbox.message')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {outbox.data.messages.map((message) => (
                  <Fragment key={message.id}>
                    <Table.Tr data-message-to={message.to}>
                      <Table.Td>{message.to}</Table.Td>
                      <Table.Td>{message.subject}</Table.Td>
                      <Table.Td>
                        <Badge color={STATUS_COLOR[message.status]} variant="light">
                          {t(`mailOutbox.statuses.${message.status}`)}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{when(message.created_at)}</Table.Td>
                      <Table.Td>{message.attempts}</Table.Td>
                      <Table.Td>
                        <Text size="xs" style={{ wordBreak: 'break-word' }}>
                          {message.last_error ?? ''}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Button
                          size="xs"
                          variant="light"
                          aria-expanded={open === message.id}
                          onClick={() => setOpen(open === message.id ? null : message.id)}
                        >
                          {open === message.id ? t('mailOutbox.hide') : t('mailOutbox.show')}
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                    {open === message.id && (
                      <Table.Tr>
                        <Table.Td colSpan={7}>
                          <MessageText message={message} />
                        </Table.Td>
                      </Table.Tr>
                    )}
                  </Fragment>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {outbox.data && outbox.data.totalRecords > PER_PAGE && (
          <Pagination value={page} onChange={setPage} total={Math.ceil(outbox.data.totalRecords / PER_PAGE)} />
        )}
      </Stack>
    </Card>
  );
}

function MessageText({ message }: { message: OutboxMessage }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" data-testid="mail-outbox-text">
      {linksIn(message.text).map((link) => (
        <Group key={link} gap="xs" wrap="nowrap">
          <CopyButton value={link}>
            {({ copied, copy }) => (
              <Button size="xs" variant="light" color={copied ? 'green' : undefined} onClick={copy}>
                {copied ? t('mailOutbox.copied') : t('mailOutbox.copyLink')}
              </Button>
            )}
          </CopyButton>
          <Code style={{ wordBreak: 'break-all' }}>{link}</Code>
        </Group>
      ))}
      {message.attachments.length > 0 && (
        <Text size="sm">
          {t('mailOutbox.attachments')}: {message.attachments.join(', ')}
        </Text>
      )}
      <Code block style={{ whiteSpace: 'pre-wrap' }}>
        {message.text}
      </Code>
    </Stack>
  );
}
