import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Pagination,
  PasswordInput,
  SegmentedControl,
  Stack,
  Switch,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  type EfrisDevice,
  efrisDeviceEndpoint,
  efrisDictionaryEndpoint,
  efrisOutboxEndpoint,
  efrisProductsEndpoint,
  formatAmount,
  registerEfrisProductsEndpoint,
  retryEfrisOutboxEndpoint,
  saveEfrisDeviceEndpoint,
} from '@mustard/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccess } from '../../lib/access.js';
import { ApiError, call } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { translateMessage } from '../../lib/messages.js';
import { notifyError } from '../../lib/notify.js';

/*
 * EFRIS for a business (issue 32 point 7): the device (its private key typed once, kept sealed,
 * never shown again), the fiscal outbox with where each invoice and credit note stands and a
 * retry, and the products registered with URA. Phones first: rows are cards, 360 px scrolls down.
 */

const show = (value: string) => formatAmount(value, Math.min(3, (value.split('.')[1] ?? '').replace(/0+$/, '').length));

function useTenantId() {
  return useAuth().session?.tenant?.id;
}

function fieldError(error: unknown, field: string): string | undefined {
  if (error instanceof ApiError) {
    const messages = error.data?.errors?.[field];
    if (messages?.[0]) return translateMessage(messages[0]);
  }
  return undefined;
}

function DeviceForm({ device }: { device: EfrisDevice }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { can } = useAccess();
  const [deviceNo, setDeviceNo] = useState(device.device_no);
  const [tin, setTin] = useState(device.tin);
  const [mode, setMode] = useState<'fake' | 'live'>(device.mode);
  const [url, setUrl] = useState(device.url ?? '');
  const [enabled, setEnabled] = useState(device.configured ? device.enabled : true);
  const [privateKey, setPrivateKey] = useState('');
  const save = useMutation({
    mutationFn: () =>
      call(saveEfrisDeviceEndpoint, {
        body: { device_no: deviceNo, tin, mode, url: url || null, enabled, ...(privateKey ? { private_key: privateKey } : {}) },
      }),
    onSuccess: (saved) => {
      setPrivateKey('');
      client.setQueryData(['efris-device', saved.tin], saved);
      void client.invalidateQueries({ queryKey: ['efris-device'] });
      notifications.show({ color: 'green', message: t('efrisScreens.saved') });
    },
  });
  const editable = can('manage', 'efris');
  return (
    <Stack>
      {!device.efris_on && <Alert color="yellow">{t('efrisScreens.efrisOff')}</Alert>}
      {mode === 'fake' && <Alert color="orange">{t('efrisScreens.fakeNotice')}</Alert>}
      <TextInput
        label={t('efrisScreens.deviceNo')}
        value={deviceNo}
        onChange={(e) => setDeviceNo(e.currentTarget.value)}
        error={fieldError(save.error, 'device_no')}
        disabled={!editable}
      />
      <TextInput
        label={t('efrisScreens.tin')}
        value={tin}
        onChange={(e) => setTin(e.currentTarget.value)}
        error={fieldError(save.error, 'tin')}
        inputMode="numeric"
        disabled={!editable}
      />
      <SegmentedControl
        value={mode}
        onChange={(value) => setMode(value === 'live' ? 'live' : 'fake')}
        data={[
          { value: 'fake', label: t('efrisScreens.modeFake') },
          { value: 'live', label: t('efrisScreens.modeLive') },
        ]}
        disabled={!editable}
      />
      <TextInput
        label={t('efrisScreens.url')}
        description={t('efrisScreens.urlHelp')}
        value={url}
        onChange={(e) => setUrl(e.currentTarget.value)}
        error={fieldError(save.error, 'url')}
        disabled={!editable}
      />
      <PasswordInput
        label={t('efrisScreens.privateKey')}
        description={device.has_credentials ? t('efrisScreens.keyKept') : t('efrisScreens.keyHelp')}
        value={privateKey}
        onChange={(e) => setPrivateKey(e.currentTarget.value)}
        error={fieldError(save.error, 'private_key')}
        autoComplete="off"
        disabled={!editable}
      />
      <Switch
        label={t('efrisScreens.enabled')}
        checked={enabled}
        onChange={(e) => setEnabled(e.currentTarget.checked)}
        disabled={!editable}
      />
      {editable && (
        <Group>
          <Button onClick={() => save.mutate(undefined, { onError: notifyError })} loading={save.isPending} data-testid="efris-save">
            {t('efrisScreens.save')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function DeviceTab() {
  const tenantId = useTenantId();
  const device = useQuery({
    queryKey: ['efris-device', tenantId],
    queryFn: () => call(efrisDeviceEndpoint, {}),
    enabled: Boolean(tenantId),
  });
  if (!device.data) return null;
  return (
    <Stack>
      <DeviceForm key={device.data.updated_at ?? 'new'} device={device.data} />
      <UraCheck />
    </Stack>
  );
}

/** Asks URA (or the simulator) its time (T101) and dictionary (T115): proof the device talks to URA. */
function UraCheck() {
  const { t } = useTranslation();
  const check = useMutation({ mutationFn: () => call(efrisDictionaryEndpoint, {}), onError: notifyError });
  return (
    <Card withBorder>
      <Stack gap="xs">
        <Group>
          <Button variant="light" loading={check.isPending} onClick={() => check.mutate()}>
            {t('efrisScreens.checkUra')}
          </Button>
        </Group>
        {check.data && (
          <>
            <Text size="sm">{t('efrisScreens.uraTime', { time: check.data.ura_time ?? '—' })}</Text>
            <Text size="sm">
              {t('efrisScreens.paymentModes')}: {check.data.payment_modes.map((mode) => `${mode.value} ${mode.name}`).join(', ')}
            </Text>
          </>
        )}
      </Stack>
    </Card>
  );
}

const STATUS_COLOR: Record<string, string> = { pending: 'yellow', sending: 'blue', done: 'green', failed: 'red' };

function OutboxTab() {
  const { t } = useTranslation();
  const tenantId = useTenantId();
  const client = useQueryClient();
  const { can } = useAccess();
  const [status, setStatus] = useState<string>('all');
  const [page, setPage] = useState(1);
  const query = { page, per_page: 25, ...(status === 'all' ? {} : { status: status as 'pending' | 'sending' | 'done' | 'failed' }) };
  const outbox = useQuery({
    queryKey: ['efris-outbox', tenantId, query],
    queryFn: () => call(efrisOutboxEndpoint, { query }),
    enabled: Boolean(tenantId),
  });
  const retry = useMutation({
    mutationFn: (id: string) => call(retryEfrisOutboxEndpoint, { params: { id } }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['efris-outbox'] }),
  });
  const pages = Math.max(1, Math.ceil((outbox.data?.total ?? 0) / 25));
  return (
    <Stack>
      <SegmentedControl
        value={status}
        onChange={(value) => {
          setStatus(value);
          setPage(1);
        }}
        data={['all', 'pending', 'failed', 'done'].map((value) => ({ value, label: t(`efrisScreens.status.${value}`) }))}
      />
      {(outbox.data?.rows ?? []).length === 0 && <Text c="dimmed">{t('efrisScreens.outboxEmpty')}</Text>}
      {(outbox.data?.rows ?? []).map((row) => (
        <Card key={row.id} withBorder padding="sm" data-testid="efris-outbox-row">
          <Group justify="space-between" wrap="wrap">
            <Text fw={600}>
              {t(`efrisScreens.kind.${row.document_kind}`)} {row.reference}
            </Text>
            <Badge color={STATUS_COLOR[row.status] ?? 'gray'}>{t(`efrisScreens.status.${row.status}`)}</Badge>
          </Group>
          <Text size="sm">
            {t('efrisScreens.fiscal')}: {t(`efrisScreens.fiscalStatus.${row.fiscal_status}`, { defaultValue: row.fiscal_status })}
            {row.fiscal_fdn ? ` · ${t('efrisScreens.fdn')} ${row.fiscal_fdn}` : ''}
          </Text>
          {row.fiscal_simulated && (
            <Text size="xs" c="orange">
              {t('messages.efris.simulated')}
            </Text>
          )}
          <Text size="xs" c="dimmed">
            {t('efrisScreens.attempts', { count: row.attempts })} · {t('efrisScreens.messages', { count: row.messages })} ·{' '}
            {row.interface_code}
          </Text>
          {row.last_error && (
            <Text size="xs" c="red" style={{ overflowWrap: 'anywhere' }}>
              {row.last_error}
            </Text>
          )}
          {can('manage', 'efris') && (row.status === 'failed' || row.status === 'pending') && (
            <Group mt="xs">
              <Button
                size="xs"
                variant="light"
                onClick={() => retry.mutate(row.id, { onError: notifyError })}
                loading={retry.isPending && retry.variables === row.id}
              >
                {t('efrisScreens.retry')}
              </Button>
            </Group>
          )}
        </Card>
      ))}
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} />}
    </Stack>
  );
}

function ProductsTab() {
  const { t } = useTranslation();
  const tenantId = useTenantId();
  const client = useQueryClient();
  const { can } = useAccess();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [chosen, setChosen] = useState<string[]>([]);
  const query = { page, per_page: 50, ...(search.trim() ? { q: search.trim() } : {}) };
  const products = useQuery({
    queryKey: ['efris-products', tenantId, query],
    queryFn: () => call(efrisProductsEndpoint, { query }),
    enabled: Boolean(tenantId),
  });
  const register = useMutation({
    mutationFn: () => call(registerEfrisProductsEndpoint, { body: { product_ids: chosen, stock_in: true } }),
    onSuccess: (answer) => {
      setChosen([]);
      void client.invalidateQueries({ queryKey: ['efris-products'] });
      notifications.show({
        color: answer.failed.length > 0 ? 'yellow' : 'green',
        message: t('efrisScreens.registered', { registered: answer.registered, stocked: answer.stocked, failed: answer.failed.length }),
      });
    },
  });
  const pages = Math.max(1, Math.ceil((products.data?.total ?? 0) / 50));
  const toggle = (id: string, on: boolean) => setChosen((now) => (on ? [...now, id].slice(0, 50) : now.filter((value) => value !== id)));
  return (
    <Stack>
      <TextInput
        label={t('efrisScreens.search')}
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setPage(1);
        }}
      />
      {can('manage', 'efris') && (
        <Group>
          <Button
            disabled={chosen.length === 0}
            loading={register.isPending}
            onClick={() => register.mutate(undefined, { onError: notifyError })}
            data-testid="efris-register"
          >
            {t('efrisScreens.register', { count: chosen.length })}
          </Button>
        </Group>
      )}
      {(products.data?.rows ?? []).map((row) => (
        <Card key={row.product_id} withBorder padding="sm">
          <Group justify="space-between" wrap="nowrap" align="start">
            <Group wrap="nowrap" align="start">
              {can('manage', 'efris') && (
                <Checkbox
                  aria-label={row.name}
                  checked={chosen.includes(row.product_id)}
                  onChange={(e) => toggle(row.product_id, e.currentTarget.checked)}
                />
              )}
              <div>
                <Text fw={600}>{row.name}</Text>
                <Text size="xs" c="dimmed">
                  {row.code}
                </Text>
              </div>
            </Group>
            <Badge color={row.registered_at ? 'green' : 'gray'}>
              {row.registered_at ? t('efrisScreens.isRegistered') : t('efrisScreens.notRegistered')}
            </Badge>
          </Group>
          <Text size="sm">
            {t('efrisScreens.stockedWithUra')}: {show(row.stocked_quantity)} · {t('efrisScreens.onHand')}: {show(row.on_hand)}
          </Text>
          {row.last_error && (
            <Text size="xs" c="red">
              {row.last_error}
            </Text>
          )}
        </Card>
      ))}
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} />}
    </Stack>
  );
}

/** /business/efris: the device, the outbox and the products with URA. */
export function EfrisPage() {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={1} size="h3">
        {t('pages.efris')}
      </Title>
      <Tabs defaultValue="outbox" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="outbox">{t('efrisScreens.outbox')}</Tabs.Tab>
          <Tabs.Tab value="products">{t('efrisScreens.products')}</Tabs.Tab>
          <Tabs.Tab value="device">{t('efrisScreens.device')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="outbox" pt="md">
          <OutboxTab />
        </Tabs.Panel>
        <Tabs.Panel value="products" pt="md">
          <ProductsTab />
        </Tabs.Panel>
        <Tabs.Panel value="device" pt="md">
          <DeviceTab />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
