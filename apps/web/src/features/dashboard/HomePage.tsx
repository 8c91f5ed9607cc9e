import { Alert, Anchor, Breadcrumbs, Button, Card, Grid, Group, List, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { type HomeSetup, homeRoute, homeSetupRoute } from '@mustard/shared';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BarChart } from '../../components/BarChart.js';
import { useAccess } from '../../lib/access.js';
import { callRoute } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { isSchool } from '../../lib/navigation.js';
import { errorText } from '../../lib/notify.js';
import { PAGES } from '../../lib/pages.js';

/**
 * The shop's stock card, in a chunk of its own: a school's cold load of the dashboard (its 250 KB
 * budget) does not carry a business's card.
 */
const StockCard = lazy(async () => ({ default: (await import('./StockCard.js')).StockCard }));

/** Home (spec §2 "Home dashboard"): learners per class as a bar chart, and the school at a glance. */
export function HomePage() {
  const { t } = useTranslation();
  const { session } = useAuth();
  const tenant = session?.tenant;
  const home = useQuery({
    queryKey: ['home', tenant?.id],
    // By the contract's route (callRoute), the answer typed by the contract but not parsed:
    // parsing would bring the schema library (25 KB gzipped) into the dashboard's cold load,
    // over its 250 KB budget. The server answers through the same contract.
    queryFn: async () => (await callRoute(homeRoute, {})).data,
    enabled: Boolean(tenant),
  });

  const counts = Object.entries(home.data?.students ?? {});
  // The spec shows the series in reverse order of the answer.
  const data = counts.map(([label, value]) => ({ label, value })).reverse();
  const learners = counts.reduce((sum, [, count]) => sum + count, 0);

  return (
    <Stack>
      <div>
        <Breadcrumbs>
          <Text size="sm">{t('home.breadcrumb')}</Text>
          <Text size="sm">{t('home.title')}</Text>
        </Breadcrumbs>
        <Title order={1} size="h3">
          {t('home.title')}
        </Title>
      </div>
      {!tenant ? (
        <Alert color="gray" data-testid="no-school">
          <Text size="sm">{t('home.noSchool')}</Text>
        </Alert>
      ) : home.isError ? (
        <Alert color="red" role="alert" data-testid="home-error">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorText(home.error)}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void home.refetch()}>
              {t('app.retry')}
            </Button>
          </Stack>
        </Alert>
      ) : home.isPending ? (
        <Text>{t('home.pleaseWait')}</Text>
      ) : !isSchool(tenant) ? (
        <BusinessHome name={tenant.name} category={tenant.category} locations={home.data.locations} />
      ) : (
        <Grid>
          <Grid.Col span={12}>
            <SetupChecklist tenantId={tenant.id} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 8 }}>
            <Card withBorder>
              <Title order={2} size="h4" mb="sm">
                {t('home.students')}
              </Title>
              <BarChart height={440} data={data} seriesLabel={t('home.series')} testId="students-chart" />
            </Card>
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 4 }}>
            <Card withBorder data-testid="school-widget">
              <Title order={2} size="h4" mb="sm">
                {tenant?.name ?? t('home.school')}
              </Title>
              <Stack gap={6}>
                <Fact label={t('home.category')} value={tenant?.category ?? ''} />
                <Fact label={t('home.schoolType')} value={tenant ? t(`home.${tenant.schooltype}`) : ''} />
                {/* Classes that have learners now, not every class the school could have (after a
                    promotion empties S1 until the new intake). */}
                <Fact label={t('home.classesInUse')} value={String(counts.length)} testId="classes-in-use" />
                <Fact label={t('home.learners')} value={learners.toLocaleString('en-US')} testId="learner-count" />
              </Stack>
            </Card>
          </Grid.Col>
        </Grid>
      )}
    </Stack>
  );
}

/** The steps of a new school's setup, in the order they are best done, each with its page. */
const SETUP_STEPS: Array<{ key: keyof HomeSetup; to: string }> = [
  { key: 'subjects', to: PAGES.subjects.path },
  { key: 'mark_types', to: PAGES.markTypes.path },
  { key: 'grade_sets', to: PAGES.grades.path },
  { key: 'learners', to: PAGES.students.path },
  { key: 'teachers', to: PAGES.subjectTeachers.path },
];

/**
 * A new school's setup checklist (issue 24 point 6): what a first term's marks and cards need,
 * each linked to its page and ticked when done; gone once everything is. Shown to those who set
 * the school up (manage its settings).
 */
function SetupChecklist({ tenantId }: { tenantId: string }) {
  const { t } = useTranslation();
  const mayManage = useAccess().can('manage', 'setting');
  const setup = useQuery({
    queryKey: ['home', 'setup', tenantId],
    // As the dashboard's counts: no schema library on the cold load.
    queryFn: async () => (await callRoute(homeSetupRoute, {})).data,
    enabled: mayManage,
  });
  if (!mayManage || !setup.data) return null;
  const done = SETUP_STEPS.filter((step) => setup.data[step.key]).length;
  if (done === SETUP_STEPS.length) return null;
  return (
    <Card withBorder data-testid="setup-checklist">
      <Title order={2} size="h4">
        {t('home.setup.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('home.setup.intro', { done, total: SETUP_STEPS.length })}
      </Text>
      <List spacing="xs" center>
        {SETUP_STEPS.map((step) => {
          const isDone = setup.data[step.key];
          return (
            <List.Item
              key={step.key}
              data-step={step.key}
              data-done={isDone ? 'true' : 'false'}
              icon={
                <ThemeIcon size={22} radius="xl" color={isDone ? 'teal' : 'gray'} variant={isDone ? 'filled' : 'light'} aria-hidden>
                  {isDone ? '✓' : ''}
                </ThemeIcon>
              }
            >
              <Anchor component={Link} to={step.to} td={isDone ? 'line-through' : undefined}>
                {t(`home.setup.${step.key}`)}
              </Anchor>
              <Text span size="sm" c="dimmed">
                {' '}
                {isDone ? t('home.setup.done') : t(`home.setup.${step.key}Hint`)}
              </Text>
            </List.Item>
          );
        })}
      </List>
    </Card>
  );
}

/** A business's dashboard: what it keeps in Mustard today, and what is on its way. */
function BusinessHome({ name, category, locations }: { name: string; category: string; locations: number }) {
  const { t } = useTranslation();
  return (
    <Grid>
      <Grid.Col span={{ base: 12, md: 6 }}>
        <Card withBorder data-testid="business-widget">
          <Title order={2} size="h4" mb="sm">
            {name}
          </Title>
          <Stack gap={6}>
            <Fact label={t('home.category')} value={t(`options.${category}`, { defaultValue: category })} />
            <Fact label={t('home.stockLocations')} value={locations.toLocaleString('en-US')} testId="location-count" />
          </Stack>
          <Button component={Link} to="/inventory/stock/locations" variant="light" mt="md">
            {t('home.manageLocations')}
          </Button>
        </Card>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 6 }}>
        <Suspense fallback={null}>
          <StockCard />
        </Suspense>
      </Grid.Col>
    </Grid>
  );
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
