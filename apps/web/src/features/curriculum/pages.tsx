import { Button, Card, Group, Menu, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { projects, RESULT_MESSAGES, type ResourceDefinition, subjects, topics, topicWithScoresEndpoint } from '@mustard/shared';
import { IconDots } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { PageLoading } from '../../components/PageLoading.js';
import { RecordUnavailable } from '../../components/RecordUnavailable.js';
import { useAccess } from '../../lib/access.js';
import { ApiError, call } from '../../lib/api.js';
import { calendarDefaults, useCurrentTerm } from '../../lib/calendar.js';
import { translateMessage } from '../../lib/messages.js';
import { PAGES, pathTo, type RouteDefinition } from '../../lib/pages.js';
import { type FormBody, type ResourceCalls, resourceCalls } from '../../lib/resource-calls.js';
import { ResourceForm } from '../../resources/ResourceForm.js';
import { ResourceListPage } from '../../resources/ResourceListPage.js';
import { defineScreen, type FieldSpec, type ScreenDefinition } from '../../resources/screen.js';
import { rowProblems } from '../students/UploadStudents.js';

/*
 * The new curriculum's competencies and projects (issue 26 points 2 and 4; spec §2
 * "Competencies and projects"): each a list on the one mechanism, a page of its own to add or
 * change one (`?id=`), and a detail page with its menu. Writing is for those who manage marks.
 */

type Topic = z.output<typeof topics.record>;
type Project = z.output<typeof projects.record>;

const classField: FieldSpec<'form'> = { name: 'form', kind: 'select', choices: 'classes' };
const termField: FieldSpec<'term'> = { name: 'term', kind: 'select', choices: 'terms' };
const yearField: FieldSpec<'year'> = { name: 'year', kind: 'year' };
const subjectField: FieldSpec<'subject_id'> = {
  name: 'subject_id',
  kind: 'select',
  choices: { resource: subjects, label: 'name' },
};

const topicLinks = (id: string) => ({
  recordMarks: `${PAGES.createMarks.path}?topic_id=${id}`,
  deleteMarks: `${PAGES.deleteMarks.path}?topic_id=${id}`,
  viewMarks: `${PAGES.marks.path}?topic_id=${id}`,
});

export const competenciesScreen = defineScreen({
  resource: topics,
  page: PAGES.competencies,
  columns: [{ field: 'subject.name' }, { field: 'form' }, { field: 'term' }, { field: 'title' }],
  // A phone's card leads with the competency's title: the subject, class and term alone read the same on every card.
  cardColumns: ['title', 'subject.name', 'form', 'term'],
  fields: [classField, termField, subjectField, { name: 'title', kind: 'text' }, { name: 'remarks', kind: 'textarea' }],
  filters: [classField, termField, subjectField],
  addActions: [{ label: 'curriculum.newCompetency', to: PAGES.newCompetency.path }],
  // Changed on its own page (Details, then Edit Competency), as the spec's menu has it.
  editable: false,
  rowActions: (row) => [
    { label: 'curriculum.recordMarks', needs: 'create', to: () => topicLinks(row.id).recordMarks },
    { label: 'curriculum.deleteMarks', needs: 'delete', to: () => topicLinks(row.id).deleteMarks },
    { label: 'curriculum.details', to: () => pathTo(PAGES.competencyDetail, { id: row.id }) },
  ],
});

export const projectsScreen = defineScreen({
  resource: projects,
  page: PAGES.projects,
  columns: [{ field: 'title' }, { field: 'subject.name' }, { field: 'form' }, { field: 'term' }, { field: 'year', plain: true }],
  cardColumns: ['title', 'subject.name', 'form', 'term'],
  fields: [classField, subjectField, termField, yearField, { name: 'title', kind: 'text' }, { name: 'max_score', kind: 'number' }],
  filters: [classField, termField, subjectField, yearField],
  defaults: { max_score: 10 },
  addActions: [{ label: 'curriculum.newProject', to: PAGES.newProject.path }],
  editable: false,
  rowLink: (row) => pathTo(PAGES.projectDetail, { id: row.id }),
});

export function CompetenciesPage() {
  return <ResourceListPage screen={competenciesScreen} />;
}

export function ProjectsPage() {
  return <ResourceListPage screen={projectsScreen} />;
}

/** One record of a resource by the page's id, as a query the detail and form pages share. */
function useRecord<Row>(resource: ResourceDefinition, id: string | null) {
  return useQuery({
    queryKey: ['record', resource.name, id],
    queryFn: () => resourceCalls(resource).read(id ?? '') as Promise<Row>,
    enabled: Boolean(id),
    meta: { ownsNotFound: true },
  });
}

/**
 * A record's own form page (`?id=` to change one): the screen's form, starting at the current
 * term for a new record; saving opens the record's detail page.
 */
function RecordFormPage<Row extends { id: string }>({
  screen,
  title,
  list,
  detail,
  notFound,
}: {
  screen: ScreenDefinition<Row>;
  title: string;
  list: RouteDefinition;
  detail: RouteDefinition;
  notFound: { text: string; back: string };
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const id = params.get('id');
  const current = useCurrentTerm();
  const record = useRecord<Row>(screen.resource, id);
  if (record.isError)
    return (
      <RecordUnavailable
        error={record.error}
        notFoundText={notFound.text}
        back={{ to: list.path, label: notFound.back }}
        onRetry={() => void record.refetch()}
      />
    );
  if ((id && !record.data) || (!id && current.pending)) return <PageLoading />;
  return (
    <Card withBorder padding="md" data-testid="record-form-page">
      <Stack>
        <Title order={1} size="h4">
          {t(title)}
        </Title>
        <ResourceForm
          key={id ?? 'new'}
          screen={screen}
          record={id ? (record.data ?? null) : null}
          defaults={calendarDefaults(screen.fields, current)}
          onSaved={async (answer) => {
            const saved = ('updated' in answer ? answer.updated : answer.created) as { id: string };
            notifications.show({
              color: 'green',
              message: translateMessage('updated' in answer ? RESULT_MESSAGES.updated : RESULT_MESSAGES.created),
            });
            await queryClient.invalidateQueries({ queryKey: ['resource', screen.resource.name] });
            queryClient.removeQueries({ queryKey: ['record', screen.resource.name, saved.id] });
            navigate(pathTo(detail, { id: saved.id }));
          }}
          onCancel={() => navigate(id ? pathTo(detail, { id }) : list.path)}
        />
      </Stack>
    </Card>
  );
}

/** A new competency's optional filled scores sheet: a plain marks sheet of its class and subject from Create Marks. */
const scoresSheetField: FieldSpec<'file'> = {
  name: 'file',
  label: 'curriculum.scoresSheet',
  description: 'curriculum.scoresSheetHint',
  kind: 'sheet',
};

/**
 * The new competency's form, with the optional scores sheet (issue 26 point 2): with a sheet,
 * the competency and its scores are saved in one call (nothing kept if a row is refused, each
 * refused row named under the file); without one, the competency alone, as the list adds it.
 */
function useNewCompetencyScreen(): ScreenDefinition<Topic> {
  const { t } = useTranslation();
  return useMemo(() => {
    const plain = resourceCalls(topics) as Required<ResourceCalls<Topic>>;
    const create = async (body: FormBody) => {
      const data = body as FormData;
      if (!(data.get('file') instanceof File)) return plain.create(Object.fromEntries(data.entries()) as FormBody);
      try {
        const answer = await call(topicWithScoresEndpoint, { body: data });
        notifications.show({
          color: 'green',
          message:
            answer.saved === 0 ? t('marks.sheetUnchanged') : t('marks.sheetSaved', { saved: answer.saved, unchanged: answer.unchanged }),
        });
        return answer.created;
      } catch (error) {
        // The sheet's refused rows ("12.AOI 1"), every one, under the file: the competency was not kept either.
        const byRow = error instanceof ApiError && Object.keys(error.data?.errors ?? {}).some((key) => /^\d+\./.test(key));
        if (byRow) throw new ApiError(422, error.message, { ...error.data, errors: { file: [rowProblems(error, t).join(' · ')] } });
        throw error;
      }
    };
    return {
      ...competenciesScreen,
      fields: [...competenciesScreen.fields, scoresSheetField],
      calls: { ...plain, create },
    } as ScreenDefinition<Topic>;
  }, [t]);
}

export function CompetencyFormPage() {
  const [params] = useSearchParams();
  const withSheet = useNewCompetencyScreen();
  return (
    <RecordFormPage
      screen={params.get('id') ? competenciesScreen : withSheet}
      title={params.get('id') ? 'curriculum.editCompetency' : 'curriculum.newCompetency'}
      list={PAGES.competencies}
      detail={PAGES.competencyDetail}
      notFound={{ text: 'curriculum.competencyNotFound', back: 'curriculum.backToCompetencies' }}
    />
  );
}

export function ProjectFormPage() {
  const [params] = useSearchParams();
  return (
    <RecordFormPage
      screen={projectsScreen}
      title={params.get('id') ? 'curriculum.editProject' : 'curriculum.newProject'}
      list={PAGES.projects}
      detail={PAGES.projectDetail}
      notFound={{ text: 'curriculum.projectNotFound', back: 'curriculum.backToProjects' }}
    />
  );
}

function Fact({ label, value, testId }: { label: string; value: ReactNode; testId: string }) {
  return (
    <Stack gap={2} data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text>{value === null || value === undefined || value === '' ? '—' : value}</Text>
    </Stack>
  );
}

/** A record's detail page: its title, its facts, and a menu of what may be done with it. */
function RecordDetail<Row extends { id: string; title: string }>({
  resource,
  list,
  notFound,
  facts,
  actions,
}: {
  resource: ResourceDefinition;
  list: RouteDefinition;
  notFound: { text: string; back: string };
  facts(row: Row): ReadonlyArray<[field: string, value: ReactNode]>;
  actions(row: Row): ReadonlyArray<{ label: string; to: string; allowed: boolean }>;
}) {
  const { t } = useTranslation();
  const { id } = useParams();
  const record = useRecord<Row>(resource, id ?? '');
  if (record.isError)
    return (
      <RecordUnavailable
        error={record.error}
        notFoundText={notFound.text}
        back={{ to: list.path, label: notFound.back }}
        onRetry={() => void record.refetch()}
      />
    );
  if (!record.data) return <PageLoading />;
  const row = record.data;
  const allowed = actions(row).filter((action) => action.allowed);
  return (
    <Card withBorder padding="md" data-testid="record-detail">
      <Stack>
        <Group justify="space-between" align="flex-start">
          <Title order={1} size="h3">
            {row.title}
          </Title>
          {allowed.length > 0 && (
            <Menu position="bottom-end">
              <Menu.Target>
                <Button variant="light" rightSection={<IconDots size={16} />}>
                  {t('list.actions')}
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {allowed.map((action) => (
                  <Menu.Item key={action.label} component={Link} to={action.to}>
                    {t(action.label)}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          )}
        </Group>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
          {facts(row).map(([field, value]) => (
            <Fact key={field} label={t(`fields.${field}`)} value={value} testId={`fact-${field}`} />
          ))}
        </SimpleGrid>
        <Group>
          <Button variant="default" component={Link} to={list.path}>
            {t(notFound.back)}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

export function CompetencyDetailPage() {
  const { can } = useAccess();
  return (
    <RecordDetail<Topic>
      resource={topics}
      list={PAGES.competencies}
      notFound={{ text: 'curriculum.competencyNotFound', back: 'curriculum.backToCompetencies' }}
      facts={(row) => [
        ['form', row.form],
        ['term', row.term],
        ['subject_id', row.subject?.name],
        ['title', row.title],
        ['remarks', row.remarks],
      ]}
      actions={(row) => [
        { label: 'curriculum.editCompetency', to: `${PAGES.newCompetency.path}?id=${row.id}`, allowed: can('manage', topics.subject) },
        { label: 'curriculum.recordMarks', to: topicLinks(row.id).recordMarks, allowed: can('create', 'mark') },
        { label: 'curriculum.viewMarks', to: topicLinks(row.id).viewMarks, allowed: true },
      ]}
    />
  );
}

export function ProjectDetailPage() {
  const { can } = useAccess();
  return (
    <RecordDetail<Project>
      resource={projects}
      list={PAGES.projects}
      notFound={{ text: 'curriculum.projectNotFound', back: 'curriculum.backToProjects' }}
      facts={(row) => [
        ['form', row.form],
        ['term', row.term],
        ['subject_id', row.subject?.name],
        ['title', row.title],
        ['year', row.year],
        ['max_score', row.max_score],
      ]}
      actions={(row) => [
        { label: 'curriculum.editProject', to: `${PAGES.newProject.path}?id=${row.id}`, allowed: can('manage', projects.subject) },
        { label: 'curriculum.recordScores', to: `${PAGES.projectScores.path}?project_id=${row.id}`, allowed: can('create', 'mark') },
      ]}
    />
  );
}
