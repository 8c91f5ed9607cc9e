import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { deleteRemarksEndpoint, type RemarksDelete, RemarksDeleteSchema, remarkTypes } from '@mustard/shared';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../lib/api.js';
import { fieldErrorsOfIssues } from '../../lib/forms.js';
import { translateMessage } from '../../lib/messages.js';
import { PAGES } from '../../lib/pages.js';
import { useChoices } from '../../resources/choices.js';
import { declaredFields, type FieldSpec } from '../report-page/declaration.js';
import { queryOf } from '../report-page/fields.js';
import { ReportFilterCard, showFailure, useReportFilter } from '../report-page/ReportFilterCard.js';

/*
 * Delete report comments (`/comments/delete`, manage on remark; issue 16 point 5): a class's
 * remarks of one remark type (and its sub categories), of one learner or of all. Next asks
 * first, because it cannot be undone on the screen; the server deletes in one transaction and
 * keeps every deleted text in the comments' history.
 */

const REMARK_TYPE_CHOICES = { resource: remarkTypes, label: 'label' } as const;
/** The class, one learner of it or all, the term and the remark type (any, active or not: its comments may be old). */
const GRID: readonly FieldSpec[] = [
  'form',
  'stream',
  { name: 'student_id', label: 'deleteComments.learner', none: 'deleteComments.allLearners' },
  'term',
  'year',
  { name: 'remarktype_id', required: true },
];

export function DeleteCommentsPage() {
  const { t } = useTranslation();
  const filter = useReportFilter();
  const remarkTypeChoices = useChoices(REMARK_TYPE_CHOICES);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [asking, setAsking] = useState<RemarksDelete | null>(null);
  const [busy, setBusy] = useState(false);

  const next = (event: FormEvent) => {
    event.preventDefault();
    const parsed = RemarksDeleteSchema.safeParse(queryOf(declaredFields({ fields: GRID }), filter.values));
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
      showFailure(error, setErrors);
    } finally {
      setBusy(false);
      setAsking(null);
    }
  };

  return (
    <>
      <ReportFilterCard
        title={PAGES.deleteComments.title}
        filterName="deleteComments.filter"
        fields={GRID}
        choices={{ remarktype_id: remarkTypeChoices }}
        filter={filter}
        errors={errors}
        busy={busy}
        onNext={next}
        danger
      />
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
    </>
  );
}
