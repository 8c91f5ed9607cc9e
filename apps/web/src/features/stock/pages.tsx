import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Group,
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
  ADJUSTMENT_REASONS,
  businessSettingsEndpoint,
  companies,
  formatAmount,
  latestDay,
  locations,
  productGroups,
  products,
  recordStockEndpoint,
  saveBusinessSettingsEndpoint,
  stockLookupEndpoint,
  stockOnHandEndpoint,
  stockRecordsEndpoint,
  stockValuationEndpoint,
} from '@mustard/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccess } from '../../lib/access.js';
import { ApiError, call, downloadFrom } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { translateMessage } from '../../lib/messages.js';
import { errorText, notifyError } from '../../lib/notify.js';
import { allRecords } from '../../lib/resource-calls.js';
import { addScanned, type EntryLine, grandTotal, lineTotal, plain } from './lines.js';

/*
 * The stock screens a shop owner uses daily (issue 31 points 5 and 7): stock on hand, goods
 * received, adjustments and transfers on one line entry, a product's ledger, low stock and the
 * valuation. Phones first: lines are cards, not wide tables, so 360 px scrolls only down.
 * Quantities and money stay exact decimal text end to end (formatAmount shows them).
 */

/** Exact text as shown: thousands commas, the decimals it has (at most 4). */
const show = (value: string) => formatAmount(value, Math.min(4, (value.split('.')[1] ?? '').replace(/0+$/, '').length));

function useTenantId() {
  return useAuth().session?.tenant?.id;
}

function useChoices<R extends typeof locations | typeof productGroups | typeof companies | typeof products>(resource: R) {
  const tenantId = useTenantId();
  return useQuery({ queryKey: ['choices', resource.name, tenantId], queryFn: () => allRecords(resource), enabled: Boolean(tenantId) });
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
      {t('stockScreens.excel')}
    </Button>
  );
}

/** Stock on hand (`low`: the low-stock list, with reorder level and shortfall). */
function OnHand({ low }: { low: boolean }) {
  const { t } = useTranslation();
  const tenantId = useTenantId();
  const [search, setSearch] = useState('');
  const [group, setGroup] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const groups = useChoices(productGroups);
  const query = {
    search: search.trim() || undefined,
    group_id: group ?? undefined,
    low: low ? ('1' as const) : undefined,
    page,
    per_page: 25,
  };
  const onhand = useQuery({
    queryKey: ['stock-onhand', tenantId, query],
    queryFn: () => call(stockOnHandEndpoint, { query }),
    enabled: Boolean(tenantId),
  });
  const places = onhand.data?.locations ?? [];
  const pages = Math.max(1, Math.ceil((onhand.data?.totalRecords ?? 0) / 25));
  return (
    <Stack>
      <Heading title={low ? 'pages.stockLow' : 'pages.stockOnHand'} />
      <Group align="end">
        <TextInput
          label={t('stockScreens.search')}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
          style={{ flex: 1, minWidth: 160 }}
        />
        <Select
          label={t('stockScreens.group')}
          clearable
          data={(groups.data?.rows ?? []).map((row) => ({ value: row.id, label: row.name }))}
          value={group}
          onChange={(value) => {
            setGroup(value);
            setPage(1);
          }}
        />
        <ExcelButton onClick={() => downloadFrom(stockOnHandEndpoint, { query })} />
      </Group>
      {onhand.error ? <Alert color="red">{errorText(onhand.error)}</Alert> : null}
      <Table.ScrollContainer minWidth={320}>
        <Table striped data-testid="onhand-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('stockScreens.product')}</Table.Th>
              {low ? null : places.map((place) => <Table.Th key={place.id}>{place.name}</Table.Th>)}
              <Table.Th>{t('stockScreens.onHand')}</Table.Th>
              {low ? (
                <>
                  <Table.Th>{t('stockScreens.reorderLevel')}</Table.Th>
                  <Table.Th>{t('stockScreens.shortfall')}</Table.Th>
                </>
              ) : (
                <>
                  <Table.Th>{t('stockScreens.avgCost')}</Table.Th>
                  <Table.Th>{t('stockScreens.value')}</Table.Th>
                </>
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(onhand.data?.products ?? []).map((row) => (
              <Table.Tr key={row.id} data-testid={`onhand-${row.code}`}>
                <Table.Td>
                  {row.name}{' '}
                  <Text span c="dimmed" size="xs">
                    {row.code}
                  </Text>
                </Table.Td>
                {low ? null : places.map((place) => <Table.Td key={place.id}>{show(row.locations[place.id] ?? '0')}</Table.Td>)}
                <Table.Td data-testid="on-hand">{show(row.on_hand)}</Table.Td>
                {low ? (
                  <>
                    <Table.Td>{show(row.reorder_level)}</Table.Td>
                    <Table.Td data-testid="shortfall">{show(shortfall(row.reorder_level, row.on_hand))}</Table.Td>
                  </>
                ) : (
                  <>
                    <Table.Td>{show(row.avg_cost)}</Table.Td>
                    <Table.Td>{show(row.value)}</Table.Td>
                  </>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {onhand.data && onhand.data.products.length === 0 ? <Text c="dimmed">{t('stockScreens.none')}</Text> : null}
      {pages > 1 ? <Pagination value={page} onChange={setPage} total={pages} /> : null}
    </Stack>
  );
}

/** How far on hand is below the reorder level (0 when it is not). */
function shortfall(reorder: string, onHand: string): string {
  const gap = grandTotal([
    { quantity: reorder, unit_cost: '1' },
    { quantity: onHand, unit_cost: '-1' },
  ]);
  return gap.isNegative() ? '0' : gap.toString();
}

export function StockOnHandPage() {
  return <OnHand low={false} />;
}

export function LowStockPage() {
  return <OnHand low />;
}

/**
 * The line entry shared by receive, adjust and transfer. A keyboard-wedge scanner types the code
 * then Enter into the focused field: Enter looks it up, adds the line (or 1 to its line) and the
 * field stays focused and empty for the next scan.
 */
function LineEntry({
  lines,
  setLines,
  withCost,
  errors,
}: {
  lines: EntryLine[];
  setLines: (next: (lines: EntryLine[]) => EntryLine[]) => void;
  withCost: boolean;
  errors: Record<string, string[]>;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [scanError, setScanError] = useState<string | null>(null);
  const scan = useRef<HTMLInputElement>(null);
  const lookup = async () => {
    const typed = code.trim();
    if (!typed) return;
    try {
      const { product } = await call(stockLookupEndpoint, { query: { code: typed } });
      setLines((current) => addScanned(current, product));
      setCode('');
      setScanError(null);
    } catch (error) {
      setScanError(errorText(error));
    }
    scan.current?.focus();
  };
  const onKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    void lookup();
  };
  const edit = (index: number, change: Partial<EntryLine>) =>
    setLines((current) => current.map((line, at) => (at === index ? { ...line, ...change } : line)));
  const fieldError = (index: number, name: string) => errors[`lines.${index}.${name}`]?.map(translateMessage).join(' ');
  return (
    <Stack gap="sm">
      <TextInput
        ref={scan}
        label={t('stockScreens.scan')}
        description={t('stockScreens.scanHelp')}
        value={code}
        onChange={(event) => setCode(event.currentTarget.value)}
        onKeyDown={onKey}
        error={scanError ?? errors.lines?.map(translateMessage).join(' ')}
        size="md"
        data-testid="scan"
        autoComplete="off"
      />
      {lines.map((line, index) => {
        const total = lineTotal(line);
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
                aria-label={t('stockScreens.removeLine')}
                onClick={() => setLines((current) => current.filter((_, at) => at !== index))}
              >
                ×
              </ActionIcon>
            </Group>
            <Group grow align="start" mt="xs">
              <TextInput
                label={`${t('stockScreens.quantity')} (${line.unit})`}
                inputMode="decimal"
                size="md"
                value={line.quantity}
                onChange={(event) => edit(index, { quantity: event.currentTarget.value })}
                error={fieldError(index, 'quantity')}
                data-testid="quantity"
              />
              {withCost ? (
                <TextInput
                  label={t('stockScreens.unitCost')}
                  inputMode="decimal"
                  size="md"
                  value={line.unit_cost}
                  onChange={(event) => edit(index, { unit_cost: event.currentTarget.value })}
                  error={fieldError(index, 'unit_cost')}
                  data-testid="unit-cost"
                />
              ) : null}
            </Group>
            {fieldError(index, 'product_id') ? (
              <Text c="red" size="sm">
                {fieldError(index, 'product_id')}
              </Text>
            ) : null}
            {withCost ? (
              <Text size="sm" ta="right" mt={4} data-testid="line-total">
                {t('stockScreens.lineTotal')}: {total ? show(total.toString()) : '-'}
              </Text>
            ) : null}
          </Card>
        );
      })}
      {withCost && lines.length > 0 ? (
        <Text fw={700} ta="right" data-testid="grand-total">
          {t('stockScreens.grandTotal')}: {show(grandTotal(lines).toString())}
        </Text>
      ) : null}
    </Stack>
  );
}

type MovementKind = 'purchase' | 'adjustment' | 'transfer';

/** Today where the person is (their shop's day), not UTC's: at 01:00 in Kampala it is already tomorrow. */
function localDay(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** A new request id: one per action, kept across retries so a dropped connection's retry is recorded once. */
const newRequestId = () => crypto.randomUUID();

function MovementForm({ kind }: { kind: MovementKind }) {
  const { t } = useTranslation();
  const { can } = useAccess();
  const client = useQueryClient();
  const places = useChoices(locations);
  const partners = useChoices(companies);
  const requestId = useRef(newRequestId());
  const [day, setDay] = useState(localDay);
  const [location, setLocation] = useState<string | null>(null);
  const [toLocation, setToLocation] = useState<string | null>(null);
  const [partner, setPartner] = useState<string | null>(null);
  const [direction, setDirection] = useState<'in' | 'out'>('out');
  const [reason, setReason] = useState<string | null>(null);
  const [reference, setReference] = useState('');
  const [lines, setLineList] = useState<EntryLine[]>([]);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [done, setDone] = useState<string | null>(null);
  const setLines = (next: (lines: EntryLine[]) => EntryLine[]) => setLineList((current) => next(current));
  const sameLocation = kind === 'transfer' && location !== null && location === toLocation;

  const save = useMutation({
    mutationFn: () =>
      call(recordStockEndpoint, {
        body: {
          request_id: requestId.current,
          kind,
          occurred_on: day,
          location_id: location ?? '',
          ...(kind === 'transfer' ? { to_location_id: toLocation ?? '' } : {}),
          ...(kind === 'purchase' ? { partner_id: partner ?? '' } : {}),
          ...(kind === 'adjustment' ? { direction, reason: (reason ?? undefined) as (typeof ADJUSTMENT_REASONS)[number] } : {}),
          reference: reference.trim() || null,
          lines: lines.map((line) => ({
            product_id: line.product_id,
            quantity: plain(line.quantity),
            ...(kind === 'purchase' ? { unit_cost: plain(line.unit_cost) } : {}),
          })),
        },
      }),
    onSuccess: (answer) => {
      // Recorded: the next movement is a new action with an id of its own.
      requestId.current = newRequestId();
      setLineList([]);
      setReference('');
      setErrors({});
      setDone(translateMessage(answer.message));
      void client.invalidateQueries({ queryKey: ['stock-onhand'] });
      void client.invalidateQueries({ queryKey: ['stock-ledger'] });
    },
    onError: (error) => {
      setDone(null);
      if (error instanceof ApiError && error.status === 422) setErrors(error.data?.errors ?? {});
      else notifyError(error);
    },
  });

  if (!can('create', 'stock')) return <Alert color="yellow">{t('stockScreens.noAbility')}</Alert>;
  const placeOptions = (places.data?.rows ?? []).map((row) => ({ value: row.id, label: row.name }));
  const supplierOptions = (partners.data?.rows ?? [])
    .filter((row) => row.role === 'supplier' || row.role === 'both')
    .map((row) => ({ value: row.id, label: row.name }));
  const err = (name: string) => errors[name]?.map(translateMessage).join(' ');
  const title = { purchase: 'pages.stockReceive', adjustment: 'pages.stockAdjust', transfer: 'pages.stockTransfer' }[kind];

  return (
    <Stack maw={720}>
      <Heading title={title} />
      {done ? (
        <Alert color="green" data-testid="saved">
          {done}
        </Alert>
      ) : null}
      {kind === 'purchase' ? (
        <Select
          label={t('stockScreens.supplier')}
          searchable
          size="md"
          data={supplierOptions}
          value={partner}
          onChange={setPartner}
          error={err('partner_id')}
          data-testid="supplier"
        />
      ) : null}
      <Select
        label={t(kind === 'transfer' ? 'stockScreens.fromLocation' : 'stockScreens.location')}
        size="md"
        data={placeOptions}
        value={location}
        onChange={setLocation}
        error={err('location_id')}
        data-testid="location"
      />
      {kind === 'transfer' ? (
        <Select
          label={t('stockScreens.toLocation')}
          size="md"
          data={placeOptions}
          value={toLocation}
          onChange={setToLocation}
          error={sameLocation ? t('stockScreens.sameLocation') : err('to_location_id')}
          data-testid="to-location"
        />
      ) : null}
      {kind === 'adjustment' ? (
        <>
          <SegmentedControl
            fullWidth
            size="md"
            value={direction}
            onChange={(value) => setDirection(value as 'in' | 'out')}
            data={[
              { value: 'in', label: t('stockScreens.directionIn') },
              { value: 'out', label: t('stockScreens.directionOut') },
            ]}
          />
          <Select
            label={t('stockScreens.reason')}
            size="md"
            data={ADJUSTMENT_REASONS.map((value) => ({ value, label: t(`stockScreens.reasons.${value}`) }))}
            value={reason}
            onChange={setReason}
            error={err('reason')}
          />
        </>
      ) : null}
      <Group grow align="start">
        <TextInput
          type="date"
          label={t('stockScreens.date')}
          size="md"
          value={day}
          max={latestDay()}
          onChange={(event) => setDay(event.currentTarget.value)}
          error={err('occurred_on')}
        />
        <TextInput
          label={t(kind === 'purchase' ? 'stockScreens.invoiceNo' : 'stockScreens.reference')}
          size="md"
          value={reference}
          onChange={(event) => setReference(event.currentTarget.value)}
          error={err('reference')}
        />
      </Group>
      <LineEntry lines={lines} setLines={setLines} withCost={kind === 'purchase'} errors={errors} />
      <Button
        size="lg"
        onClick={() => save.mutate()}
        loading={save.isPending}
        disabled={sameLocation || lines.length === 0}
        data-testid="submit"
      >
        {t('stockScreens.save')}
      </Button>
    </Stack>
  );
}

export function ReceivePage() {
  return <MovementForm kind="purchase" />;
}

export function AdjustPage() {
  return <MovementForm kind="adjustment" />;
}

export function TransferPage() {
  return <MovementForm kind="transfer" />;
}

/** A product's ledger: each row with the balance at its location and in all after it. */
export function LedgerPage() {
  const { t } = useTranslation();
  const tenantId = useTenantId();
  const catalogue = useChoices(products);
  const [product, setProduct] = useState<string | null>(() => new URLSearchParams(window.location.search).get('product'));
  const [page, setPage] = useState(1);
  const query = { product_id: product ?? undefined, page, per_page: 50 };
  const ledger = useQuery({
    queryKey: ['stock-ledger', tenantId, query],
    queryFn: () => call(stockRecordsEndpoint, { query }),
    enabled: Boolean(tenantId && product),
  });
  const pages = Math.max(1, Math.ceil((ledger.data?.totalRecords ?? 0) / 50));
  return (
    <Stack>
      <Heading title="pages.stockLedger" />
      <Group align="end">
        <Select
          label={t('stockScreens.product')}
          searchable
          size="md"
          style={{ flex: 1, minWidth: 200 }}
          data={(catalogue.data?.rows ?? []).map((row) => ({ value: row.id, label: `${row.name} (${row.code})` }))}
          value={product}
          onChange={(value) => {
            setProduct(value);
            setPage(1);
          }}
          data-testid="ledger-product"
        />
        {product ? <ExcelButton onClick={() => downloadFrom(stockRecordsEndpoint, { query })} /> : null}
      </Group>
      {ledger.error ? <Alert color="red">{errorText(ledger.error)}</Alert> : null}
      <Table.ScrollContainer minWidth={320}>
        <Table striped data-testid="ledger-table">
          <Table.Thead>
            <Table.Tr>
              {['date', 'kind', 'location', 'quantity', 'unitCost', 'balance', 'totalBalance', 'partner', 'reference', 'user'].map(
                (name) => (
                  <Table.Th key={name}>{t(`stockScreens.${name}`)}</Table.Th>
                ),
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(ledger.data?.stockrecords ?? []).map((row) => {
              const out = row.kind.endsWith('_out') || row.kind === 'sale';
              return (
                <Table.Tr key={row.id} data-testid="ledger-row">
                  <Table.Td>{row.occurred_on}</Table.Td>
                  <Table.Td>{t(`stockScreens.kinds.${row.kind}`)}</Table.Td>
                  <Table.Td>{row.location?.name}</Table.Td>
                  <Table.Td c={out ? 'red' : 'green'}>{`${out ? '-' : '+'}${show(row.quantity.replace(/^-/, ''))}`}</Table.Td>
                  <Table.Td>{show(row.unit_cost)}</Table.Td>
                  <Table.Td>{show(row.balance)}</Table.Td>
                  <Table.Td>{show(row.total_balance)}</Table.Td>
                  <Table.Td>{row.partner?.name}</Table.Td>
                  <Table.Td>{row.reference}</Table.Td>
                  <Table.Td>{row.user?.name}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {pages > 1 ? <Pagination value={page} onChange={setPage} total={pages} /> : null}
    </Stack>
  );
}

/** The valuation by moving average cost, by location, and the business's stock setting. */
export function ValuationPage() {
  const { t } = useTranslation();
  const tenantId = useTenantId();
  const places = useChoices(locations);
  const [location, setLocation] = useState<string | null>(null);
  const query = { location_id: location ?? undefined };
  const valuation = useQuery({
    queryKey: ['stock-valuation', tenantId, query],
    queryFn: () => call(stockValuationEndpoint, { query }),
    enabled: Boolean(tenantId),
  });
  return (
    <Stack>
      <Heading title="pages.stockValuation" />
      <Group align="end">
        <Select
          label={t('stockScreens.location')}
          clearable
          data={(places.data?.rows ?? []).map((row) => ({ value: row.id, label: row.name }))}
          value={location}
          onChange={setLocation}
        />
        <ExcelButton onClick={() => downloadFrom(stockValuationEndpoint, { query })} />
      </Group>
      <Table.ScrollContainer minWidth={320}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('stockScreens.product')}</Table.Th>
              <Table.Th>{t('stockScreens.quantity')}</Table.Th>
              <Table.Th>{t('stockScreens.avgCost')}</Table.Th>
              <Table.Th>{t('stockScreens.value')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(valuation.data?.rows ?? []).map((row) => (
              <Table.Tr key={row.product_id}>
                <Table.Td>
                  {row.name}{' '}
                  <Text span c="dimmed" size="xs">
                    {row.code}
                  </Text>
                </Table.Td>
                <Table.Td>{show(row.quantity)}</Table.Td>
                <Table.Td>{show(row.avg_cost)}</Table.Td>
                <Table.Td>{show(row.value)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text fw={700} data-testid="valuation-total">
        {t('stockScreens.total')}: {show(valuation.data?.total_value ?? '0')}
      </Text>
      <StockSettings />
    </Stack>
  );
}

/** Allow negative stock: for those who manage the business's settings. */
function StockSettings() {
  const { t } = useTranslation();
  const { can } = useAccess();
  const tenantId = useTenantId();
  const client = useQueryClient();
  const allowed = can('manage', 'business-setting');
  const settings = useQuery({
    queryKey: ['business-settings', tenantId],
    queryFn: () => call(businessSettingsEndpoint, {}),
    enabled: Boolean(tenantId) && allowed,
  });
  const save = useMutation({
    mutationFn: (allow: boolean) => call(saveBusinessSettingsEndpoint, { body: { allow_negative_stock: allow } }),
    onSuccess: (answer) => client.setQueryData(['business-settings', tenantId], answer),
    onError: notifyError,
  });
  if (!allowed || !settings.data) return null;
  return (
    <Card withBorder>
      <Title order={2} size="h5" mb="xs">
        {t('stockScreens.settingsTitle')}
      </Title>
      <Switch
        label={t('stockScreens.allowNegative')}
        description={t('stockScreens.allowNegativeHelp')}
        checked={settings.data.allow_negative_stock}
        disabled={save.isPending}
        onChange={(event) => save.mutate(event.currentTarget.checked)}
        data-testid="allow-negative"
      />
    </Card>
  );
}
