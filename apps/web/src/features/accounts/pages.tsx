import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Pagination,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  accounts,
  approveVoucherEndpoint,
  companies,
  createVoucherEndpoint,
  Decimal,
  deleteVoucherEndpoint,
  formatAmount,
  JOURNAL_SOURCES,
  journalEndpoint,
  MONEY_SUBTYPES,
  PAYMENT_METHODS,
  payVoucherEndpoint,
  trialBalanceEndpoint,
  updateVoucherEndpoint,
  VOUCHER_STATUSES,
  type Voucher,
  voucherEndpoint,
  vouchersEndpoint,
  whduties,
} from '@mustard/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { useAccess } from '../../lib/access.js';
import { ApiError, call, downloadFrom } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { translateMessage } from '../../lib/messages.js';
import { errorText, notifyError } from '../../lib/notify.js';
import { PAGES, pathTo } from '../../lib/pages.js';
import { allRecords } from '../../lib/resource-calls.js';
import { ResourceListPage } from '../../resources/ResourceListPage.js';
import { accountsScreen } from './screens.js';

/*
 * The books and money out (issue 32 points 4 and 5): the chart of accounts, the trial balance,
 * the journal, and payment vouchers from draft to paid. Phones first: entries and vouchers are
 * cards; tables scroll inside their box, so 360 px scrolls only down. Money stays exact decimal
 * text end to end (formatAmount shows it with thousands commas).
 */

const T = 'accountScreens';
/** Exact text as shown: thousands commas, the decimals it has (at most 4). */
const show = (value: string) => formatAmount(value, Math.min(4, (value.split('.')[1] ?? '').replace(/0+$/, '').length));
/** What a person typed as an amount, without thousands commas or spaces. */
const plain = (value: string) => value.replace(/[\s,]/g, '');

/** Today where the person is, not UTC's. */
function localDay(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

function useTenantId() {
  return useAuth().session?.tenant?.id;
}

function useAccounts() {
  const tenantId = useTenantId();
  return useQuery({ queryKey: ['choices', accounts.name, tenantId], queryFn: () => allRecords(accounts), enabled: Boolean(tenantId) });
}

function Heading({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <Title order={1} size="h3">
      {t(title)}
    </Title>
  );
}

function ExcelButton({ onClick }: { onClick: () => Promise<unknown> }) {
  const { t } = useTranslation();
  return (
    <Button variant="light" onClick={() => onClick().catch(notifyError)} data-testid="excel">
      {t(`${T}.excel`)}
    </Button>
  );
}

export function AccountsPage() {
  return <ResourceListPage screen={accountsScreen} />;
}

/** Every account's totals up to a day; debits and credits always equal. */
export function TrialBalancePage() {
  const { t } = useTranslation();
  const tenantId = useTenantId();
  const [to, setTo] = useState(localDay);
  const query = { to: to || undefined };
  const balance = useQuery({
    queryKey: ['trial-balance', tenantId, query],
    queryFn: () => call(trialBalanceEndpoint, { query }),
    enabled: Boolean(tenantId),
  });
  const rows = (balance.data?.rows ?? []).filter((row) => row.debit !== '0' || row.credit !== '0');
  return (
    <Stack>
      <Heading title="pages.trialBalance" />
      <Group align="end">
        <TextInput type="date" label={t(`${T}.asAt`)} value={to} onChange={(event) => setTo(event.currentTarget.value)} />
        <ExcelButton onClick={() => downloadFrom(trialBalanceEndpoint, { query })} />
      </Group>
      {balance.error ? <Alert color="red">{errorText(balance.error)}</Alert> : null}
      <Table.ScrollContainer minWidth={300}>
        <Table striped data-testid="trial-balance">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t(`${T}.account`)}</Table.Th>
              <Table.Th ta="right">{t(`${T}.debit`)}</Table.Th>
              <Table.Th ta="right">{t(`${T}.credit`)}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => {
              const debit = new Decimal(row.balance);
              return (
                <Table.Tr key={row.account_id} data-testid="trial-balance-row">
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    <Text size="xs" c="dimmed">
                      {row.code}
                    </Text>
                    {row.name}
                  </Table.Td>
                  <Table.Td ta="right">{debit.gt(0) ? show(debit.toFixed()) : ''}</Table.Td>
                  <Table.Td ta="right">{debit.lt(0) ? show(debit.neg().toFixed()) : ''}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
          {balance.data ? (
            <Table.Tfoot>
              <Table.Tr>
                <Table.Th>{t(`${T}.total`)}</Table.Th>
                <Table.Th ta="right" data-testid="total-debit">
                  {show(sumOf(rows, (balanceOf) => balanceOf.gt(0)))}
                </Table.Th>
                <Table.Th ta="right" data-testid="total-credit">
                  {show(sumOf(rows, (balanceOf) => balanceOf.lt(0)))}
                </Table.Th>
              </Table.Tr>
            </Table.Tfoot>
          ) : null}
        </Table>
      </Table.ScrollContainer>
      {balance.data && rows.length === 0 ? <Text c="dimmed">{t(`${T}.nothingPosted`)}</Text> : null}
    </Stack>
  );
}

/** The sum of the debit (or credit) balances: a trial balance shows each account's balance on its side. */
function sumOf(rows: ReadonlyArray<{ balance: string }>, side: (balance: Decimal) => boolean): string {
  return rows
    .map((row) => new Decimal(row.balance))
    .filter(side)
    .reduce((total, balance) => total.plus(balance.abs()), new Decimal(0))
    .toFixed();
}

const PER_PAGE = 25;

/** The journal: entries newest first with their lines, by period, account and source. */
export function JournalPage() {
  const { t } = useTranslation();
  const tenantId = useTenantId();
  const chart = useAccounts();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [account, setAccount] = useState<string | null>(null);
  const [source, setSource] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const query = {
    from: from || undefined,
    to: to || undefined,
    account_id: account ?? undefined,
    source_kind: (source ?? undefined) as (typeof JOURNAL_SOURCES)[number] | undefined,
    page,
    per_page: PER_PAGE,
  };
  const journal = useQuery({
    queryKey: ['journal', tenantId, query],
    queryFn: () => call(journalEndpoint, { query }),
    enabled: Boolean(tenantId),
  });
  const pages = Math.max(1, Math.ceil((journal.data?.totalRecords ?? 0) / PER_PAGE));
  const filtered =
    <V,>(set: (value: V) => void) =>
    (value: V) => {
      set(value);
      setPage(1);
    };
  return (
    <Stack>
      <Heading title="pages.journal" />
      <Group align="end" gap="xs">
        <TextInput type="date" label={t(`${T}.from`)} value={from} onChange={(e) => filtered(setFrom)(e.currentTarget.value)} />
        <TextInput type="date" label={t(`${T}.to`)} value={to} onChange={(e) => filtered(setTo)(e.currentTarget.value)} />
        <Select
          label={t(`${T}.account`)}
          searchable
          clearable
          style={{ minWidth: 180 }}
          data={(chart.data?.rows ?? []).map((row) => ({ value: row.id, label: `${row.code} ${row.name}` }))}
          value={account}
          onChange={filtered(setAccount)}
        />
        <Select
          label={t(`${T}.source`)}
          clearable
          data={JOURNAL_SOURCES.map((value) => ({ value, label: t(`${T}.sources.${value}`) }))}
          value={source}
          onChange={filtered(setSource)}
        />
        <ExcelButton onClick={() => downloadFrom(journalEndpoint, { query })} />
      </Group>
      {journal.error ? <Alert color="red">{errorText(journal.error)}</Alert> : null}
      {(journal.data?.entries ?? []).map((entry) => (
        <Card withBorder padding="sm" key={entry.id} data-testid="journal-entry">
          <Group justify="space-between" wrap="nowrap" align="start">
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {entry.description}
            </Text>
            <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {entry.occurred_on}
            </Text>
          </Group>
          <Text size="xs" c="dimmed">
            {t(`${T}.sources.${entry.source_kind}`)}
            {entry.created_by ? ` · ${entry.created_by.name}` : ''}
          </Text>
          <Table mt="xs" fz="sm">
            <Table.Tbody>
              {entry.lines.map((line) => (
                <Table.Tr key={line.line}>
                  <Table.Td style={{ overflowWrap: 'anywhere', paddingLeft: line.debit === '0' ? 24 : 4 }}>
                    {line.account.code} {line.account.name}
                    {line.partner ? (
                      <Text span size="xs" c="dimmed">
                        {' '}
                        ({line.partner.name})
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td ta="right">{line.debit === '0' ? '' : show(line.debit)}</Table.Td>
                  <Table.Td ta="right">{line.credit === '0' ? '' : show(line.credit)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
      ))}
      {journal.data && journal.data.entries.length === 0 ? <Text c="dimmed">{t(`${T}.nothingPosted`)}</Text> : null}
      {pages > 1 ? <Pagination total={pages} value={page} onChange={setPage} size="sm" /> : null}
    </Stack>
  );
}

const STATUS_COLOR = { draft: 'gray', approved: 'blue', paid: 'green', cancelled: 'red' } as const;

function StatusBadge({ status }: { status: Voucher['status'] }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLOR[status]} variant="light" data-testid="voucher-status">
      {t(`${T}.statuses.${status}`)}
    </Badge>
  );
}

/** Payment vouchers: by status and period, newest first. */
export function VouchersPage() {
  const { t } = useTranslation();
  const tenantId = useTenantId();
  const { can } = useAccess();
  const [status, setStatus] = useState('all');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const query = {
    status: status === 'all' ? undefined : (status as Voucher['status']),
    search: search.trim() || undefined,
    page,
    per_page: PER_PAGE,
  };
  const list = useQuery({
    queryKey: ['vouchers', tenantId, query],
    queryFn: () => call(vouchersEndpoint, { query }),
    enabled: Boolean(tenantId),
  });
  const pages = Math.max(1, Math.ceil((list.data?.totalRecords ?? 0) / PER_PAGE));
  return (
    <Stack>
      <Group justify="space-between">
        <Heading title="pages.vouchers" />
        {can('create', 'voucher') ? (
          <Button component={Link} to={PAGES.newVoucher.path} data-testid="new-voucher">
            {t(`${T}.newVoucher`)}
          </Button>
        ) : null}
      </Group>
      <SegmentedControl
        fullWidth
        size="xs"
        value={status}
        onChange={(value) => {
          setStatus(value);
          setPage(1);
        }}
        data={['all', ...VOUCHER_STATUSES.filter((value) => value !== 'cancelled')].map((value) => ({
          value,
          label: t(`${T}.statuses.${value}`),
        }))}
      />
      <Group align="end">
        <TextInput
          label={t(`${T}.search`)}
          value={search}
          style={{ flex: 1, minWidth: 160 }}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
        />
        <ExcelButton onClick={() => downloadFrom(vouchersEndpoint, { query })} />
      </Group>
      {list.error ? <Alert color="red">{errorText(list.error)}</Alert> : null}
      {(list.data?.vouchers ?? []).map((voucher) => (
        <Card
          withBorder
          padding="sm"
          key={voucher.id}
          component={Link}
          to={pathTo(PAGES.voucher, { id: voucher.id })}
          data-testid="voucher-card"
        >
          <Group justify="space-between" wrap="nowrap">
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {voucher.payee_name}
            </Text>
            <Text fw={700} style={{ whiteSpace: 'nowrap' }}>
              {show(voucher.gross_total)}
            </Text>
          </Group>
          <Group justify="space-between" gap="xs">
            <Text size="sm" c="dimmed">
              {voucher.number ?? t(`${T}.statuses.draft`)} · {voucher.voucher_on}
            </Text>
            <StatusBadge status={voucher.status} />
          </Group>
        </Card>
      ))}
      {list.data && list.data.vouchers.length === 0 ? <Text c="dimmed">{t(`${T}.noVouchers`)}</Text> : null}
      {pages > 1 ? <Pagination total={pages} value={page} onChange={setPage} size="sm" /> : null}
    </Stack>
  );
}

interface LineDraft {
  account_id: string | null;
  description: string;
  amount: string;
  tax: string;
}

const emptyLine = (): LineDraft => ({ account_id: null, description: '', amount: '', tax: '' });

/** A new voucher or a draft's edit; a saved voucher's page. */
export function VoucherPage() {
  const { id } = useParams();
  const tenantId = useTenantId();
  const voucher = useQuery({
    queryKey: ['voucher', tenantId, id],
    queryFn: () => call(voucherEndpoint, { params: { id: id as string } }),
    enabled: Boolean(tenantId && id),
  });
  const [editing, setEditing] = useState(false);
  if (!id) return <VoucherForm />;
  if (voucher.error) return <Alert color="red">{errorText(voucher.error)}</Alert>;
  if (!voucher.data) return null;
  if (editing) return <VoucherForm voucher={voucher.data} onDone={() => setEditing(false)} />;
  return <VoucherDetail voucher={voucher.data} onEdit={() => setEditing(true)} />;
}

function VoucherForm({ voucher, onDone }: { voucher?: Voucher; onDone?: () => void }) {
  const { t } = useTranslation();
  const { can } = useAccess();
  const navigate = useNavigate();
  const client = useQueryClient();
  const tenantId = useTenantId();
  const chart = useAccounts();
  const partners = useQuery({
    queryKey: ['choices', companies.name, tenantId],
    queryFn: () => allRecords(companies),
    enabled: Boolean(tenantId),
  });
  const duties = useQuery({
    queryKey: ['choices', whduties.name, tenantId],
    queryFn: () => allRecords(whduties),
    enabled: Boolean(tenantId),
  });
  // One request id per voucher being prepared, kept across retries: a dropped connection's retry saves once.
  const requestId = useRef(crypto.randomUUID());
  const [payee, setPayee] = useState<string | null>(voucher?.payee_id ?? null);
  const [payeeName, setPayeeName] = useState(voucher?.payee_id ? '' : (voucher?.payee_name ?? ''));
  const [method, setMethod] = useState<string>(voucher?.method ?? 'cash');
  const [account, setAccount] = useState<string | null>(voucher?.account_id ?? null);
  const [day, setDay] = useState(voucher?.voucher_on ?? localDay());
  const [reference, setReference] = useState(voucher?.reference ?? '');
  const [duty, setDuty] = useState<string | null>(voucher?.whduty_id ?? null);
  const [wht, setWht] = useState(voucher && voucher.wht_amount !== '0' ? voucher.wht_amount : '');
  const [certificate, setCertificate] = useState(voucher?.wht_certificate ?? '');
  const [notes, setNotes] = useState(voucher?.notes ?? '');
  const [lines, setLines] = useState<LineDraft[]>(
    voucher?.lines.map((line) => ({
      account_id: line.account_id,
      description: line.description,
      amount: line.amount,
      tax: line.tax === '0' ? '' : line.tax,
    })) ?? [emptyLine()],
  );
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const rows = chart.data?.rows ?? [];
  const moneyAccounts = rows.filter((row) => row.active && (MONEY_SUBTYPES as readonly string[]).includes(row.subtype));
  const lineAccounts = rows.filter((row) => row.active && (row.type === 'expense' || row.subtype === 'payable'));
  const body = () => ({
    request_id: requestId.current,
    payee_id: payee,
    payee_name: payeeName.trim() || null,
    method: method as (typeof PAYMENT_METHODS)[number],
    account_id: account,
    reference: reference.trim() || null,
    voucher_on: day,
    whduty_id: duty,
    wht_amount: wht.trim() ? plain(wht) : null,
    wht_certificate: certificate.trim() || null,
    notes: notes.trim() || null,
    lines: lines.map((line) => ({
      account_id: line.account_id ?? '',
      description: line.description,
      amount: plain(line.amount),
      tax: plain(line.tax) || '0',
    })),
  });
  const save = useMutation({
    mutationFn: () =>
      voucher ? call(updateVoucherEndpoint, { params: { id: voucher.id }, body: body() }) : call(createVoucherEndpoint, { body: body() }),
    onSuccess: (answer) => {
      void client.invalidateQueries({ queryKey: ['vouchers'] });
      client.setQueryData(['voucher', tenantId, answer.voucher.id], answer.voucher);
      if (onDone) onDone();
      else navigate(pathTo(PAGES.voucher, { id: answer.voucher.id }));
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 422) setErrors(error.data?.errors ?? {});
      else notifyError(error);
    },
  });
  if (!can('create', 'voucher')) return <Alert color="yellow">{t(`${T}.noAbility`)}</Alert>;
  const err = (name: string) => errors[name]?.map(translateMessage).join(' ');
  const edit = (index: number, change: Partial<LineDraft>) =>
    setLines((current) => current.map((line, at) => (at === index ? { ...line, ...change } : line)));
  let total = new Decimal(0);
  for (const line of lines) {
    try {
      total = total.plus(plain(line.amount) || 0);
    } catch {
      // A line still being typed is no number yet: the total leaves it out.
    }
  }
  return (
    <Stack maw={720}>
      <Heading title={voucher ? 'pages.voucher' : 'pages.newVoucher'} />
      <Select
        label={t(`${T}.payee`)}
        searchable
        clearable
        size="md"
        data={(partners.data?.rows ?? []).map((row) => ({ value: row.id, label: row.name }))}
        value={payee}
        onChange={setPayee}
        error={err('payee_id')}
        data-testid="payee"
      />
      <TextInput
        label={t(`${T}.payeeName`)}
        description={t(`${T}.payeeNameHelp`)}
        size="md"
        value={payeeName}
        onChange={(event) => setPayeeName(event.currentTarget.value)}
        error={err('payee_name')}
        data-testid="payee-name"
      />
      <Group grow align="start">
        <Select
          label={t(`${T}.method`)}
          size="md"
          data={PAYMENT_METHODS.map((value) => ({ value, label: t(`${T}.methods.${value}`) }))}
          value={method}
          onChange={(value) => setMethod(value ?? 'cash')}
          error={err('method')}
          data-testid="method"
        />
        <Select
          label={t(`${T}.paidFrom`)}
          placeholder={t(`${T}.paidFromDefault`)}
          clearable
          size="md"
          data={moneyAccounts.map((row) => ({ value: row.id, label: row.name }))}
          value={account}
          onChange={setAccount}
          error={err('account_id')}
        />
      </Group>
      <Group grow align="start">
        <TextInput
          type="date"
          label={t(`${T}.date`)}
          size="md"
          value={day}
          onChange={(event) => setDay(event.currentTarget.value)}
          error={err('voucher_on')}
        />
        <TextInput
          label={t(`${T}.reference`)}
          size="md"
          value={reference}
          onChange={(event) => setReference(event.currentTarget.value)}
          error={err('reference')}
        />
      </Group>
      {lines.map((line, index) => (
        // Lines have no id of their own until saved; their place is their identity while editing.
        <Card withBorder padding="sm" key={index} data-testid="voucher-line">
          <Group justify="space-between" wrap="nowrap">
            <Text fw={600}>{t(`${T}.line`, { number: index + 1 })}</Text>
            {lines.length > 1 ? (
              <Button variant="subtle" color="red" size="xs" onClick={() => setLines((current) => current.filter((_, at) => at !== index))}>
                {t(`${T}.removeLine`)}
              </Button>
            ) : null}
          </Group>
          <Select
            label={t(`${T}.expenseAccount`)}
            searchable
            size="md"
            data={lineAccounts.map((row) => ({ value: row.id, label: `${row.code} ${row.name}` }))}
            value={line.account_id}
            onChange={(value) => edit(index, { account_id: value })}
            error={err(`lines.${index}.account_id`)}
            data-testid="line-account"
          />
          <TextInput
            label={t(`${T}.description`)}
            size="md"
            value={line.description}
            onChange={(event) => edit(index, { description: event.currentTarget.value })}
            error={err(`lines.${index}.description`)}
            data-testid="line-description"
          />
          <Group grow align="start">
            <TextInput
              label={t(`${T}.amount`)}
              inputMode="decimal"
              size="md"
              value={line.amount}
              onChange={(event) => edit(index, { amount: event.currentTarget.value })}
              error={err(`lines.${index}.amount`)}
              data-testid="line-amount"
            />
            <TextInput
              label={t(`${T}.inputVat`)}
              inputMode="decimal"
              size="md"
              value={line.tax}
              onChange={(event) => edit(index, { tax: event.currentTarget.value })}
              error={err(`lines.${index}.tax`)}
            />
          </Group>
        </Card>
      ))}
      {err('lines') ? <Text c="red">{err('lines')}</Text> : null}
      <Group justify="space-between">
        <Button variant="light" onClick={() => setLines((current) => [...current, emptyLine()])} disabled={lines.length >= 100}>
          {t(`${T}.addLine`)}
        </Button>
        <Text fw={700} data-testid="voucher-total">
          {t(`${T}.total`)}: {show(total.toFixed())}
        </Text>
      </Group>
      <Select
        label={t(`${T}.withholding`)}
        clearable
        size="md"
        data={(duties.data?.rows ?? []).filter((row) => row.active).map((row) => ({ value: row.id, label: row.name }))}
        value={duty}
        onChange={setDuty}
        error={err('whduty_id')}
      />
      {duty ? (
        <Group grow align="start">
          <TextInput
            label={t(`${T}.whtAmount`)}
            description={t(`${T}.whtAmountHelp`)}
            inputMode="decimal"
            size="md"
            value={wht}
            onChange={(event) => setWht(event.currentTarget.value)}
            error={err('wht_amount')}
          />
          <TextInput
            label={t(`${T}.whtCertificate`)}
            size="md"
            value={certificate}
            onChange={(event) => setCertificate(event.currentTarget.value)}
            error={err('wht_certificate')}
          />
        </Group>
      ) : null}
      <TextInput
        label={t(`${T}.notes`)}
        size="md"
        value={notes}
        onChange={(event) => setNotes(event.currentTarget.value)}
        error={err('notes')}
      />
      <Group>
        <Button size="lg" onClick={() => save.mutate()} loading={save.isPending} data-testid="save-voucher">
          {t(`${T}.saveDraft`)}
        </Button>
        {onDone ? (
          <Button size="lg" variant="default" onClick={onDone}>
            {t(`${T}.cancel`)}
          </Button>
        ) : null}
      </Group>
    </Stack>
  );
}

function VoucherDetail({ voucher, onEdit }: { voucher: Voucher; onEdit: () => void }) {
  const { t } = useTranslation();
  const { can } = useAccess();
  const navigate = useNavigate();
  const client = useQueryClient();
  const tenantId = useTenantId();
  const [paidOn, setPaidOn] = useState(localDay);
  const [paymentReference, setPaymentReference] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const settle = (answer: { voucher: Voucher }) => {
    setProblem(null);
    setErrors({});
    client.setQueryData(['voucher', tenantId, voucher.id], answer.voucher);
    void client.invalidateQueries({ queryKey: ['vouchers'] });
    void client.invalidateQueries({ queryKey: ['trial-balance'] });
    void client.invalidateQueries({ queryKey: ['journal'] });
  };
  const failed = (error: unknown) => {
    if (error instanceof ApiError && error.status === 422) setErrors(error.data?.errors ?? {});
    else if (error instanceof ApiError && error.status === 409) setProblem(errorText(error));
    else notifyError(error);
  };
  const approve = useMutation({
    mutationFn: () => call(approveVoucherEndpoint, { params: { id: voucher.id } }),
    onSuccess: settle,
    onError: failed,
  });
  const pay = useMutation({
    mutationFn: () =>
      call(payVoucherEndpoint, {
        params: { id: voucher.id },
        body: { paid_on: paidOn, payment_reference: paymentReference.trim() || null },
      }),
    onSuccess: settle,
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: () => call(deleteVoucherEndpoint, { params: { id: voucher.id } }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['vouchers'] });
      navigate(PAGES.vouchers.path);
    },
    onError: failed,
  });
  const err = (name: string) => errors[name]?.map(translateMessage).join(' ');
  const fact = (name: string, value: string | null | undefined) =>
    value ? (
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm" c="dimmed">
          {t(`${T}.${name}`)}
        </Text>
        <Text size="sm" ta="right" style={{ overflowWrap: 'anywhere' }}>
          {value}
        </Text>
      </Group>
    ) : null;
  return (
    <Stack maw={720}>
      <Group justify="space-between">
        <Title order={1} size="h3" data-testid="voucher-number">
          {voucher.number ?? t('pages.voucher')}
        </Title>
        <StatusBadge status={voucher.status} />
      </Group>
      {problem ? (
        <Alert color="red" data-testid="voucher-problem">
          {problem}
        </Alert>
      ) : null}
      <Card withBorder padding="sm">
        {fact('payee', voucher.payee_name)}
        {fact('date', voucher.voucher_on)}
        {fact('method', t(`${T}.methods.${voucher.method}`))}
        {fact('paidFrom', `${voucher.account.code} ${voucher.account.name}`)}
        {fact('reference', voucher.reference)}
        {fact('preparedBy', voucher.prepared_by?.name)}
        {fact('approvedBy', voucher.approved_by?.name)}
        {fact('paidBy', voucher.paid_by?.name)}
        {fact('paidOn', voucher.paid_on)}
        {fact('paymentReference', voucher.payment_reference)}
        {fact('notes', voucher.notes)}
      </Card>
      {voucher.lines.map((line) => (
        <Card withBorder padding="sm" key={line.line}>
          <Group justify="space-between" wrap="nowrap" align="start">
            <Text style={{ overflowWrap: 'anywhere' }}>{line.description}</Text>
            <Text fw={600} style={{ whiteSpace: 'nowrap' }}>
              {show(line.amount)}
            </Text>
          </Group>
          <Text size="xs" c="dimmed">
            {line.account.code} {line.account.name}
            {line.tax !== '0' ? ` · ${t(`${T}.inputVat`)} ${show(line.tax)}` : ''}
          </Text>
        </Card>
      ))}
      <Card withBorder padding="sm">
        {fact('total', show(voucher.gross_total))}
        {voucher.tax_total !== '0' ? fact('inputVat', show(voucher.tax_total)) : null}
        {voucher.wht_amount !== '0' ? fact('withheld', `${show(voucher.wht_amount)} (${voucher.whduty?.name ?? ''})`) : null}
        {voucher.wht_certificate ? fact('whtCertificate', voucher.wht_certificate) : null}
        <Group justify="space-between">
          <Text fw={700}>{t(`${T}.netPaid`)}</Text>
          <Text fw={700} data-testid="net-paid">
            {show(voucher.net_paid)}
          </Text>
        </Group>
      </Card>
      {voucher.status === 'draft' ? (
        <Group>
          {can('manage', 'voucher') ? (
            <Button size="md" onClick={() => approve.mutate()} loading={approve.isPending} data-testid="approve">
              {t(`${T}.approve`)}
            </Button>
          ) : null}
          {can('create', 'voucher') ? (
            <>
              <Button size="md" variant="light" onClick={onEdit} data-testid="edit">
                {t(`${T}.edit`)}
              </Button>
              <Button size="md" variant="subtle" color="red" onClick={() => remove.mutate()} loading={remove.isPending}>
                {t(`${T}.delete`)}
              </Button>
            </>
          ) : null}
        </Group>
      ) : null}
      {voucher.status === 'approved' && can('manage', 'voucher') ? (
        <Card withBorder padding="sm">
          <Group grow align="start">
            <TextInput
              type="date"
              label={t(`${T}.paidOn`)}
              size="md"
              value={paidOn}
              onChange={(event) => setPaidOn(event.currentTarget.value)}
              error={err('paid_on')}
              data-testid="paid-on"
            />
            <TextInput
              label={t(`${T}.paymentReference`)}
              size="md"
              value={paymentReference}
              onChange={(event) => setPaymentReference(event.currentTarget.value)}
              error={err('payment_reference')}
              data-testid="payment-reference"
            />
          </Group>
          <Button mt="sm" size="md" onClick={() => pay.mutate()} loading={pay.isPending} data-testid="pay">
            {t(`${T}.pay`)}
          </Button>
        </Card>
      ) : null}
      <Button component={Link} to={PAGES.vouchers.path} variant="subtle">
        {t(`${T}.backToVouchers`)}
      </Button>
    </Stack>
  );
}
