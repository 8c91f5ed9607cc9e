import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Pagination,
  Select,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import {
  companies,
  counterSaleEndpoint,
  createInvoiceEndpoint,
  deleteInvoiceEndpoint,
  formatAmount,
  INVOICE_LIST_START,
  INVOICE_PAYMENT_STATUSES,
  type Invoice,
  invoiceDefaultsEndpoint,
  invoiceEndpoint,
  invoicesEndpoint,
  issueInvoiceEndpoint,
  PAYMENT_METHODS,
  type PaymentMethod,
  products,
  stockLookupEndpoint,
  updateInvoiceEndpoint,
} from '@mustard/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { useAccess } from '../../lib/access.js';
import { ApiError, api, call, downloadFrom } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { translateMessage } from '../../lib/messages.js';
import { errorText, notifyError } from '../../lib/notify.js';
import { PAGES, pathTo } from '../../lib/pages.js';
import { allRecords } from '../../lib/resource-calls.js';
import { addSold, changeDue, lineAmount, linesToSend, type SaleLine, type SellableProduct, saleTotal } from './lines.js';

/*
 * The selling screens (issue 32 points 1 and 9): the counter sale (scan or search, quantities,
 * payment, the change, one button, then the 80 mm receipt), the invoices list from the spec's
 * start date, and the invoice form and detail with issue and print. Phones first: lines are
 * cards, so 360 px scrolls only down. Money stays exact decimal text; the server's figures are
 * what is shown once saved, the screen's own sums are the estimate while typing.
 */

const newRequestId = () => crypto.randomUUID();

/** Exact text as shown: thousands commas, the currency's decimals. */
const money = (value: string | { toFixed(): string }, decimals: number) =>
  formatAmount(typeof value === 'string' ? value : value.toFixed(), decimals);

function useTenantId() {
  return useAuth().session?.tenant?.id;
}

function useDefaults() {
  const tenantId = useTenantId();
  return useQuery({
    queryKey: ['invoice-defaults', tenantId],
    queryFn: () => call(invoiceDefaultsEndpoint, {}),
    enabled: Boolean(tenantId),
  });
}

function Heading({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <Title order={1} size="h3">
      {t(title)}
    </Title>
  );
}

type PrintFormat = 'a4' | '80mm' | '58mm';
const printPath = (id: string, format: PrintFormat, output: 'pdf' | 'text') =>
  `/api/invoices/${encodeURIComponent(id)}/print?format=${format}&output=${output}`;

/**
 * Opens the print of an invoice in a new tab. The tab is opened at the click (a browser lets a
 * click open one, not a later answer) and sent to the PDF once it has come with the session's
 * token (a plain link would not carry it).
 */
async function openPrint(id: string, format: PrintFormat) {
  const tab = window.open('', '_blank');
  try {
    const pdf = await api.blob(printPath(id, format, 'pdf'));
    const url = URL.createObjectURL(pdf);
    if (tab) tab.location.href = url;
    else window.location.assign(url);
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (error) {
    tab?.close();
    notifyError(error);
  }
}

function PrintButtons({ id, primary }: { id: string; primary?: PrintFormat }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs">
      {(['80mm', '58mm', 'a4'] as const).map((format) => (
        <Button
          key={format}
          variant={format === primary ? 'filled' : 'light'}
          onClick={() => void openPrint(id, format)}
          data-testid={`print-${format}`}
        >
          {t(`salesScreens.print.${format}`)}
        </Button>
      ))}
    </Group>
  );
}

/**
 * The scan field and the product search shared by the counter and the invoice form. A
 * keyboard-wedge scanner types the code then Enter: Enter looks the code or barcode up, adds the
 * line (or 1 to its line) and the field stays focused and empty for the next scan.
 */
function ProductEntry({ onProduct, error }: { onProduct: (product: SellableProduct) => void; error?: string | undefined }) {
  const { t } = useTranslation();
  const tenantId = useTenantId();
  const [code, setCode] = useState('');
  const [scanError, setScanError] = useState<string | null>(null);
  const [search, setSearch] = useState<string | null>(null);
  const scan = useRef<HTMLInputElement>(null);
  const catalogue = useQuery({
    queryKey: ['choices', products.name, tenantId],
    queryFn: () => allRecords(products),
    enabled: Boolean(tenantId),
  });
  useEffect(() => scan.current?.focus(), []);
  const lookup = async () => {
    const typed = code.trim();
    if (!typed) return;
    try {
      const { product } = await call(stockLookupEndpoint, { query: { code: typed } });
      onProduct(product);
      setCode('');
      setScanError(null);
    } catch (caught) {
      setScanError(errorText(caught));
    }
    scan.current?.focus();
  };
  const onKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    void lookup();
  };
  const sellable = (catalogue.data?.rows ?? []).filter((row) => row.active);
  return (
    <Stack gap="xs">
      <TextInput
        ref={scan}
        label={t('salesScreens.scan')}
        description={t('salesScreens.scanHelp')}
        value={code}
        onChange={(event) => setCode(event.currentTarget.value)}
        onKeyDown={onKey}
        error={scanError ?? error}
        size="md"
        autoComplete="off"
        data-testid="scan"
      />
      <Select
        label={t('salesScreens.searchProduct')}
        searchable
        clearable
        size="md"
        data={sellable.map((row) => ({ value: row.id, label: `${row.name} (${row.code})` }))}
        value={search}
        onChange={(value) => {
          const row = sellable.find((candidate) => candidate.id === value);
          if (row) onProduct({ id: row.id, code: row.code, name: row.name, unit: row.unit, price: row.price });
          setSearch(null);
          scan.current?.focus();
        }}
        data-testid="product-search"
      />
    </Stack>
  );
}

function SaleLines({
  lines,
  setLines,
  decimals,
  errors,
  withPrice,
}: {
  lines: SaleLine[];
  setLines: (next: (lines: SaleLine[]) => SaleLine[]) => void;
  decimals: number;
  errors: Record<string, string[]>;
  withPrice: boolean;
}) {
  const { t } = useTranslation();
  const edit = (index: number, change: Partial<SaleLine>) =>
    setLines((current) => current.map((line, at) => (at === index ? { ...line, ...change } : line)));
  const fieldError = (index: number, name: string) => errors[`lines.${index}.${name}`]?.map(translateMessage).join(' ');
  return (
    <Stack gap="xs">
      {lines.map((line, index) => {
        const amount = lineAmount(line, decimals);
        return (
          <Card withBorder key={line.product_id} padding="sm" data-testid={`line-${line.code}`}>
            <Group justify="space-between" wrap="nowrap">
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                {line.name}{' '}
                <Text span c="dimmed" size="xs">
                  {line.code}
                </Text>
              </Text>
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                aria-label={t('salesScreens.removeLine')}
                onClick={() => setLines((current) => current.filter((_, at) => at !== index))}
              >
                ×
              </ActionIcon>
            </Group>
            <Group grow align="start" mt="xs">
              <TextInput
                label={`${t('salesScreens.quantity')} (${line.unit})`}
                inputMode="decimal"
                size="md"
                value={line.quantity}
                onChange={(event) => edit(index, { quantity: event.currentTarget.value })}
                error={fieldError(index, 'quantity')}
                data-testid="quantity"
              />
              {withPrice ? (
                <TextInput
                  label={t('salesScreens.unitPrice')}
                  inputMode="decimal"
                  size="md"
                  value={line.unit_price}
                  onChange={(event) => edit(index, { unit_price: event.currentTarget.value })}
                  error={fieldError(index, 'unit_price')}
                  data-testid="unit-price"
                />
              ) : null}
              {withPrice ? (
                <TextInput
                  label={t('salesScreens.discount')}
                  inputMode="decimal"
                  size="md"
                  value={line.discount}
                  onChange={(event) => edit(index, { discount: event.currentTarget.value })}
                  error={fieldError(index, 'discount')}
                  data-testid="discount"
                />
              ) : null}
            </Group>
            {fieldError(index, 'product_id') ? (
              <Text c="red" size="sm">
                {fieldError(index, 'product_id')}
              </Text>
            ) : null}
            <Text size="sm" ta="right" mt={4} data-testid="line-amount">
              {withPrice ? null : `${money(line.unit_price, decimals)} × ${line.quantity} = `}
              {amount ? money(amount, decimals) : '-'}
            </Text>
          </Card>
        );
      })}
    </Stack>
  );
}

/** The counter: a cash sale to the walk-in customer, issued and paid with one button, then its receipt. */
export function CounterSalePage() {
  const { t } = useTranslation();
  const { can } = useAccess();
  const client = useQueryClient();
  const defaults = useDefaults();
  const requestId = useRef(newRequestId());
  const [lines, setLineList] = useState<SaleLine[]>([]);
  const [method, setMethod] = useState<PaymentMethod>('cash');
  const [reference, setReference] = useState('');
  const [tendered, setTendered] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [sold, setSold] = useState<{ invoice: Invoice; change: string; receipt: string | null } | null>(null);
  const [receiptText, setReceiptText] = useState<string | null>(null);
  const printButton = useRef<HTMLButtonElement>(null);
  const decimals = defaults.data?.currency.decimals ?? 0;
  const total = saleTotal(lines, decimals);
  const change = changeDue(tendered, total);
  const setLines = (next: (lines: SaleLine[]) => SaleLine[]) => {
    setSold(null);
    setLineList((current) => next(current));
  };

  const sell = useMutation({
    mutationFn: () =>
      call(counterSaleEndpoint, {
        body: {
          request_id: requestId.current,
          lines: linesToSend(lines).map(({ product_id, quantity }) => ({ product_id, quantity })),
          payment: {
            method,
            reference: reference.trim() || null,
            ...(method === 'cash' && tendered.trim() ? { tendered: tendered.trim().replace(/[\s,]/g, '') } : {}),
          },
        },
      }),
    onSuccess: (answer) => {
      // Sold: the next sale is a new action with an id of its own.
      requestId.current = newRequestId();
      setSold({ invoice: answer.invoice, change: answer.change, receipt: answer.receipt?.number ?? null });
      setLineList([]);
      setTendered('');
      setReference('');
      setErrors({});
      setReceiptText(null);
      void api
        .blob(printPath(answer.invoice.id, '80mm', 'text'))
        .then((blob) => blob.text())
        .then(setReceiptText)
        .catch(() => setReceiptText(null));
      void client.invalidateQueries({ queryKey: ['invoices'] });
      void client.invalidateQueries({ queryKey: ['stock-onhand'] });
      setTimeout(() => printButton.current?.focus(), 0);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 422) setErrors(error.data?.errors ?? {});
      else notifyError(error);
    },
  });

  if (!can('create', 'sale')) return <Alert color="yellow">{t('salesScreens.noAbility')}</Alert>;
  const err = (name: string) => errors[name]?.map(translateMessage).join(' ');
  const onEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    if (lines.length > 0 && !sell.isPending) sell.mutate();
  };
  return (
    <Stack maw={720}>
      <Heading title="pages.salesCounter" />
      {sold ? (
        <Card withBorder data-testid="sold">
          <Stack gap="xs">
            <Text fw={700}>
              {t('salesScreens.soldAs', { number: sold.invoice.number, total: money(sold.invoice.gross_total, decimals) })}
            </Text>
            {sold.receipt ? <Text size="sm">{t('salesScreens.receiptNo', { number: sold.receipt })}</Text> : null}
            <Text size="xl" fw={700} data-testid="change">
              {t('salesScreens.change')}: {money(sold.change, decimals)}
            </Text>
            <Group gap="xs">
              <Button ref={printButton} onClick={() => void openPrint(sold.invoice.id, '80mm')} data-testid="print-receipt">
                {t('salesScreens.printReceipt')}
              </Button>
              <Button variant="light" onClick={() => void openPrint(sold.invoice.id, '58mm')} data-testid="print-58mm">
                {t('salesScreens.print.58mm')}
              </Button>
            </Group>
            {receiptText ? (
              <pre data-testid="receipt-text" style={{ fontSize: 10, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', margin: 0 }}>
                {receiptText}
              </pre>
            ) : null}
          </Stack>
        </Card>
      ) : null}
      <ProductEntry onProduct={(product) => setLines((current) => addSold(current, product))} error={err('lines')} />
      <SaleLines lines={lines} setLines={setLines} decimals={decimals} errors={errors} withPrice={false} />
      <Text size="xl" fw={700} ta="right" data-testid="total">
        {t('salesScreens.total')}: {money(total, decimals)}
      </Text>
      <Select
        label={t('salesScreens.method')}
        size="md"
        allowDeselect={false}
        data={PAYMENT_METHODS.map((value) => ({ value, label: t(`salesScreens.methods.${value}`) }))}
        value={method}
        onChange={(value) => setMethod((value ?? 'cash') as PaymentMethod)}
        error={err('payment.method')}
        data-testid="method"
      />
      {method === 'cash' ? (
        <Group grow align="start">
          <TextInput
            label={t('salesScreens.tendered')}
            inputMode="decimal"
            size="md"
            value={tendered}
            onChange={(event) => setTendered(event.currentTarget.value)}
            onKeyDown={onEnter}
            error={err('payment.tendered')}
            data-testid="tendered"
          />
          <TextInput
            label={t('salesScreens.change')}
            size="md"
            readOnly
            value={change ? money(change, decimals) : ''}
            data-testid="change-due"
          />
        </Group>
      ) : (
        <TextInput
          label={t('salesScreens.paymentReference')}
          size="md"
          value={reference}
          onChange={(event) => setReference(event.currentTarget.value)}
          onKeyDown={onEnter}
          error={err('payment.reference')}
          data-testid="payment-reference"
        />
      )}
      {err('payment') ? <Alert color="red">{err('payment')}</Alert> : null}
      <Button size="lg" onClick={() => sell.mutate()} loading={sell.isPending} disabled={lines.length === 0} data-testid="sell">
        {t('salesScreens.completeSale')}
      </Button>
    </Stack>
  );
}

const STATUS_COLORS: Record<string, string> = { draft: 'gray', paid: 'green', part_paid: 'yellow', unpaid: 'blue', overdue: 'red' };

function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLORS[status] ?? 'gray'} variant="light" data-testid="payment-status">
      {t(`salesScreens.statuses.${status}`)}
    </Badge>
  );
}

/** The invoices from the spec's start date (2020-01-01), newest first, with their payment status. */
export function InvoicesPage() {
  const { t } = useTranslation();
  const { can } = useAccess();
  const tenantId = useTenantId();
  const [sdate, setSdate] = useState(INVOICE_LIST_START);
  const [edate, setEdate] = useState('');
  const [status, setStatus] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const query = {
    sdate: sdate || INVOICE_LIST_START,
    edate: edate || undefined,
    status: (status ?? undefined) as (typeof INVOICE_PAYMENT_STATUSES)[number] | undefined,
    search: search.trim() || undefined,
    page,
    per_page: 25,
  };
  const list = useQuery({
    queryKey: ['invoices', tenantId, query],
    queryFn: () => call(invoicesEndpoint, { query }),
    enabled: Boolean(tenantId),
  });
  const pages = Math.max(1, Math.ceil((list.data?.totalRecords ?? 0) / 25));
  const reset = () => setPage(1);
  return (
    <Stack>
      <Group justify="space-between">
        <Heading title="pages.salesInvoices" />
        {can('create', 'sale') ? (
          <Button component={Link} to={PAGES.salesInvoiceNew.path} data-testid="new-invoice">
            {t('salesScreens.newInvoice')}
          </Button>
        ) : null}
      </Group>
      <Group align="end">
        <TextInput
          type="date"
          label={t('salesScreens.from')}
          value={sdate}
          onChange={(event) => {
            setSdate(event.currentTarget.value);
            reset();
          }}
        />
        <TextInput
          type="date"
          label={t('salesScreens.to')}
          value={edate}
          onChange={(event) => {
            setEdate(event.currentTarget.value);
            reset();
          }}
        />
        <Select
          label={t('salesScreens.status')}
          clearable
          data={INVOICE_PAYMENT_STATUSES.map((value) => ({ value, label: t(`salesScreens.statuses.${value}`) }))}
          value={status}
          onChange={(value) => {
            setStatus(value);
            reset();
          }}
        />
        <TextInput
          label={t('salesScreens.search')}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            reset();
          }}
          style={{ flex: 1, minWidth: 160 }}
        />
        <Button variant="light" onClick={() => downloadFrom(invoicesEndpoint, { query }).catch(notifyError)} data-testid="excel">
          {t('salesScreens.excel')}
        </Button>
      </Group>
      {list.error ? <Alert color="red">{errorText(list.error)}</Alert> : null}
      <Table.ScrollContainer minWidth={320}>
        <Table striped highlightOnHover data-testid="invoices-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('salesScreens.number')}</Table.Th>
              <Table.Th>{t('salesScreens.date')}</Table.Th>
              <Table.Th>{t('salesScreens.customer')}</Table.Th>
              <Table.Th>{t('salesScreens.total')}</Table.Th>
              <Table.Th>{t('salesScreens.balance')}</Table.Th>
              <Table.Th>{t('salesScreens.status')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(list.data?.invoices ?? []).map((row) => (
              <Table.Tr key={row.id} data-testid="invoice-row">
                <Table.Td>
                  <Link to={pathTo(PAGES.salesInvoice, { id: row.id })}>{row.number ?? t('salesScreens.draft')}</Link>
                </Table.Td>
                <Table.Td>{row.issued_on}</Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{row.buyer_name ?? row.customer.name}</Table.Td>
                <Table.Td>{money(row.gross_total, row.currency_decimals)}</Table.Td>
                <Table.Td>{money(row.balance, row.currency_decimals)}</Table.Td>
                <Table.Td>
                  <StatusBadge status={row.payment_status} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {list.data && list.data.invoices.length === 0 ? <Text c="dimmed">{t('salesScreens.none')}</Text> : null}
      {pages > 1 ? <Pagination value={page} onChange={setPage} total={pages} /> : null}
    </Stack>
  );
}

/** An invoice: the form while it is a draft (new or saved), its detail with print once issued. */
export function InvoicePage() {
  const { id } = useParams();
  const tenantId = useTenantId();
  const invoice = useQuery({
    queryKey: ['invoice', tenantId, id],
    queryFn: () => call(invoiceEndpoint, { params: { id: id ?? '' } }),
    enabled: Boolean(tenantId && id),
  });
  if (!id) return <InvoiceForm draft={null} />;
  if (invoice.error) return <Alert color="red">{errorText(invoice.error)}</Alert>;
  if (!invoice.data) return null;
  return invoice.data.status === 'draft' ? (
    <InvoiceForm key={invoice.data.id} draft={invoice.data} />
  ) : (
    <InvoiceDetail invoice={invoice.data} />
  );
}

const linesOf = (invoice: Invoice): SaleLine[] =>
  invoice.lines.map((line) => ({
    product_id: line.product_id,
    code: line.product.code,
    name: line.product.name,
    unit: line.product.unit,
    quantity: line.quantity,
    unit_price: line.unit_price,
    discount: line.discount === '0' ? '' : line.discount,
  }));

function InvoiceForm({ draft }: { draft: Invoice | null }) {
  const { t } = useTranslation();
  const { can } = useAccess();
  const navigate = useNavigate();
  const client = useQueryClient();
  const tenantId = useTenantId();
  const defaults = useDefaults();
  const partners = useQuery({
    queryKey: ['choices', companies.name, tenantId],
    queryFn: () => allRecords(companies),
    enabled: Boolean(tenantId),
  });
  const requestId = useRef(draft?.request_id ?? newRequestId());
  const [customer, setCustomer] = useState<string | null>(draft?.customer_id ?? null);
  const [location, setLocation] = useState<string | null>(draft?.location_id ?? null);
  const [issuedOn, setIssuedOn] = useState(draft?.issued_on ?? '');
  const [dueOn, setDueOn] = useState(draft?.due_on ?? '');
  const [reference, setReference] = useState(draft?.reference ?? '');
  const [notes, setNotes] = useState(draft?.notes ?? '');
  const [lines, setLineList] = useState<SaleLine[]>(() => (draft ? linesOf(draft) : []));
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const setLines = (next: (lines: SaleLine[]) => SaleLine[]) => setLineList((current) => next(current));
  const decimals = draft?.currency_decimals ?? defaults.data?.currency.decimals ?? 0;

  const body = () => ({
    request_id: requestId.current,
    customer_id: customer ?? defaults.data?.customer.id,
    location_id: location ?? defaults.data?.location?.id,
    issued_on: issuedOn || undefined,
    due_on: dueOn || undefined,
    reference: reference.trim() || null,
    notes: notes.trim() || null,
    lines: linesToSend(lines),
  });
  const failed = (error: unknown) => {
    if (error instanceof ApiError && error.status === 422) setErrors(error.data?.errors ?? {});
    else notifyError(error);
  };
  // Once saved (even when its issue was then refused), the draft is changed, not made again.
  const savedId = useRef(draft?.id ?? null);
  const save = async () => {
    const saved = savedId.current
      ? (await call(updateInvoiceEndpoint, { params: { id: savedId.current }, body: body() })).invoice
      : (await call(createInvoiceEndpoint, { body: body() })).invoice;
    savedId.current = saved.id;
    return saved;
  };
  const saving = useMutation({
    mutationFn: async (issue: boolean) => {
      const saved = await save();
      if (!issue) return saved;
      return (await call(issueInvoiceEndpoint, { params: { id: saved.id } })).invoice;
    },
    onSuccess: (saved) => {
      setErrors({});
      client.setQueryData(['invoice', tenantId, saved.id], saved);
      void client.invalidateQueries({ queryKey: ['invoices'] });
      navigate(pathTo(PAGES.salesInvoice, { id: saved.id }), { replace: true });
    },
    onError: failed,
  });
  const removing = useMutation({
    mutationFn: () => call(deleteInvoiceEndpoint, { params: { id: draft?.id ?? '' } }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['invoices'] });
      navigate(PAGES.salesInvoices.path);
    },
    onError: notifyError,
  });

  if (!can('create', 'sale')) return <Alert color="yellow">{t('salesScreens.noAbility')}</Alert>;
  const err = (name: string) => errors[name]?.map(translateMessage).join(' ');
  const customers = (partners.data?.rows ?? []).filter((row) => row.role !== 'supplier');
  return (
    <Stack maw={720}>
      <Heading title={draft ? 'salesScreens.draftTitle' : 'pages.salesInvoiceNew'} />
      <Select
        label={t('salesScreens.customer')}
        searchable
        size="md"
        data={customers.map((row) => ({ value: row.id, label: row.name }))}
        value={customer ?? defaults.data?.customer.id ?? null}
        onChange={setCustomer}
        error={err('customer_id')}
        data-testid="customer"
      />
      <Select
        label={t('salesScreens.location')}
        size="md"
        data={(defaults.data?.locations ?? []).map((row) => ({ value: row.id, label: row.name }))}
        value={location ?? defaults.data?.location?.id ?? null}
        onChange={setLocation}
        error={err('location_id')}
        data-testid="location"
      />
      <Group grow align="start">
        <TextInput
          type="date"
          label={t('salesScreens.date')}
          size="md"
          value={issuedOn || defaults.data?.today || ''}
          onChange={(event) => setIssuedOn(event.currentTarget.value)}
          error={err('issued_on')}
        />
        <TextInput
          type="date"
          label={t('salesScreens.dueOn')}
          description={t('salesScreens.dueHelp')}
          size="md"
          value={dueOn}
          onChange={(event) => setDueOn(event.currentTarget.value)}
          error={err('due_on')}
        />
      </Group>
      <TextInput
        label={t('salesScreens.reference')}
        size="md"
        value={reference}
        onChange={(event) => setReference(event.currentTarget.value)}
        error={err('reference')}
      />
      <ProductEntry onProduct={(product) => setLines((current) => addSold(current, product))} error={err('lines')} />
      <SaleLines lines={lines} setLines={setLines} decimals={decimals} errors={errors} withPrice />
      <Text fw={700} ta="right" data-testid="estimate">
        {t('salesScreens.total')}: {money(saleTotal(lines, decimals), decimals)}
      </Text>
      <Textarea
        label={t('salesScreens.notes')}
        value={notes}
        onChange={(event) => setNotes(event.currentTarget.value)}
        error={err('notes')}
      />
      <Group>
        <Button
          size="md"
          variant="light"
          onClick={() => saving.mutate(false)}
          loading={saving.isPending}
          disabled={lines.length === 0}
          data-testid="save-draft"
        >
          {t('salesScreens.saveDraft')}
        </Button>
        <Button size="md" onClick={() => saving.mutate(true)} loading={saving.isPending} disabled={lines.length === 0} data-testid="issue">
          {t('salesScreens.issue')}
        </Button>
        {draft ? (
          <Button
            size="md"
            color="red"
            variant="subtle"
            onClick={() => removing.mutate()}
            loading={removing.isPending}
            data-testid="delete-draft"
          >
            {t('salesScreens.deleteDraft')}
          </Button>
        ) : null}
      </Group>
    </Stack>
  );
}

function InvoiceDetail({ invoice }: { invoice: Invoice }) {
  const { t } = useTranslation();
  const d = invoice.currency_decimals;
  const figure = (label: string, value: string, testId?: string) => (
    <Group justify="space-between" wrap="nowrap">
      <Text size="sm">{t(label)}</Text>
      <Text size="sm" fw={600} data-testid={testId}>
        {money(value, d)}
      </Text>
    </Group>
  );
  return (
    <Stack maw={720}>
      <Group justify="space-between">
        <Title order={1} size="h3" data-testid="invoice-number">
          {invoice.number}
        </Title>
        <StatusBadge status={invoice.payment_status} />
      </Group>
      <Text size="sm">
        {invoice.buyer_name ?? invoice.customer.name} · {invoice.issued_on} · {t('salesScreens.dueOn')} {invoice.due_on}
      </Text>
      {invoice.fiscal_status !== 'none' ? (
        <Text size="sm" data-testid="fiscal">
          {t(`salesScreens.fiscal.${invoice.fiscal_status}`)}
          {invoice.fiscal_fdn ? ` · ${t('salesScreens.fdn')} ${invoice.fiscal_fdn}` : ''}
        </Text>
      ) : null}
      <PrintButtons id={invoice.id} primary="a4" />
      <Stack gap="xs">
        {invoice.lines.map((line) => (
          <Card withBorder padding="xs" key={line.line} data-testid="detail-line">
            <Group justify="space-between" wrap="nowrap" align="start">
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {line.product.name} · {formatAmount(line.quantity, 3).replace(/\.?0+$/, '')} × {money(line.unit_price, d)}
                {line.discount !== '0' ? ` - ${money(line.discount, d)}` : ''}
                {line.tax_code ? (
                  <Text span c="dimmed" size="xs">
                    {' '}
                    {line.tax_code}
                  </Text>
                ) : null}
              </Text>
              <Text size="sm" fw={600}>
                {money(line.gross, d)}
              </Text>
            </Group>
          </Card>
        ))}
      </Stack>
      <Card withBorder padding="sm">
        {invoice.by_tax.map((row) => (
          <Group key={row.tax_code} justify="space-between" wrap="nowrap">
            <Text size="xs" c="dimmed">
              {row.tax_code || t('salesScreens.noTax')}: {money(row.net, d)} + {money(row.tax, d)}
            </Text>
          </Group>
        ))}
        {figure('salesScreens.net', invoice.net_total)}
        {figure('salesScreens.vat', invoice.tax_total)}
        {figure('salesScreens.total', invoice.gross_total, 'gross-total')}
        {figure('salesScreens.paid', invoice.paid)}
        {invoice.credited !== '0' ? figure('salesScreens.credited', invoice.credited) : null}
        {figure('salesScreens.balance', invoice.balance, 'balance')}
      </Card>
      <Button component={Link} to={PAGES.salesInvoices.path} variant="subtle">
        {t('salesScreens.backToList')}
      </Button>
    </Stack>
  );
}
