import { Alert, Button, Card, Group, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import {
  type CashupReportAnswer,
  cashupReportEndpoint,
  DEBTOR_AGING_BUCKETS,
  type DebtorsReportAnswer,
  debtorsReportEndpoint,
  formatAmount,
  profitReportEndpoint,
  REPORT_PAYMENT_METHODS,
  vatReportEndpoint,
} from '@mustard/shared';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call, downloadFrom } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { translateMessage } from '../../lib/messages.js';
import { errorText, notifyError } from '../../lib/notify.js';

/*
 * The reports a shop owner reads daily (issue 32 point 8): the cash-up with the mobile-money
 * check, debtors by age, the month's VAT and a simple profit. Each has its period picker, its
 * tables (scrolling sideways on a phone: nothing wider than 360 px outside them) and the same
 * report as Excel or PDF. Figures are the server's exact decimal text, shown with thousands
 * commas and the currency's decimals.
 */

/** Today in Kampala, the business side's home. */
const today = () => new Date(Date.now() + 3 * 3600 * 1000).toISOString().slice(0, 10);
const firstOfMonth = () => `${today().slice(0, 8)}01`;

const show = (amount: string, decimals = 0) => formatAmount(amount, decimals);

function useTenantId() {
  return useAuth().session?.tenant?.id;
}

/** What a 422 says about each field, in the reader's language. */
function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || !error.data?.errors) return {};
  return Object.fromEntries(Object.entries(error.data.errors).map(([field, messages]) => [field, translateMessage(messages[0] ?? '')]));
}

function Heading({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <Title order={1} size="h3">
      {t(title)}
    </Title>
  );
}

/**
 * Excel and PDF of the report as asked: `download` saves the endpoint's file for a query (a
 * spreadsheet contract adds `excel=1`; `pdf=1` wins over it on the server).
 */
function Downloads({ download, disabled }: { download: (pdf: boolean) => Promise<unknown>; disabled: boolean }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs">
      <Button variant="light" disabled={disabled} data-testid="report-excel" onClick={() => download(false).catch(notifyError)}>
        {t('businessReports.excel')}
      </Button>
      <Button variant="light" disabled={disabled} data-testid="report-pdf" onClick={() => download(true).catch(notifyError)}>
        {t('businessReports.pdf')}
      </Button>
    </Group>
  );
}

function DayInput({
  label,
  value,
  onChange,
  error,
  testId,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  testId: string;
}) {
  return (
    <TextInput
      type="date"
      label={label}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      error={error}
      data-testid={testId}
      style={{ minWidth: 150 }}
    />
  );
}

/** From and to, both days included (the server refuses more than a year). */
function usePeriod() {
  const [from, setFrom] = useState(firstOfMonth);
  const [to, setTo] = useState(today);
  return { from, to, setFrom, setTo };
}

function PeriodPicker({ period, errors }: { period: ReturnType<typeof usePeriod>; errors: Record<string, string> }) {
  const { t } = useTranslation();
  return (
    <>
      <DayInput label={t('businessReports.from')} value={period.from} onChange={period.setFrom} error={errors.from} testId="report-from" />
      <DayInput label={t('businessReports.to')} value={period.to} onChange={period.setTo} error={errors.to} testId="report-to" />
    </>
  );
}

/** A table that scrolls sideways inside the page on a narrow screen. */
function ReportTable({
  title,
  head,
  children,
  testId,
  empty,
}: {
  title: string;
  head: ReactNode[];
  children: ReactNode;
  testId: string;
  empty: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Title order={2} size="h5">
        {title}
      </Title>
      <Table.ScrollContainer minWidth={Math.max(320, head.length * 90)}>
        <Table striped withTableBorder data-testid={testId} style={{ whiteSpace: 'nowrap' }}>
          <Table.Thead>
            <Table.Tr>
              {head.map((cell, index) => (
                <Table.Th key={index} ta={index === 0 ? 'left' : 'right'}>
                  {cell}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{children}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {empty ? (
        <Text c="dimmed" size="sm">
          {t('businessReports.none')}
        </Text>
      ) : null}
    </Stack>
  );
}

function Cells({ cells, bold, testId }: { cells: ReactNode[]; bold?: boolean; testId?: string }) {
  return (
    <Table.Tr data-testid={testId} fw={bold ? 700 : undefined}>
      {cells.map((cell, index) => (
        <Table.Td key={index} ta={index === 0 ? 'left' : 'right'}>
          {cell}
        </Table.Td>
      ))}
    </Table.Tr>
  );
}

function useReport<T>(name: string, query: Record<string, string>, read: () => Promise<T>) {
  const tenantId = useTenantId();
  return useQuery({ queryKey: ['business-report', name, tenantId, query], queryFn: read, enabled: Boolean(tenantId), retry: false });
}

function Problem({ error }: { error: unknown }) {
  if (!error) return null;
  // A refused field is said beside its input; anything else here.
  if (error instanceof ApiError && error.status === 422 && error.data?.errors) return null;
  return <Alert color="red">{errorText(error)}</Alert>;
}

// ---------------------------------------------------------------------------------------------

export function CashupReportPage() {
  const { t } = useTranslation();
  const period = usePeriod();
  const query = { from: period.from, to: period.to };
  const report = useReport('cashup', query, () => call(cashupReportEndpoint, { query }));
  const data = report.data;
  const errors = fieldErrors(report.error);
  const several = (data?.totals.length ?? 0) > 1;
  const places = (currency: string) => data?.decimals[currency] ?? 0;
  const methodHead = (first: string) => [
    first,
    ...(several ? [t('businessReports.currency')] : []),
    ...REPORT_PAYMENT_METHODS.map((method) => t(`businessReports.methods.${method}`)),
    t('businessReports.receipts'),
    t('businessReports.total'),
  ];
  type Totals = CashupReportAnswer['totals'][number];
  const methodCells = (label: string, row: Totals) => [
    label,
    ...(several ? [row.currency_code] : []),
    ...REPORT_PAYMENT_METHODS.map((method) => show(row.methods[method].amount, places(row.currency_code))),
    row.count,
    show(row.amount, places(row.currency_code)),
  ];
  return (
    <Stack>
      <Heading title="pages.businessCashup" />
      <Group align="end" wrap="wrap">
        <PeriodPicker period={period} errors={errors} />
        <Downloads
          download={(pdf) => downloadFrom(cashupReportEndpoint, { query: pdf ? { ...query, pdf: '1' } : query })}
          disabled={!data}
        />
      </Group>
      <Problem error={report.error} />
      {data ? (
        <>
          <SimpleGrid cols={{ base: 2, sm: 4 }}>
            {data.totals.map((row) => (
              <Card key={row.currency_code} withBorder padding="sm" data-testid={`cashup-total-${row.currency_code}`}>
                <Text size="xs" c="dimmed">
                  {t('businessReports.total')} {row.currency_code}
                </Text>
                <Text fw={700}>{show(row.amount, places(row.currency_code))}</Text>
                <Text size="xs">{t('businessReports.receiptCount', { count: row.count })}</Text>
              </Card>
            ))}
          </SimpleGrid>
          <ReportTable
            title={t('businessReports.byDay')}
            head={methodHead(t('businessReports.day'))}
            testId="cashup-days"
            empty={data.days.length === 0}
          >
            {data.days.map((row) => (
              <Cells key={`${row.day}-${row.currency_code}`} cells={methodCells(row.day, row)} />
            ))}
            {data.totals.map((row) => (
              <Cells key={row.currency_code} bold testId="cashup-days-total" cells={methodCells(t('businessReports.total'), row)} />
            ))}
          </ReportTable>
          <ReportTable
            title={t('businessReports.byCashier')}
            head={methodHead(t('businessReports.cashier'))}
            testId="cashup-cashiers"
            empty={data.cashiers.length === 0}
          >
            {data.cashiers.map((row) => (
              <Cells key={`${row.cashier_id}-${row.currency_code}`} cells={methodCells(row.name ?? '—', row)} />
            ))}
          </ReportTable>
          <ReportTable
            title={t('businessReports.mobileMoneyCheck')}
            head={[
              t('businessReports.date'),
              t('businessReports.receipt'),
              t('businessReports.method'),
              t('businessReports.reference'),
              t('businessReports.customer'),
              t('businessReports.cashier'),
              t('businessReports.amount'),
            ]}
            testId="cashup-mobile-money"
            empty={data.mobile_money.length === 0}
          >
            {data.mobile_money.map((row) => (
              <Cells
                key={row.receipt_id}
                cells={[
                  row.received_on,
                  row.number,
                  t(`businessReports.methods.${row.method}`),
                  row.reference ?? '',
                  row.customer_name,
                  row.cashier_name ?? '',
                  show(row.amount, places(row.currency_code)),
                ]}
              />
            ))}
          </ReportTable>
        </>
      ) : null}
    </Stack>
  );
}

export function DebtorsReportPage() {
  const { t } = useTranslation();
  const [date, setDate] = useState(today);
  const query = { date };
  const report = useReport('debtors', query, () => call(debtorsReportEndpoint, { query }));
  const data = report.data;
  const errors = fieldErrors(report.error);
  const several = (data?.totals.length ?? 0) > 1;
  const places = (currency: string) => data?.decimals[currency] ?? 0;
  type Totals = DebtorsReportAnswer['totals'][number];
  const cells = (label: string, row: Totals) => [
    label,
    ...(several ? [row.currency_code] : []),
    ...DEBTOR_AGING_BUCKETS.map((bucket) => show(row.buckets[bucket], places(row.currency_code))),
    show(row.total, places(row.currency_code)),
    show(row.advance, places(row.currency_code)),
    show(row.net, places(row.currency_code)),
  ];
  return (
    <Stack>
      <Heading title="pages.businessDebtors" />
      <Group align="end" wrap="wrap">
        <DayInput label={t('businessReports.onDay')} value={date} onChange={setDate} error={errors.date} testId="report-date" />
        <Downloads
          download={(pdf) => downloadFrom(debtorsReportEndpoint, { query: pdf ? { ...query, pdf: '1' } : query })}
          disabled={!data}
        />
      </Group>
      <Problem error={report.error} />
      {data ? (
        <>
          <ReportTable
            title={t('businessReports.debtorsByAge')}
            head={[
              t('businessReports.customer'),
              ...(several ? [t('businessReports.currency')] : []),
              ...DEBTOR_AGING_BUCKETS.map((bucket) => t(`businessReports.buckets.${bucket}`)),
              t('businessReports.owed'),
              t('businessReports.advances'),
              t('businessReports.net'),
            ]}
            testId="debtors-table"
            empty={data.customers.length === 0}
          >
            {data.customers.map((row) => (
              <Cells key={`${row.customer_id}-${row.currency_code}`} cells={cells(row.name, row)} />
            ))}
            {data.totals.map((row) => (
              <Cells key={row.currency_code} bold testId="debtors-total" cells={cells(t('businessReports.total'), row)} />
            ))}
          </ReportTable>
          <ReportTable
            title={t('businessReports.openInvoices')}
            head={[
              t('businessReports.customer'),
              t('businessReports.invoice'),
              t('businessReports.date'),
              t('businessReports.due'),
              t('businessReports.daysOverdue'),
              t('businessReports.amount'),
            ]}
            testId="debtors-invoices"
            empty={data.customers.every((row) => row.invoices.length === 0)}
          >
            {data.customers.flatMap((customer) =>
              customer.invoices.map((row) => (
                <Cells
                  key={row.invoice_id}
                  cells={[
                    customer.name,
                    row.number,
                    row.issued_on,
                    row.due_on,
                    row.days_overdue,
                    show(row.balance, places(customer.currency_code)),
                  ]}
                />
              )),
            )}
          </ReportTable>
        </>
      ) : null}
    </Stack>
  );
}

export function VatReportPage() {
  const { t } = useTranslation();
  const [month, setMonth] = useState(() => today().slice(0, 7));
  const query = { month };
  const report = useReport('vat', query, () => call(vatReportEndpoint, { query }));
  const data = report.data;
  const errors = fieldErrors(report.error);
  const places = data?.currency.decimals ?? 0;
  const figures = (row: { net: string; tax: string; gross: string }) => [
    show(row.net, places),
    show(row.tax, places),
    show(row.gross, places),
  ];
  return (
    <Stack>
      <Heading title="pages.businessVat" />
      <Group align="end" wrap="wrap">
        <TextInput
          type="month"
          label={t('businessReports.month')}
          value={month}
          onChange={(event) => setMonth(event.currentTarget.value)}
          error={errors.month}
          data-testid="report-month"
          style={{ minWidth: 150 }}
        />
        <Downloads download={(pdf) => downloadFrom(vatReportEndpoint, { query: pdf ? { ...query, pdf: '1' } : query })} disabled={!data} />
      </Group>
      <Problem error={report.error} />
      {data ? (
        <>
          <SimpleGrid cols={{ base: 1, xs: 3 }}>
            <Card withBorder padding="sm">
              <Text size="xs" c="dimmed">
                {t('businessReports.outputVat')}
              </Text>
              <Text fw={700}>{show(data.output_total.tax, places)}</Text>
            </Card>
            <Card withBorder padding="sm">
              <Text size="xs" c="dimmed">
                {t('businessReports.inputVat')}
              </Text>
              <Text fw={700}>{show(data.input_total.tax, places)}</Text>
            </Card>
            <Card withBorder padding="sm" data-testid="vat-net-payable">
              <Text size="xs" c="dimmed">
                {t('businessReports.netPayable')} ({data.currency.code})
              </Text>
              <Text fw={700}>{show(data.net_payable, places)}</Text>
            </Card>
          </SimpleGrid>
          <ReportTable
            title={t('businessReports.outputByCode')}
            head={[
              t('businessReports.taxCode'),
              t('businessReports.rate'),
              t('businessReports.creditMemos'),
              t('businessReports.debitMemos'),
              t('businessReports.netAmount'),
              t('businessReports.vat'),
              t('businessReports.gross'),
            ]}
            testId="vat-output"
            empty={data.output.length === 0}
          >
            {data.output.map((row) => (
              <Cells
                key={`${row.tax_code}-${row.tax_rate}-${row.tax_kind}`}
                cells={[
                  row.tax_code || '—',
                  `${row.tax_rate}%`,
                  show(row.credit_memos.tax, places),
                  show(row.debit_memos.tax, places),
                  ...figures(row),
                ]}
              />
            ))}
            <Cells bold testId="vat-output-total" cells={[t('businessReports.total'), '', '', '', ...figures(data.output_total)]} />
          </ReportTable>
          <ReportTable
            title={t('businessReports.inputFromVouchers')}
            head={[
              t('businessReports.paidOn'),
              t('businessReports.voucher'),
              t('businessReports.payee'),
              t('businessReports.netAmount'),
              t('businessReports.vat'),
              t('businessReports.gross'),
            ]}
            testId="vat-input"
            empty={data.input.length === 0}
          >
            {data.input.map((row) => (
              <Cells key={row.voucher_id} cells={[row.paid_on, row.number, row.payee_name, ...figures(row)]} />
            ))}
            <Cells bold cells={[t('businessReports.total'), '', '', ...figures(data.input_total)]} />
          </ReportTable>
        </>
      ) : null}
    </Stack>
  );
}

export function ProfitReportPage() {
  const { t } = useTranslation();
  const period = usePeriod();
  const query = { from: period.from, to: period.to };
  const report = useReport('profit', query, () => call(profitReportEndpoint, { query }));
  const data = report.data;
  const errors = fieldErrors(report.error);
  const places = data?.currency.decimals ?? 0;
  const line = (label: string, amount: string, bold = false, testId?: string) => (
    <Cells key={label} bold={bold} testId={testId} cells={[label, show(amount, places)]} />
  );
  return (
    <Stack>
      <Heading title="pages.businessProfit" />
      <Group align="end" wrap="wrap">
        <PeriodPicker period={period} errors={errors} />
        <Downloads
          download={(pdf) => downloadFrom(profitReportEndpoint, { query: pdf ? { ...query, pdf: '1' } : query })}
          disabled={!data}
        />
      </Group>
      <Problem error={report.error} />
      {data ? (
        <ReportTable
          title={`${t('pages.businessProfit')} (${data.currency.code})`}
          head={['', t('businessReports.amount')]}
          testId="profit-table"
          empty={false}
        >
          {line(t('businessReports.sales'), data.sales)}
          {line(t('businessReports.lessCreditMemos'), data.credit_memos)}
          {line(t('businessReports.addDebitMemos'), data.debit_memos)}
          {line(t('businessReports.netSales'), data.net_sales, true, 'profit-net-sales')}
          {line(t('businessReports.costOfSales'), data.cost_of_sales)}
          {line(t('businessReports.lessReturns'), data.returns_cost)}
          {line(t('businessReports.netCostOfSales'), data.net_cost_of_sales, true)}
          {line(t('businessReports.grossProfit'), data.gross_profit, true, 'profit-gross')}
          {data.expenses.map((row) => line(`${row.code} ${row.name}`, row.amount))}
          {line(t('businessReports.expenses'), data.expenses_total, true)}
          {line(t('businessReports.netProfit'), data.net_profit, true, 'profit-net')}
        </ReportTable>
      ) : null}
    </Stack>
  );
}
