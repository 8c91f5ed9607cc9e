import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  Pagination,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  allocateReceiptEndpoint,
  companies,
  formatAmount,
  invoicesEndpoint,
  latestDay,
  locations,
  MEMO_REASONS,
  METHODS_WITH_REFERENCE,
  type MemoRemainsSchema,
  memoEndpoint,
  memoRemainsEndpoint,
  memosEndpoint,
  openInvoicesEndpoint,
  PAYMENT_METHODS,
  type PaymentMethod,
  receiptEndpoint,
  receiptsEndpoint,
  recordMemoEndpoint,
  recordReceiptEndpoint,
  whduties,
} from '@mustard/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { useAccess } from '../../lib/access.js';
import { ApiError, api, call, downloadFrom } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { translateMessage } from '../../lib/messages.js';
import { errorText, notifyError } from '../../lib/notify.js';
import { PAGES } from '../../lib/pages.js';
import { allRecords } from '../../lib/resource-calls.js';
import { advanceLeft, allocatedTotal, allocationsToSend, autoAllocate, type OpenInvoice, settles, typed } from './allocation.js';

/*
 * Getting paid (issue 32 points 2 and 3): the receipts list and a receipt's details with its
 * prints, a new receipt with the grid of the customer's open invoices (auto-allocated oldest
 * first, the rest an advance), the memos list and a new credit or debit memo from an invoice's
 * lines with what remains of each. Phones first: the grids are cards, so 360 px scrolls only
 * down. Money stays exact decimal text end to end.
 */

/** Exact text as shown: thousands commas, the decimals it has (at most 4). */
const show = (value: string) => formatAmount(value, Math.min(4, (value.split('.')[1] ?? '').replace(/0+$/, '').length));

/** Today where the person is (their shop's day). */
function localDay(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** One id per action, kept across retries, so a dropped connection's retry is recorded once. */
const newRequestId = () => crypto.randomUUID();

function useTenantId() {
  return useAuth().session?.tenant?.id;
}

/** The business's customers (customers and partners who are both). */
function useCustomers() {
  const tenantId = useTenantId();
  const partners = useQuery({
    queryKey: ['choices', companies.name, tenantId],
    queryFn: () => allRecords(companies),
    enabled: Boolean(tenantId),
  });
  return (partners.data?.rows ?? []).filter((row) => row.role !== 'supplier').map((row) => ({ value: row.id, label: row.name }));
}

function Heading({ title, children }: { title: string; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" wrap="wrap">
      <Title order={1} size="h3">
        {t(title)}
      </Title>
      {children}
    </Group>
  );
}

const fieldErrors = (errors: Record<string, string[]>) => (name: string) => errors[name]?.map(translateMessage).join(' ');

type PrintFormat = 'a4' | '80mm' | '58mm';

/**
 * Opens a receipt's print (A4, or the 80 mm and 58 mm thermal rolls) as a PDF in a new tab: the
 * tab is opened at the click (a browser lets a click open one, not a later answer) and sent to the
 * PDF once it has come with the session's token (a plain link would not carry it).
 */
async function openReceiptPrint(id: string, format: PrintFormat) {
  const tab = window.open('', '_blank');
  try {
    const pdf = await api.blob(`/api/receipts/${encodeURIComponent(id)}/print?format=${format}&output=pdf`);
    const url = URL.createObjectURL(pdf);
    if (tab) tab.location.href = url;
    else window.location.assign(url);
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (error) {
    tab?.close();
    notifyError(error);
  }
}

/** Print buttons of a receipt. */
function ReceiptPrints({ id }: { id: string }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" wrap="wrap">
      {(['80mm', '58mm', 'a4'] as const).map((format) => (
        <Button key={format} variant="light" onClick={() => void openReceiptPrint(id, format)} data-testid={`print-${format}`}>
          {t(`paymentScreens.print.${format}`)}
        </Button>
      ))}
    </Group>
  );
}

/** The grid of a customer's open invoices: each with its balance and the amount to put on it. */
function AllocationGrid({
  invoices,
  allocation,
  setAllocation,
  errors,
}: {
  invoices: ReadonlyArray<z.output<typeof openInvoicesEndpoint.response>['invoices'][number]>;
  allocation: Record<string, string>;
  setAllocation: (next: Record<string, string>) => void;
  errors: Record<string, string[]>;
}) {
  const { t } = useTranslation();
  if (invoices.length === 0) return <Text c="dimmed">{t('paymentScreens.noOpenInvoices')}</Text>;
  const sentIndex = (id: string) => allocationsToSend(invoices, allocation).findIndex((row) => row.invoice_id === id);
  return (
    <Stack gap="xs" data-testid="allocation-grid">
      {invoices.map((invoice) => {
        const index = sentIndex(invoice.id);
        const error =
          index >= 0
            ? [...(errors[`allocations.${index}.amount`] ?? []), ...(errors[`allocations.${index}.invoice_id`] ?? [])]
                .map(translateMessage)
                .join(' ')
            : undefined;
        return (
          <Card withBorder padding="sm" key={invoice.id} data-testid={`open-${invoice.number}`}>
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Stack gap={0}>
                <Text fw={600}>{invoice.number}</Text>
                <Text size="xs" c="dimmed">
                  {t('paymentScreens.due')} {invoice.due_on}
                  {invoice.overdue ? (
                    <Badge ml={6} color="red" size="xs">
                      {t('paymentScreens.overdue')}
                    </Badge>
                  ) : null}
                </Text>
              </Stack>
              <Text size="sm">
                {t('paymentScreens.balance')}: <b>{show(invoice.balance)}</b>
              </Text>
            </Group>
            <TextInput
              mt="xs"
              label={t('paymentScreens.allocate')}
              inputMode="decimal"
              size="md"
              value={allocation[invoice.id] ?? ''}
              onChange={(event) => setAllocation({ ...allocation, [invoice.id]: event.currentTarget.value })}
              error={error || undefined}
              data-testid="allocate-amount"
            />
          </Card>
        );
      })}
    </Stack>
  );
}

/** A new receipt: customer, method with its reference, amount, withholding tax, allocations. */
export function ReceiptPage() {
  const { t } = useTranslation();
  const { can } = useAccess();
  const tenantId = useTenantId();
  const client = useQueryClient();
  const [params] = useSearchParams();
  const customers = useCustomers();
  const duties = useQuery({
    queryKey: ['choices', whduties.name, tenantId],
    queryFn: () => allRecords(whduties),
    enabled: Boolean(tenantId),
  });
  const requestId = useRef(newRequestId());
  const [customer, setCustomer] = useState<string | null>(params.get('customer'));
  const [method, setMethod] = useState<PaymentMethod>('cash');
  const [reference, setReference] = useState('');
  const [day, setDay] = useState(localDay);
  const [amount, setAmount] = useState('');
  const [withheld, setWithheld] = useState(false);
  const [wht, setWht] = useState('');
  const [duty, setDuty] = useState<string | null>(null);
  const [certificate, setCertificate] = useState('');
  const [notes, setNotes] = useState('');
  const [allocation, setAllocation] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [saved, setSaved] = useState<{ id: string; number: string; message: string } | null>(null);

  const open = useQuery({
    queryKey: ['open-invoices', tenantId, customer],
    queryFn: () => call(openInvoicesEndpoint, { query: { customer_id: customer ?? '' } }),
    enabled: Boolean(tenantId && customer),
  });
  const invoices = open.data?.invoices ?? [];
  const grid: OpenInvoice[] = invoices;

  const save = useMutation({
    mutationFn: () =>
      call(recordReceiptEndpoint, {
        body: {
          request_id: requestId.current,
          customer_id: customer ?? '',
          received_on: day,
          method,
          reference: reference.trim() || null,
          amount: amount.trim().replaceAll(',', ''),
          ...(withheld
            ? {
                wht_amount: wht.trim().replaceAll(',', '') || '0',
                whduty_id: duty ?? undefined,
                wht_certificate: certificate.trim() || null,
              }
            : {}),
          notes: notes.trim() || null,
          allocations: allocationsToSend(grid, allocation),
        },
      }),
    onSuccess: (answer) => {
      requestId.current = newRequestId();
      setSaved({ id: answer.receipt.id, number: answer.receipt.number, message: translateMessage(answer.message) });
      setErrors({});
      setAmount('');
      setReference('');
      setWht('');
      setCertificate('');
      setNotes('');
      setAllocation({});
      void client.invalidateQueries({ queryKey: ['open-invoices'] });
      void client.invalidateQueries({ queryKey: ['receipts'] });
    },
    onError: (error) => {
      setSaved(null);
      if (error instanceof ApiError && error.status === 422) setErrors(error.data?.errors ?? {});
      else notifyError(error);
    },
  });

  if (!can('create', 'sale')) return <Alert color="yellow">{t('paymentScreens.noAbility')}</Alert>;
  const err = fieldErrors(errors);
  const needsReference = (METHODS_WITH_REFERENCE as readonly string[]).includes(method);
  const left = advanceLeft(amount, withheld ? wht : '', allocation);

  return (
    <Stack maw={720}>
      <Heading title="pages.newReceipt">
        <Button component={Link} to={PAGES.receipts.path} variant="subtle">
          {t('paymentScreens.allReceipts')}
        </Button>
      </Heading>
      {saved ? (
        <Alert color="green" data-testid="saved">
          <Stack gap="xs">
            <Text>
              {saved.message}: <b data-testid="saved-number">{saved.number}</b>
            </Text>
            <ReceiptPrints id={saved.id} />
          </Stack>
        </Alert>
      ) : null}
      <Select
        label={t('paymentScreens.customer')}
        searchable
        size="md"
        data={customers}
        value={customer}
        onChange={(value) => {
          setCustomer(value);
          setAllocation({});
        }}
        error={err('customer_id')}
        data-testid="customer"
      />
      <Select
        label={t('paymentScreens.method')}
        size="md"
        allowDeselect={false}
        data={PAYMENT_METHODS.map((value) => ({ value, label: t(`paymentScreens.methods.${value}`) }))}
        value={method}
        onChange={(value) => value && setMethod(value as PaymentMethod)}
        error={err('method')}
        data-testid="method"
      />
      <TextInput
        label={t(`paymentScreens.referenceLabels.${method}`)}
        withAsterisk={needsReference}
        size="md"
        value={reference}
        onChange={(event) => setReference(event.currentTarget.value)}
        error={err('reference')}
        autoComplete="off"
        data-testid="reference"
      />
      <Group grow align="start">
        <TextInput
          label={t('paymentScreens.amount')}
          inputMode="decimal"
          size="md"
          value={amount}
          onChange={(event) => setAmount(event.currentTarget.value)}
          error={err('amount')}
          data-testid="amount"
        />
        <TextInput
          type="date"
          label={t('paymentScreens.date')}
          size="md"
          value={day}
          max={latestDay()}
          onChange={(event) => setDay(event.currentTarget.value)}
          error={err('received_on')}
        />
      </Group>
      <Switch
        label={t('paymentScreens.withheld')}
        checked={withheld}
        onChange={(event) => setWithheld(event.currentTarget.checked)}
        data-testid="withheld"
      />
      {withheld ? (
        <Card withBorder padding="sm">
          <Stack gap="xs">
            <Select
              label={t('paymentScreens.whduty')}
              size="md"
              data={(duties.data?.rows ?? []).map((row) => ({ value: row.id, label: row.name }))}
              value={duty}
              onChange={setDuty}
              error={err('whduty_id')}
            />
            <Group grow align="start">
              <TextInput
                label={t('paymentScreens.whtAmount')}
                inputMode="decimal"
                size="md"
                value={wht}
                onChange={(event) => setWht(event.currentTarget.value)}
                error={err('wht_amount')}
                data-testid="wht-amount"
              />
              <TextInput
                label={t('paymentScreens.certificate')}
                size="md"
                value={certificate}
                onChange={(event) => setCertificate(event.currentTarget.value)}
                error={err('wht_certificate')}
                data-testid="certificate"
              />
            </Group>
          </Stack>
        </Card>
      ) : null}
      {customer ? (
        <Stack gap="xs">
          <Group justify="space-between" wrap="wrap">
            <Title order={2} size="h5">
              {t('paymentScreens.openInvoices')}
            </Title>
            <Button
              variant="light"
              disabled={invoices.length === 0}
              onClick={() => setAllocation(autoAllocate(grid, settles(amount, withheld ? wht : '')))}
              data-testid="auto-allocate"
            >
              {t('paymentScreens.autoAllocate')}
            </Button>
          </Group>
          {open.error ? <Alert color="red">{errorText(open.error)}</Alert> : null}
          <AllocationGrid invoices={invoices} allocation={allocation} setAllocation={setAllocation} errors={errors} />
          {err('allocations') ? <Text c="red">{err('allocations')}</Text> : null}
          <Group justify="space-between">
            <Text size="sm">
              {t('paymentScreens.allocated')}: <b data-testid="allocated-total">{show(allocatedTotal(allocation).toFixed())}</b>
            </Text>
            <Text size="sm" c={left.isNeg() ? 'red' : undefined}>
              {t('paymentScreens.advance')}: <b data-testid="advance">{show(left.toFixed())}</b>
            </Text>
          </Group>
        </Stack>
      ) : null}
      <TextInput
        label={t('paymentScreens.notes')}
        size="md"
        value={notes}
        onChange={(event) => setNotes(event.currentTarget.value)}
        error={err('notes')}
      />
      <Button
        size="lg"
        onClick={() => save.mutate()}
        loading={save.isPending}
        disabled={!customer || typed(amount) === null}
        data-testid="submit"
      >
        {t('paymentScreens.save')}
      </Button>
    </Stack>
  );
}

/** A receipt's details: allocations, prints, and applying what is left of it to open invoices. */
function ReceiptDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { can } = useAccess();
  const tenantId = useTenantId();
  const client = useQueryClient();
  const receipt = useQuery({ queryKey: ['receipt', tenantId, id], queryFn: () => call(receiptEndpoint, { params: { id } }) });
  const customerId = receipt.data?.customer.id;
  const hasAdvance = Boolean(receipt.data && typed(receipt.data.unallocated)?.gt(0));
  const open = useQuery({
    queryKey: ['open-invoices', tenantId, customerId],
    queryFn: () => call(openInvoicesEndpoint, { query: { customer_id: customerId ?? '' } }),
    enabled: Boolean(customerId && hasAdvance && can('create', 'sale')),
  });
  const [allocation, setAllocation] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const invoices = open.data?.invoices ?? [];
  const apply = useMutation({
    mutationFn: () => call(allocateReceiptEndpoint, { params: { id }, body: { allocations: allocationsToSend(invoices, allocation) } }),
    onSuccess: (answer) => {
      client.setQueryData(['receipt', tenantId, id], answer.receipt);
      setAllocation({});
      setErrors({});
      void client.invalidateQueries({ queryKey: ['open-invoices'] });
      void client.invalidateQueries({ queryKey: ['receipts'] });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 422) setErrors(error.data?.errors ?? {});
      else notifyError(error);
    },
  });
  const data = receipt.data;
  return (
    <Modal opened onClose={onClose} title={data?.number ?? t('paymentScreens.receipt')} size="lg">
      {receipt.error ? <Alert color="red">{errorText(receipt.error)}</Alert> : null}
      {data ? (
        <Stack gap="sm" data-testid="receipt-detail">
          <Text>
            {data.customer.name} · {data.received_on} · {t(`paymentScreens.methods.${data.method}`)}
            {data.reference ? ` · ${data.reference}` : ''}
          </Text>
          <Group gap="lg" wrap="wrap">
            <Text size="sm">
              {t('paymentScreens.amount')}: <b>{show(data.amount)}</b>
            </Text>
            {typed(data.wht_amount)?.gt(0) ? (
              <Text size="sm">
                {t('paymentScreens.whtAmount')}: <b>{show(data.wht_amount)}</b> ({data.wht_certificate})
              </Text>
            ) : null}
            <Text size="sm">
              {t('paymentScreens.advance')}: <b data-testid="detail-advance">{show(data.unallocated)}</b>
            </Text>
          </Group>
          <Text size="sm" c="dimmed">
            {t('paymentScreens.account')}: {data.account.name}
          </Text>
          {data.allocations.length > 0 ? (
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('paymentScreens.invoice')}</Table.Th>
                  <Table.Th>{t('paymentScreens.date')}</Table.Th>
                  <Table.Th>{t('paymentScreens.amount')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.allocations.map((row) => (
                  <Table.Tr key={row.id}>
                    <Table.Td>{row.invoice_number}</Table.Td>
                    <Table.Td>{row.allocated_on}</Table.Td>
                    <Table.Td>{show(row.amount)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ) : null}
          <ReceiptPrints id={data.id} />
          {hasAdvance && can('create', 'sale') && invoices.length > 0 ? (
            <Stack gap="xs">
              <Group justify="space-between" wrap="wrap">
                <Title order={2} size="h5">
                  {t('paymentScreens.applyAdvance')}
                </Title>
                <Button variant="light" onClick={() => setAllocation(autoAllocate(invoices, typed(data.unallocated) ?? settles('0', '0')))}>
                  {t('paymentScreens.autoAllocate')}
                </Button>
              </Group>
              <AllocationGrid invoices={invoices} allocation={allocation} setAllocation={setAllocation} errors={errors} />
              {errors.allocations ? <Text c="red">{errors.allocations.map(translateMessage).join(' ')}</Text> : null}
              <Button
                onClick={() => apply.mutate()}
                loading={apply.isPending}
                disabled={allocationsToSend(invoices, allocation).length === 0}
              >
                {t('paymentScreens.saveAllocations')}
              </Button>
            </Stack>
          ) : null}
        </Stack>
      ) : null}
    </Modal>
  );
}

/** Receipts, newest first, by day, method and customer, with the total received. */
export function ReceiptsPage() {
  const { t } = useTranslation();
  const { can } = useAccess();
  const tenantId = useTenantId();
  const customers = useCustomers();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [method, setMethod] = useState<string | null>(null);
  const [customer, setCustomer] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [shown, setShown] = useState<string | null>(null);
  const query = {
    from: from || undefined,
    to: to || undefined,
    method: (method ?? undefined) as PaymentMethod | undefined,
    customer_id: customer ?? undefined,
    page,
    per_page: 25,
  };
  const receipts = useQuery({
    queryKey: ['receipts', tenantId, query],
    queryFn: () => call(receiptsEndpoint, { query }),
    enabled: Boolean(tenantId),
  });
  const pages = Math.max(1, Math.ceil((receipts.data?.totalRecords ?? 0) / 25));
  const reset = () => setPage(1);
  return (
    <Stack>
      <Heading title="pages.receipts">
        {can('create', 'sale') ? (
          <Button component={Link} to={PAGES.newReceipt.path} data-testid="new-receipt">
            {t('paymentScreens.newReceipt')}
          </Button>
        ) : null}
      </Heading>
      <Group align="end" wrap="wrap">
        <TextInput
          type="date"
          label={t('paymentScreens.from')}
          value={from}
          onChange={(event) => {
            setFrom(event.currentTarget.value);
            reset();
          }}
        />
        <TextInput
          type="date"
          label={t('paymentScreens.to')}
          value={to}
          onChange={(event) => {
            setTo(event.currentTarget.value);
            reset();
          }}
        />
        <Select
          label={t('paymentScreens.method')}
          clearable
          data={PAYMENT_METHODS.map((value) => ({ value, label: t(`paymentScreens.methods.${value}`) }))}
          value={method}
          onChange={(value) => {
            setMethod(value);
            reset();
          }}
        />
        <Select
          label={t('paymentScreens.customer')}
          clearable
          searchable
          data={customers}
          value={customer}
          onChange={(value) => {
            setCustomer(value);
            reset();
          }}
        />
        <Button variant="light" onClick={() => downloadFrom(receiptsEndpoint, { query }).catch(notifyError)} data-testid="excel">
          {t('paymentScreens.excel')}
        </Button>
      </Group>
      {receipts.error ? <Alert color="red">{errorText(receipts.error)}</Alert> : null}
      <Table.ScrollContainer minWidth={320}>
        <Table striped highlightOnHover data-testid="receipts-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('paymentScreens.number')}</Table.Th>
              <Table.Th>{t('paymentScreens.date')}</Table.Th>
              <Table.Th>{t('paymentScreens.customer')}</Table.Th>
              <Table.Th>{t('paymentScreens.method')}</Table.Th>
              <Table.Th>{t('paymentScreens.amount')}</Table.Th>
              <Table.Th>{t('paymentScreens.advance')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(receipts.data?.receipts ?? []).map((row) => (
              <Table.Tr key={row.id} data-testid="receipt-row" style={{ cursor: 'pointer' }} onClick={() => setShown(row.id)}>
                <Table.Td>{row.number}</Table.Td>
                <Table.Td>{row.received_on}</Table.Td>
                <Table.Td>{row.customer.name}</Table.Td>
                <Table.Td>
                  {t(`paymentScreens.methods.${row.method}`)}
                  {row.reference ? (
                    <Text size="xs" c="dimmed">
                      {row.reference}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>{show(row.amount)}</Table.Td>
                <Table.Td>{show(row.unallocated)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {receipts.data && receipts.data.receipts.length === 0 ? <Text c="dimmed">{t('paymentScreens.none')}</Text> : null}
      {receipts.data ? (
        <Text fw={700} data-testid="receipts-total">
          {t('paymentScreens.totalReceived')}: {show(receipts.data.total_amount)}
        </Text>
      ) : null}
      {pages > 1 ? <Pagination value={page} onChange={setPage} total={pages} /> : null}
      {shown ? <ReceiptDetail id={shown} onClose={() => setShown(null)} /> : null}
    </Stack>
  );
}

type Remains = z.output<typeof MemoRemainsSchema>;

/** A new credit or debit memo from an issued invoice's lines, with what remains of each. */
export function MemoPage() {
  const { t } = useTranslation();
  const { can } = useAccess();
  const tenantId = useTenantId();
  const client = useQueryClient();
  const [params] = useSearchParams();
  const places = useQuery({
    queryKey: ['choices', locations.name, tenantId],
    queryFn: () => allRecords(locations),
    enabled: Boolean(tenantId),
  });
  const requestId = useRef(newRequestId());
  const [search, setSearch] = useState('');
  const [invoiceId, setInvoiceId] = useState<string | null>(params.get('invoice'));
  const [kind, setKind] = useState<'credit' | 'debit'>('credit');
  const [reasonCode, setReasonCode] = useState<(typeof MEMO_REASONS)[number]>('return');
  const [reason, setReason] = useState('');
  const [day, setDay] = useState(localDay);
  const [restock, setRestock] = useState(true);
  const [location, setLocation] = useState<string | null>(null);
  const [quantities, setQuantities] = useState<Record<number, string>>({});
  const [prices, setPrices] = useState<Record<number, string>>({});
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [saved, setSaved] = useState<{ id: string; number: string; message: string } | null>(null);

  const found = useQuery({
    queryKey: ['memo-invoices', tenantId, search],
    queryFn: () => call(invoicesEndpoint, { query: { search: search.trim() || undefined, per_page: 20 } }),
    enabled: Boolean(tenantId && search.trim().length >= 2),
  });
  const remains = useQuery({
    queryKey: ['memo-remains', tenantId, invoiceId],
    queryFn: () => call(memoRemainsEndpoint, { query: { invoice_id: invoiceId ?? '' } }),
    enabled: Boolean(tenantId && invoiceId),
  });
  const priced = reasonCode === 'price' || reasonCode === 'discount' || kind === 'debit';
  const returning = kind === 'credit' && !priced;

  const lines = (data: Remains) =>
    data.lines.flatMap((line) => {
      const quantity = typed(quantities[line.line] ?? '');
      if (!quantity?.gt(0)) return [];
      const price = typed(prices[line.line] ?? '');
      return [{ invoice_line: line.line, quantity: quantity.toFixed(), ...(priced && price ? { unit_price: price.toFixed() } : {}) }];
    });

  const save = useMutation({
    mutationFn: (data: Remains) =>
      call(recordMemoEndpoint, {
        body: {
          request_id: requestId.current,
          kind,
          invoice_id: data.invoice.id,
          reason_code: reasonCode,
          reason,
          issued_on: day,
          restock: returning && restock,
          location_id: returning && restock ? (location ?? data.invoice.location_id) : undefined,
          lines: lines(data),
        },
      }),
    onSuccess: (answer) => {
      requestId.current = newRequestId();
      setSaved({ id: answer.memo.id, number: answer.memo.number, message: translateMessage(answer.message) });
      setErrors({});
      setQuantities({});
      setPrices({});
      void client.invalidateQueries({ queryKey: ['memo-remains'] });
      void client.invalidateQueries({ queryKey: ['memos'] });
    },
    onError: (error) => {
      setSaved(null);
      if (error instanceof ApiError && error.status === 422) setErrors(error.data?.errors ?? {});
      else notifyError(error);
    },
  });

  if (!can('create', 'sale')) return <Alert color="yellow">{t('paymentScreens.noAbility')}</Alert>;
  const err = fieldErrors(errors);
  const data = remains.data;
  const sent = data ? lines(data) : [];
  const lineError = (line: number, field: string) => {
    const index = sent.findIndex((row) => row.invoice_line === line);
    return index >= 0 ? err(`lines.${index}.${field}`) : undefined;
  };
  const issuedFound = (found.data?.invoices ?? []).filter((row) => row.status === 'issued');

  return (
    <Stack maw={720}>
      <Heading title="pages.newMemo">
        <Button component={Link} to={PAGES.memos.path} variant="subtle">
          {t('paymentScreens.allMemos')}
        </Button>
      </Heading>
      {saved ? (
        <Alert color="green" data-testid="saved">
          {saved.message}: <b data-testid="saved-number">{saved.number}</b>
        </Alert>
      ) : null}
      <TextInput
        label={t('paymentScreens.findInvoice')}
        description={t('paymentScreens.findInvoiceHelp')}
        size="md"
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        data-testid="invoice-search"
      />
      {issuedFound.length > 0 ? (
        <Select
          label={t('paymentScreens.invoice')}
          size="md"
          data={issuedFound.map((row) => ({ value: row.id, label: `${row.number} · ${row.customer.name} · ${show(row.gross_total)}` }))}
          value={invoiceId}
          onChange={(value) => {
            setInvoiceId(value);
            setQuantities({});
            setPrices({});
          }}
          data-testid="invoice"
        />
      ) : null}
      {remains.error ? <Alert color="red">{errorText(remains.error)}</Alert> : null}
      {err('invoice_id') ? <Alert color="red">{err('invoice_id')}</Alert> : null}
      {data ? (
        <Stack gap="sm">
          <Card withBorder padding="sm">
            <Text fw={600}>
              {data.invoice.number} · {data.invoice.customer.name}
            </Text>
            <Text size="sm">
              {t('paymentScreens.invoiceTotal')}: {show(data.invoice.gross_total)} · {t('paymentScreens.creditable')}:{' '}
              <b data-testid="creditable">{show(data.invoice.creditable)}</b> · {t('paymentScreens.balance')}: {show(data.invoice.balance)}
            </Text>
          </Card>
          <SegmentedControl
            fullWidth
            size="md"
            value={kind}
            onChange={(value) => {
              setKind(value as 'credit' | 'debit');
              setReasonCode(value === 'debit' ? 'price' : 'return');
            }}
            data={[
              { value: 'credit', label: t('paymentScreens.credit') },
              { value: 'debit', label: t('paymentScreens.debit') },
            ]}
          />
          <Group grow align="start">
            <Select
              label={t('paymentScreens.reasonCode')}
              size="md"
              allowDeselect={false}
              data={MEMO_REASONS.filter((code) => kind === 'credit' || code === 'price' || code === 'other').map((value) => ({
                value,
                label: t(`paymentScreens.reasons.${value}`),
              }))}
              value={reasonCode}
              onChange={(value) => value && setReasonCode(value as (typeof MEMO_REASONS)[number])}
              error={err('reason_code')}
            />
            <TextInput
              type="date"
              label={t('paymentScreens.date')}
              size="md"
              value={day}
              max={latestDay()}
              onChange={(event) => setDay(event.currentTarget.value)}
              error={err('issued_on')}
            />
          </Group>
          <TextInput
            label={t('paymentScreens.reason')}
            size="md"
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            error={err('reason')}
            data-testid="reason"
          />
          {returning ? (
            <Group grow align="end">
              <Switch label={t('paymentScreens.restock')} checked={restock} onChange={(event) => setRestock(event.currentTarget.checked)} />
              {restock ? (
                <Select
                  label={t('paymentScreens.returnTo')}
                  size="md"
                  data={(places.data?.rows ?? []).map((row) => ({ value: row.id, label: row.name }))}
                  value={location ?? data.invoice.location_id}
                  onChange={setLocation}
                  error={err('location_id')}
                />
              ) : null}
            </Group>
          ) : null}
          {data.lines.map((line) => (
            <Card withBorder padding="sm" key={line.line} data-testid={`memo-line-${line.line}`}>
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                {line.product.name}{' '}
                <Text span c="dimmed" size="xs">
                  {line.product.code}
                </Text>
              </Text>
              <Text size="xs" c="dimmed">
                {t('paymentScreens.invoiced')} {show(line.quantity)} × {show(line.unit_price)} = {show(line.gross)} ·{' '}
                {t('paymentScreens.remaining')} {show(line.remaining_quantity)} ({show(line.remaining_gross)})
              </Text>
              <Group grow align="start" mt="xs">
                <TextInput
                  label={t('paymentScreens.quantity')}
                  inputMode="decimal"
                  size="md"
                  value={quantities[line.line] ?? ''}
                  onChange={(event) => setQuantities({ ...quantities, [line.line]: event.currentTarget.value })}
                  error={lineError(line.line, 'quantity') ?? lineError(line.line, 'invoice_line')}
                  data-testid="memo-quantity"
                />
                {priced ? (
                  <TextInput
                    label={t(kind === 'debit' ? 'paymentScreens.extraPerUnit' : 'paymentScreens.creditPerUnit')}
                    inputMode="decimal"
                    size="md"
                    value={prices[line.line] ?? ''}
                    onChange={(event) => setPrices({ ...prices, [line.line]: event.currentTarget.value })}
                    error={lineError(line.line, 'unit_price')}
                    data-testid="memo-price"
                  />
                ) : null}
              </Group>
            </Card>
          ))}
          {err('lines') ? <Text c="red">{err('lines')}</Text> : null}
          <Button size="lg" onClick={() => save.mutate(data)} loading={save.isPending} disabled={sent.length === 0} data-testid="submit">
            {t('paymentScreens.saveMemo')}
          </Button>
        </Stack>
      ) : null}
    </Stack>
  );
}

/** Credit and debit memos, newest first. */
export function MemosPage() {
  const { t } = useTranslation();
  const { can } = useAccess();
  const tenantId = useTenantId();
  const [kind, setKind] = useState<string | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const [shown, setShown] = useState<string | null>(null);
  const query = {
    kind: (kind ?? undefined) as 'credit' | 'debit' | undefined,
    from: from || undefined,
    to: to || undefined,
    page,
    per_page: 25,
  };
  const memos = useQuery({
    queryKey: ['memos', tenantId, query],
    queryFn: () => call(memosEndpoint, { query }),
    enabled: Boolean(tenantId),
  });
  const memo = useQuery({
    queryKey: ['memo', tenantId, shown],
    queryFn: () => call(memoEndpoint, { params: { id: shown ?? '' } }),
    enabled: Boolean(shown),
  });
  const pages = Math.max(1, Math.ceil((memos.data?.totalRecords ?? 0) / 25));
  return (
    <Stack>
      <Heading title="pages.memos">
        {can('create', 'sale') ? (
          <Button component={Link} to={PAGES.newMemo.path}>
            {t('paymentScreens.newMemo')}
          </Button>
        ) : null}
      </Heading>
      <Group align="end" wrap="wrap">
        <Select
          label={t('paymentScreens.kind')}
          clearable
          data={[
            { value: 'credit', label: t('paymentScreens.credit') },
            { value: 'debit', label: t('paymentScreens.debit') },
          ]}
          value={kind}
          onChange={(value) => {
            setKind(value);
            setPage(1);
          }}
        />
        <TextInput
          type="date"
          label={t('paymentScreens.from')}
          value={from}
          onChange={(event) => {
            setFrom(event.currentTarget.value);
            setPage(1);
          }}
        />
        <TextInput
          type="date"
          label={t('paymentScreens.to')}
          value={to}
          onChange={(event) => {
            setTo(event.currentTarget.value);
            setPage(1);
          }}
        />
        <Button variant="light" onClick={() => downloadFrom(memosEndpoint, { query }).catch(notifyError)}>
          {t('paymentScreens.excel')}
        </Button>
      </Group>
      {memos.error ? <Alert color="red">{errorText(memos.error)}</Alert> : null}
      <Table.ScrollContainer minWidth={320}>
        <Table striped highlightOnHover data-testid="memos-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('paymentScreens.number')}</Table.Th>
              <Table.Th>{t('paymentScreens.date')}</Table.Th>
              <Table.Th>{t('paymentScreens.invoice')}</Table.Th>
              <Table.Th>{t('paymentScreens.customer')}</Table.Th>
              <Table.Th>{t('paymentScreens.amount')}</Table.Th>
              <Table.Th>{t('paymentScreens.fiscal')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(memos.data?.memos ?? []).map((row) => (
              <Table.Tr key={row.id} style={{ cursor: 'pointer' }} onClick={() => setShown(row.id)} data-testid="memo-row">
                <Table.Td>
                  {row.number}
                  <Text size="xs" c="dimmed">
                    {t(row.kind === 'credit' ? 'paymentScreens.credit' : 'paymentScreens.debit')}
                  </Text>
                </Table.Td>
                <Table.Td>{row.issued_on}</Table.Td>
                <Table.Td>{row.invoice.number}</Table.Td>
                <Table.Td>{row.customer.name}</Table.Td>
                <Table.Td>{show(row.gross_total)}</Table.Td>
                <Table.Td>{t(`paymentScreens.fiscalStatus.${row.fiscal_status}`, row.fiscal_status)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {memos.data && memos.data.memos.length === 0 ? <Text c="dimmed">{t('paymentScreens.none')}</Text> : null}
      {pages > 1 ? <Pagination value={page} onChange={setPage} total={pages} /> : null}
      {shown ? (
        <Modal opened onClose={() => setShown(null)} title={memo.data?.number ?? ''} size="lg">
          {memo.data ? (
            <Stack gap="xs">
              <Text>
                {memo.data.invoice.number} · {memo.data.customer.name} · {memo.data.issued_on}
              </Text>
              <Text size="sm">
                {t(`paymentScreens.reasons.${memo.data.reason_code}`)}: {memo.data.reason}
              </Text>
              <Table>
                <Table.Tbody>
                  {memo.data.lines.map((line) => (
                    <Table.Tr key={line.line}>
                      <Table.Td>{line.product.name}</Table.Td>
                      <Table.Td>
                        {show(line.quantity)} × {show(line.unit_price)}
                      </Table.Td>
                      <Table.Td>{show(line.gross)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              <Text fw={700}>
                {t('paymentScreens.amount')}: {show(memo.data.gross_total)} ({t('paymentScreens.tax')} {show(memo.data.tax_total)})
              </Text>
              {memo.data.location ? (
                <Text size="sm" c="dimmed">
                  {t('paymentScreens.returnTo')}: {memo.data.location.name}
                </Text>
              ) : null}
            </Stack>
          ) : null}
        </Modal>
      ) : null}
    </Stack>
  );
}
