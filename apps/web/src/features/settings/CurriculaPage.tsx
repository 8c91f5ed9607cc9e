import {
  Alert,
  Badge,
  Button,
  Card,
  Fieldset,
  Group,
  NumberInput,
  SegmentedControl,
  Stack,
  Switch,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  type ClassCurriculaAnswer,
  type Curriculum,
  classCurriculaEndpoint,
  localDay,
  RESULT_MESSAGES,
  SETTINGS_MESSAGES,
  saveClassCurriculaEndpoint,
} from '@mustard/shared';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageLoading } from '../../components/PageLoading.js';
import { useAccess } from '../../lib/access.js';
import { call } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { translateMessage } from '../../lib/messages.js';
import { notifyError } from '../../lib/notify.js';

/**
 * Which classes are new-curriculum classes in a year (issue 26 point 1; guide new-curriculum.md
 * "Which classes"): a secondary school's S1-S4 unless the school says otherwise, S5-S6 and every
 * primary class old. Each class can be set either way for the year (the year stays in the
 * address, so a reload keeps it); whether a competency may score 0 is the school's, every year.
 */
export function CurriculaPage() {
  const { t } = useTranslation();
  const { session } = useAuth();
  const queryClient = useQueryClient();
  const mayWrite = useAccess().can('manage', 'setting');
  // A primary school has no new-curriculum classes (the guide; the server refuses one): New is not offered.
  const primary = session?.tenant?.schooltype !== 'secondary';
  const [params, setParams] = useSearchParams();
  const fromAddress = Number(params.get('year'));
  const [year, setYear] = useState(() =>
    Number.isInteger(fromAddress) && fromAddress >= 2000 && fromAddress <= 2100 ? fromAddress : Number(localDay().slice(0, 4)),
  );
  const validYear = Number.isInteger(year) && year >= 2000 && year <= 2100;
  const queryKey = ['curricula', session?.tenant?.id, year];
  const saved = useQuery({
    queryKey,
    queryFn: () => call(classCurriculaEndpoint, { query: { year } }),
    enabled: Boolean(session?.tenant) && validYear,
    placeholderData: keepPreviousData,
  });
  const [draft, setDraft] = useState<ClassCurriculaAnswer | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => setDraft(saved.data ?? null), [saved.data]);

  const chooseYear = (value: number) => {
    setYear(value);
    if (Number.isInteger(value) && value >= 2000 && value <= 2100) setParams({ year: String(value) }, { replace: true });
  };
  const choose = (form: string, curriculum: Curriculum) =>
    setDraft((current) =>
      current ? { ...current, classes: current.classes.map((row) => (row.form === form ? { ...row, curriculum } : row)) } : current,
    );

  const save = async () => {
    if (!draft) return;
    setBusy(true);
    try {
      const answer = await call(saveClassCurriculaEndpoint, {
        body: {
          year: draft.year,
          allow_zero: draft.allow_zero,
          classes: draft.classes.map(({ form, curriculum }) => ({ form, curriculum })),
        },
      });
      queryClient.setQueryData(['curricula', session?.tenant?.id, answer.year], answer);
      setDraft(answer);
      notifications.show({ color: 'green', message: translateMessage(RESULT_MESSAGES.updated) });
    } catch (error) {
      notifyError(error);
    } finally {
      setBusy(false);
    }
  };

  const curriculumName = (curriculum: Curriculum) =>
    t(curriculum === 'new' ? 'classCurricula.newCurriculum' : 'classCurricula.oldCurriculum');
  return (
    <Card withBorder padding="md" data-testid="class-curricula">
      <Stack>
        <Title order={1} size="h3">
          {t('pages.curricula')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('classCurricula.explain')}
        </Text>
        <NumberInput
          label={t('fields.year')}
          value={year}
          onChange={(value) => chooseYear(typeof value === 'number' ? value : Number.NaN)}
          min={2000}
          max={2100}
          allowDecimal={false}
          w={160}
          error={validYear ? undefined : translateMessage(SETTINGS_MESSAGES.yearInvalid)}
        />
        {!draft ? (
          saved.isError ? (
            <Alert color="red" title={t('errors.recordFailedTitle')}>
              <Button variant="light" size="xs" onClick={() => void saved.refetch()}>
                {t('app.retry')}
              </Button>
            </Alert>
          ) : (
            <PageLoading />
          )
        ) : (
          <Fieldset variant="unstyled" disabled={!mayWrite}>
            <Stack>
              <Table withTableBorder>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('fields.form')}</Table.Th>
                    <Table.Th>{t('classCurricula.curriculum')}</Table.Th>
                    <Table.Th>{t('classCurricula.default')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {draft.classes.map((row) => (
                    <Table.Tr key={row.form} data-form={row.form}>
                      <Table.Td>{row.form}</Table.Td>
                      <Table.Td>
                        <SegmentedControl
                          aria-label={t('classCurricula.curriculumOf', { form: row.form })}
                          value={row.curriculum}
                          onChange={(value) => choose(row.form, value as Curriculum)}
                          disabled={!mayWrite}
                          data={[
                            { value: 'new', label: t('classCurricula.new'), disabled: primary },
                            { value: 'old', label: t('classCurricula.old') },
                          ]}
                        />
                      </Table.Td>
                      <Table.Td>
                        {row.curriculum === row.default ? (
                          <Text size="sm" c="dimmed">
                            {t('classCurricula.asDefault')}
                          </Text>
                        ) : (
                          <Badge variant="light" color="orange" data-testid="curriculum-differs">
                            {t('classCurricula.differs', { curriculum: curriculumName(row.default) })}
                          </Badge>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              <Switch
                label={t('classCurricula.allowZero')}
                description={t('classCurricula.allowZeroHint')}
                checked={draft.allow_zero}
                onChange={(event) => {
                  const allowZero = event.currentTarget.checked;
                  setDraft((current) => (current ? { ...current, allow_zero: allowZero } : current));
                }}
              />
            </Stack>
          </Fieldset>
        )}
        {mayWrite && draft && (
          <Group justify="flex-end">
            <Button onClick={() => void save()} loading={busy} disabled={!validYear || draft.year !== year}>
              {t('list.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
