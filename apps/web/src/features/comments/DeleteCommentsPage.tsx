import { Button, Card, Group, Modal, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { classOptions, deleteRemarksEndpoint, RemarksDeleteSchema, remarkTypes, students, type Term } from '@mustard/shared';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StreamSelect } from '../../components/StreamSelect.js';
import { api, call, withQuery } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { useCurrentTerm, useTermStart } from '../../lib/calendar.js';
import { fieldErrorsOfIssues } from '../../lib/forms.js';
import { translateMessage } from '../../lib/messages.js';
import { errorText } from '../../lib/notify.js';
import { PAGES } from '../../lib/pages.js';
import { useChoices } from '../../resources/choices.js';
import { fieldErrorsOf, TermYearFields } from '../reports/report-filter.js';

/*
 * Delete report comments (`/comments/delete`, manage on remark; issue 16 point 5): a class's
 * remarks of one remark type (and its sub categories), of one learner or of all. Next asks
 * first, because it cannot be undone on the screen; the server deletes in one transaction and
 * keeps every deleted text in the comments' history.
 */

const REMARK_TYPE_CHOICES = { resource: remarkTypes, label: 'label' } as const;
/** A class's learners fit one answer (a class has tens of learners, a school at most a few thousand). */
const CLASS_LIST_SIZE = 1000;

interface DeleteFilter {
  form: string | null;
  stream: string;
  term: Term;
  year: number;
  remarktype_id: string | null;
  student_id: string | null;
}

export function DeleteCommentsPage() {
  const { t } = useTranslation();
  const { session } = useAuth();
  const current = useCurrentTerm();
  const [filter, setFilter] = useState<DeleteFilter>({
    form: null,
    stream: '',
    term: current.term,
    year: current.year,
    remarktype_id: null,
    student_id: null,
  });
  const { chosen } = useTermStart((start) => setFilter((now) => ({ ...now, ...start })));
  const change = (fields: Partial<DeleteFilter>) => setFilter((now) => ({ ...now, ...fields }));
  const remarkTypeChoices = useChoices(REMARK_TYPE_CHOICES);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [asking, setAsking] = useState<ReturnType<typeof RemarksDeleteSchema.parse> | null>(null);
  const [busy, setBusy] = useState(false);

  // The learners of the chosen class and stream, to delete one learner's remarks only.
  const learners = useQuery({
    queryKey: ['delete-comments-learners', session?.tenant?.id, filter.form, filter.stream.trim()],
    queryFn: async () =>
      (
        await api.get<{ students: Array<{ id: string; fullname: string; studentid: string }> }>(
          withQuery(students.path, { form: filter.form, stream: filter.stream.trim() || undefined, per_page: CLASS_LIST_SIZE }),
        )
      ).data.students,
    enabled: filter.form !== null,
    staleTime: 30_000,
  });

  const next = (event: FormEvent) => {
    event.preventDefault();
    const parsed = RemarksDeleteSchema.safeParse({
      form: filter.form ?? '',
      stream: filter.stream,
      term: filter.term,
      year: filter.year,
      remarktype_id: filter.remarktype_id ?? '',
      student_id: filter.student_id ?? undefined,
    });
    if (!parsed.success) {
      setErrors(fieldErrorsOfIssues(parsed.error));
      return;
    }
    setErrors({});
    setAsking(parsed.data);
  };

  const proceed = async () => {
    if (!asking) return;
    setBusy(true);
    try {
      const answer = await call(deleteRemarksEndpoint, { body: asking });
      // A delete that matched nothing says so.
      notifications.show(
        answer.records === 0
          ? { color: 'yellow', message: t('deleteComments.none') }
          : { color: 'green', message: `${translateMessage(answer.message)} ${t('deleteComments.count', { count: answer.records })}` },
      );
    } catch (error) {
      const named = fieldErrorsOf(error);
      if (named) setErrors(named);
      notifications.show({ color: 'red', message: errorText(error) });
    } finally {
      setBusy(false);
      setAsking(null);
    }
  };

  return (
    <Card withBorder padding="md">
      <Stack>
        <Title order={1} size="h3">
          {t(PAGES.deleteComments.title)}
        </Title>
        <form onSubmit={next} aria-label={t('deleteComments.filter')} noValidate>
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <Select
                label={t('fields.form')}
                data={classOptions(session?.tenant ?? {})}
                value={filter.form}
                onChange={(value) => change({ form: value, student_id: null })}
                error={errors.form}
                searchable
                withAsterisk
              />
              <StreamSelect
                form={filter.form}
                value={filter.stream}
                onChange={(stream) => change({ stream, student_id: null })}
                error={errors.stream}
              />
              <Select
                label={t('deleteComments.learner')}
                data={(learners.data ?? []).map((learner) => ({ value: learner.id, label: `${learner.fullname} (${learner.studentid})` }))}
                value={filter.student_id}
                onChange={(value) => change({ student_id: value })}
                error={errors.student_id}
                placeholder={filter.form ? t('deleteComments.allLearners') : t('deleteComments.chooseClassFirst')}
                disabled={filter.form === null}
                searchable
                clearable
              />
              <TermYearFields filter={filter} change={change} chosen={chosen} errors={errors} />
              <Select
                label={t('reportComments.remarkType')}
                data={remarkTypeChoices}
                value={filter.remarktype_id}
                onChange={(value) => change({ remarktype_id: value })}
                error={errors.remarktype_id}
                withAsterisk
              />
            </SimpleGrid>
            <Group justify="flex-end">
              <Button type="submit" color="red" loading={busy}>
                {t('marks.next')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
      <Modal
        opened={asking !== null}
        onClose={() => setAsking(null)}
        title={t('deleteComments.confirmTitle')}
        closeButtonProps={{ 'aria-label': t('list.close') }}
      >
        <Stack>
          <Text>{t('deleteComments.confirm')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setAsking(null)}>
              {t('list.cancel')}
            </Button>
            <Button color="red" onClick={() => void proceed()} loading={busy}>
              {t('list.yes')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
