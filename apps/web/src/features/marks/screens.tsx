import { Button, Card, Group, NumberInput, Select, SimpleGrid, Stack, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { classOptions, deleteMarksEndpoint, marks, markTargets, markTypes, PAPERS, subjects, TERMS } from '@mustard/shared';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '../../components/PageLoading.js';
import { StreamSelect } from '../../components/StreamSelect.js';
import { ApiError, call } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { useCurrentTerm, useTermStart } from '../../lib/calendar.js';
import { translateMessage } from '../../lib/messages.js';
import { notifyError } from '../../lib/notify.js';
import { PAGES } from '../../lib/pages.js';
import { useChoices } from '../../resources/choices.js';
import { ResourceListPage } from '../../resources/ResourceListPage.js';
import { defineScreen, type FieldSpec } from '../../resources/screen.js';
import { CompetencyBanner, useLinkedCompetency } from './competency.js';

/*
 * The marks view and the delete marks page (issue 14 points 4 and 5): marks are entered in the
 * grid; here they are looked through (the common list screen) and deleted by filter.
 */

const subjectField = {
  name: 'subject_id',
  label: 'fields.subject',
  kind: 'select',
  choices: { resource: subjects, label: 'name' },
} as const;
const markTypeField = {
  name: 'marktype_id',
  label: 'marks.markType',
  kind: 'select',
  choices: { resource: markTypes, label: 'label' },
} as const;

export const marksScreen = defineScreen({
  resource: marks,
  page: PAGES.marks,
  columns: [
    { field: 'student.fullname', label: 'fields.student' },
    { field: 'form' },
    { field: 'term' },
    { field: 'year', plain: true },
    { field: 'paper' },
    { field: 'sub', label: 'fields.subject' },
    { field: 'user', label: 'fields.user' },
    { field: 'marktype', label: 'marks.markType' },
    { field: 'mark', label: 'fields.mark' },
  ],
  // A phone's card shows whose mark, which mark type and the mark itself first, then where it belongs.
  cardColumns: ['student.fullname', 'marktype', 'mark', 'form', 'term', 'sub'],
  fields: [],
  filters: [
    { name: 'form', kind: 'select', choices: 'classes' },
    { name: 'stream', kind: 'text' },
    { name: 'term', kind: 'select', choices: 'terms' },
    { name: 'year', kind: 'year' },
    subjectField,
    { name: 'paper', kind: 'select', choices: 'papers' },
    markTypeField,
  ] satisfies ReadonlyArray<FieldSpec<'form' | 'stream' | 'term' | 'year' | 'subject_id' | 'paper' | 'marktype_id'>>,
  search: false,
  editable: false,
  deletable: false,
  addActions: [{ label: 'marks.uploadMarks', to: PAGES.createMarks.path }],
});

/**
 * The marks view; with `?topic_id=` a competency's scores (spec §2 "Marks view"): its class,
 * term and subject fill the filter, and only the marks carrying its id are listed.
 */
export function MarksPage() {
  const linked = useLinkedCompetency();
  const topic = linked.topic;
  if (linked.waiting) return <PageLoading />;
  const screen = topic
    ? { ...marksScreen, initialFilters: () => ({ topic_id: topic.id, form: topic.form, term: topic.term, subject_id: topic.subject_id }) }
    : marksScreen;
  return (
    <Stack>
      <CompetencyBanner topic={topic} failed={linked.failed} page={PAGES.marks} />
      <ResourceListPage key={topic?.id ?? 'all'} screen={screen} />
    </Stack>
  );
}

/** The mark targets list (`/school/marktargets`, manage on mark); targets are set a class at a time on the create page. */
export const markTargetsScreen = defineScreen({
  resource: markTargets,
  page: PAGES.markTargets,
  columns: [
    { field: 'student.fullname', label: 'fields.student' },
    { field: 'form' },
    { field: 'term' },
    { field: 'year', plain: true },
    { field: 'subject', label: 'fields.subject' },
    { field: 'target', label: 'classValues.target' },
  ],
  fields: [],
  filters: [
    { name: 'form', kind: 'select', choices: 'classes' },
    { name: 'stream', kind: 'text' },
    { name: 'term', kind: 'select', choices: 'terms' },
    { name: 'year', kind: 'year' },
    subjectField,
  ] satisfies ReadonlyArray<FieldSpec<'form' | 'stream' | 'term' | 'year' | 'subject_id'>>,
  search: false,
  editable: false,
  deletable: false,
  loadingText: 'classValues.loadingTargets',
  addActions: [{ label: 'marks.uploadMarks', to: PAGES.createMarkTargets.path }],
});

export function MarkTargetsPage() {
  return <ResourceListPage screen={markTargetsScreen} />;
}

/**
 * Delete marks (`/marks/delete`, manage on mark): the filter names the marks, DELETE asks
 * "Do you really want to delete the marks", and the server deletes them in one transaction,
 * keeping each value in the history; the answer counts them. With `?topic_id=` it deletes a
 * competency's scores: its class, term and subject fill the filter.
 */
export function DeleteMarksPage() {
  const { t } = useTranslation();
  const { session } = useAuth();
  const current = useCurrentTerm();
  const subjectChoices = useChoices(subjectField.choices);
  const typeChoices = useChoices(markTypeField.choices);
  const [filter, setFilter] = useState({
    form: null as string | null,
    stream: '',
    term: current.term as string,
    year: current.year,
    paper: null as string | null,
    subject_id: null as string | null,
    marktype_id: null as string | null,
    topic_id: null as string | null,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (name: keyof typeof filter, value: unknown) => setFilter((now) => ({ ...now, [name]: value }));
  // The term and year start at the school's own current term once its calendar is known (a competency's term is its own).
  const { chosen } = useTermStart((start) => setFilter((now) => (now.topic_id ? { ...now, year: start.year } : { ...now, ...start })));
  const linked = useLinkedCompetency();
  const competency = linked.topic;
  useEffect(() => {
    if (competency)
      setFilter((now) => ({
        ...now,
        form: competency.form,
        term: competency.term,
        subject_id: competency.subject_id,
        topic_id: competency.id,
      }));
    else setFilter((now) => (now.topic_id ? { ...now, topic_id: null } : now));
  }, [competency]);

  const remove = async () => {
    try {
      const body = {
        ...filter,
        form: filter.form ?? '',
        term: filter.term as (typeof TERMS)[number],
        paper: (filter.paper ?? undefined) as (typeof PAPERS)[number] | undefined,
        subject_id: filter.subject_id ?? undefined,
        marktype_id: filter.marktype_id ?? undefined,
        topic_id: filter.topic_id ?? undefined,
      };
      const answer = await call(deleteMarksEndpoint, { body });
      setErrors({});
      // A delete that matched nothing says so, rather than "0 deleted successfully".
      notifications.show(
        answer.records === 0
          ? { color: 'yellow', message: t('marks.deletedNone') }
          : { color: 'green', message: t('marks.deletedSome', { count: answer.records }) },
      );
    } catch (error) {
      if (error instanceof ApiError && error.status === 422 && error.data?.errors)
        setErrors(Object.fromEntries(Object.entries(error.data.errors).map(([name, texts]) => [name, translateMessage(texts[0] ?? '')])));
      else notifyError(error);
    }
  };

  const confirm = (event: FormEvent) => {
    event.preventDefault();
    modals.openConfirmModal({
      title: t('pages.deleteMarks'),
      children: t('marks.deleteConfirm'),
      labels: { confirm: t('marks.delete'), cancel: t('list.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => void remove(),
    });
  };

  return (
    <Card withBorder padding="md">
      <Stack>
        <Title order={1} size="h3">
          {t(PAGES.deleteMarks.title)}
        </Title>
        <CompetencyBanner topic={competency} failed={linked.failed} page={PAGES.deleteMarks} />
        <form onSubmit={confirm} aria-label={t('marks.filter')} noValidate>
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 3, md: 4 }}>
              <Select
                label={t('fields.form')}
                data={classOptions(session?.tenant ?? {})}
                value={filter.form}
                onChange={(value) => set('form', value)}
                error={errors.form ?? errors.topic_id}
                disabled={Boolean(competency)}
                withAsterisk
                searchable
              />
              <StreamSelect form={filter.form} value={filter.stream} onChange={(stream) => set('stream', stream)} />
              <Select
                label={t('fields.term')}
                data={[...TERMS]}
                value={filter.term}
                onChange={(value) => {
                  if (!value) return;
                  chosen();
                  set('term', value);
                }}
                allowDeselect={false}
              />
              <NumberInput
                label={t('fields.year')}
                value={filter.year}
                onChange={(value) => {
                  chosen();
                  set('year', Number(value));
                }}
                error={errors.year}
                allowDecimal={false}
              />
              <Select
                label={t('fields.paper')}
                data={[...PAPERS]}
                value={filter.paper}
                onChange={(value) => set('paper', value)}
                clearable
              />
              <Select
                label={t('fields.subject')}
                data={subjectChoices}
                value={filter.subject_id}
                onChange={(value) => set('subject_id', value)}
                disabled={Boolean(competency)}
                clearable
                searchable
              />
              <Select
                label={t('marks.markType')}
                data={typeChoices}
                value={filter.marktype_id}
                onChange={(value) => set('marktype_id', value)}
                clearable
              />
            </SimpleGrid>
            <Group justify="flex-end">
              <Button type="submit" color="red">
                {t('marks.delete')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Card>
  );
}
