import { Alert, Anchor, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { businessHomeEndpoint, EndpointRoute } from '@mustard/shared';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { callRoute } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { errorText } from '../../lib/notify.js';
import { PAGES } from '../../lib/pages.js';

/** The business dashboard's route (the contract's path), typed by the contract without its schemas. */
const businessHomeRoute: EndpointRoute<typeof businessHomeEndpoint> = { method: 'GET', path: '/api/home/business' };

/**
 * The shop's stock at a glance (issue 31 point 7): its value, how many products are low (a link
 * to the low-stock list) and today's movements. Called by its route, not parsed: the dashboard's
 * cold load has no room for the schema library.
 */
export function StockCard() {
  const { t } = useTranslation();
  const { session } = useAuth();
  const tenantId = session?.tenant?.id;
  const figures = useQuery({
    queryKey: ['home-business', tenantId],
    queryFn: async () => (await callRoute(businessHomeRoute, {})).data,
    enabled: Boolean(tenantId),
  });
  const data = figures.data;
  return (
    <Card withBorder data-testid="stock-widget">
      <Title order={2} size="h4" mb="sm">
        {t('businessHome.title')}
      </Title>
      {figures.error ? <Alert color="red">{errorText(figures.error)}</Alert> : null}
      {data ? (
        <Stack gap={6}>
          <Fact label={t('businessHome.stockValue')} value={grouped(data.stock_value)} testId="stock-value" />
          <Group justify="space-between">
            <Text c="dimmed" size="sm">
              {t('businessHome.lowStock')}
            </Text>
            <Anchor component={Link} to={PAGES.stockLow.path} fw={600} data-testid="low-stock-count">
              {data.low_stock.toLocaleString('en-US')}
            </Anchor>
          </Group>
          <Fact label={t('businessHome.movementsToday')} value={data.movements_today.toLocaleString('en-US')} testId="movements-today" />
        </Stack>
      ) : null}
      <Button component={Link} to={PAGES.stockOnHand.path} variant="light" mt="md">
        {t('businessHome.openStock')}
      </Button>
    </Card>
  );
}

/**
 * Exact decimal text with thousands commas, whole units (a shop's stock value in UGX): by hand,
 * not formatAmount, whose decimal library would weigh on the dashboard's cold load.
 */
function grouped(value: string): string {
  const [whole = '0', fraction = ''] = value.replace(/^-/, '').split('.');
  // Half up to whole units, on the text itself: a value is never a float here.
  const up = fraction.charAt(0) >= '5';
  const digits = up ? (BigInt(whole) + 1n).toString() : BigInt(whole).toString();
  const sign = value.startsWith('-') && digits !== '0' ? '-' : '';
  return `${sign}${digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
}

function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Group justify="space-between">
      <Text c="dimmed" size="sm">
        {label}
      </Text>
      <Text fw={600} data-testid={testId}>
        {value}
      </Text>
    </Group>
  );
}
