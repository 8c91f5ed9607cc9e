import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Checkbox,
  Fieldset,
  Group,
  List,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import {
  ApplyGradeSetSchema,
  applyGradeSetEndpoint,
  DEFAULT_GRADE_BANDS,
  firstErrors,
  type GradeBand,
  GradeSetSchema,
  type GradeSetType,
  gradeSetProblems,
  grades,
  RESULT_MESSAGES,
  resourceEndpoints,
  SETTINGS_MESSAGES,
  saveGradeSetEndpoint,
  TERMS,
} from '@mustard/shared';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { PageLoading } from '../../components/PageLoading.js';
import { RecordUnavailable } from '../../components/RecordUnavailable.js';
import { useAccess } from '../../lib/access.js';
import { ApiError, call } from '../../lib/api.js';
import { useCurrentTerm } from '../../lib/calendar.js';
import { translateMessage } from '../../lib/messages.js';
import { notifyError } from '../../lib/notify.js';
import { PAGES, pathTo } from '../../lib/pages.js';
import { useChoices } from '../../resources/choices.js';
import { ResourceListPage } from '../../resources/ResourceListPage.js';
import { defineScreen, type FieldSpec } from '../../resources/screen.js';
import { subjectsScreen } from './screens.js';
import { copyTermAction, useApplyChoices } from './term-settings.js';

/** The grades resource's routes: a set is read through them and saved whole (saveGradeSetEndpoint). */
const gradeEndpoints = resourceEndpoints(grades);

const subjectField: FieldSpec<'subject_id'> = {
  name: 'subject_id',
  kind: 'select',
  choices: { resource: subjectsScreen.resource, label: 'name' },
};

const gradesScreen = defineScreen({
  resource: grades,
  page: PAGES.grades,
  columns: [
    { field: 'subject.name' },
    { field: 'form' },
    { field: 'term' },
    { field: 'year', plain: true },
    { field: 'grade' },
    { field: 'lower' },
    { field: 'upper' },
  ],
  fields: [
    { name: 'form', kind: 'select', choices: 'classes' },
    { name: 'term', kind: 'select', choices: 'terms' },
    { name: 'year', kind: 'year' },
    subjectField,
    { name: 'grade', kind: 'text' },
    { name: 'lower', kind: 'number' },
    { name: 'upper', kind: 'number' },
  ],
  filters: [
    { name: 'form', kind: 'select', choices: 'classes' },
    { name: 'year', kind: 'year' },
    { name: 'term', kind: 'select', choices: 'terms' },
    subjectField,
  ],
  // The first search shows the current term's grades of this year (spec §2 "Grades": the
  // current year; the term from the school's calendar, as every term filter).
  search: false,
  addActions: [
    { label: 'grades.addGrade', to: PAGES.newGrade.path },
    { label: 'grades.addOtherGrades', to: `${PAGES.newGrade.path}?type=lower` },
  ],
  // A new term's sets from the last term's, in one action (issue 24).
  headerActions: [copyTermAction],
  rowLink: (row) => pathTo(PAGES.gradeDetail, { id: row.id }),
});

export function GradesPage() {
  return <ResourceListPage screen={gradesScreen} />;
}

interface SetHeader {
  form: string | null;
  term: string | null;
  year: number | string;
  subject_id: string | null;
}

type GradeRow = { id: string; subject_id: string; form: string; term: string; year: number; grade: string; lower: number; upper: number };

/** A bound as typed: an emptied box is no number (the save says so), never a silent 0. */
const typedBound = (value: string | number): number => (value === '' ? Number.NaN : Number(value));

const bandsOf = (type: GradeSetType): GradeBand[] => DEFAULT_GRADE_BANDS[type].map(([grade, lower, upper]) => ({ grade, lower, upper }));

/**
 * A grade set (spec §2 "New grade", guide grading.md): class, year, term and subject, and the
 * bands of marks for each grade, prefilled with the defaults for the set's type. Overlaps and
 * gaps are named as they appear; saving writes the whole set and returns to /grades.
 * `/grades-detail/{id}` opens the set a grade belongs to.
 */
export function GradeSetPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { id } = useParams();
  const [params] = useSearchParams();
  const type: GradeSetType = params.get('type') === 'lower' ? 'lower' : 'default';
  const current = useCurrentTerm();
  const [header, setHeader] = useState<SetHeader>({ form: null, term: current.term, year: current.year, subject_id: null });
  const [bands, setBands] = useState<GradeBand[]>(() => bandsOf(type));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  // Where the set goes: this class and subject, or every class (this subject) or every subject (this class).
  const [applyTo, setApplyTo] = useState<string>('one');
  const [replaceAll, setReplaceAll] = useState(false);
  const applyChoices = useApplyChoices();
  const [loaded, setLoaded] = useState(!id);
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const classes = useChoices('classes');
  const subjects = useChoices(subjectField.choices);
  // A member who may only read (a teacher) sees the set, not a form the server would refuse.
  const mayWrite = useAccess().can('create', grades.subject);

  // A new set starts in the current term and year, once the school's calendar is known.
  const calendarKnown = !current.pending;
  useEffect(() => {
    if (!id && calendarKnown) setHeader((header) => ({ ...header, term: current.term, year: current.year }));
  }, [id, calendarKnown, current.term, current.year]);

  useEffect(() => {
    if (!id) {
      setBands(bandsOf(type));
      return;
    }
    let live = true;
    (async () => {
      const one = await call(gradeEndpoints.read, { params: { id } });
      const set = await call(gradeEndpoints.list, {
        query: { subject_id: one.subject_id, form: one.form, term: one.term, year: one.year, per_page: 100 },
      });
      if (!live) return;
      setHeader({ form: one.form, term: one.term, year: one.year, subject_id: one.subject_id });
      setBands((set.grades as GradeRow[]).map(({ grade, lower, upper }) => ({ grade, lower, upper })));
      setLoaded(true);
    })().catch((error: unknown) => {
      if (live) setFailure({ error });
    });
    return () => {
      live = false;
    };
  }, [id, type, attempt]);

  const problems = gradeSetProblems(bands);
  const troubled = new Set(problems.map((problem) => problem.grade));
  const changeBand = (index: number, patch: Partial<GradeBand>) =>
    setBands((all) => all.map((band, at) => (at === index ? { ...band, ...patch } : band)));
  /** A header field changed: its error, once fixed, no longer shows (issue 10 point 12). */
  const change = (field: keyof SetHeader, patch: Partial<SetHeader>) => {
    setHeader((current) => ({ ...current, ...patch }));
    setErrors(({ [field]: _fixed, ...rest }) => rest);
  };

  /**
   * Saves the set. On its own page (`id`) the set is replaced; a new set where the class,
   * subject, term and year already have one is refused by the server, and the person chooses:
   * open that set, or replace it (issue 10 point 3).
   */
  const save = async (replace = Boolean(id)) => {
    if (applyTo !== 'one') return applyToAll();
    const body = {
      ...header,
      lower: Object.fromEntries(bands.map((band) => [band.grade, band.lower])),
      upper: Object.fromEntries(bands.map((band) => [band.grade, band.upper])),
      replace,
    };
    const checked = GradeSetSchema.safeParse(body);
    if (!checked.success) {
      setErrors(firstErrors(checked.error));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await call(saveGradeSetEndpoint, { body: checked.data });
      notifications.show({ color: 'green', message: translateMessage(replace ? RESULT_MESSAGES.updated : RESULT_MESSAGES.created) });
      await queryClient.invalidateQueries({ queryKey: ['resource', grades.name] });
      navigate(PAGES.grades.path);
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) offerExisting(checked.data);
      else notifyError(error);
    } finally {
      setBusy(false);
    }
  };

  /** The set written for every class or every subject at once; those that have one keep it unless replaced. */
  const applyToAll = async () => {
    const checked = ApplyGradeSetSchema.safeParse({
      ...header,
      lower: Object.fromEntries(bands.map((band) => [band.grade, band.lower])),
      upper: Object.fromEntries(bands.map((band) => [band.grade, band.upper])),
      replace: replaceAll,
      apply_to: applyTo,
    });
    if (!checked.success) {
      setErrors(firstErrors(checked.error));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const answer = await call(applyGradeSetEndpoint, { body: checked.data });
      notifications.show({ color: 'green', message: t(`applyAll.gradeSetsDone.${applyTo}`, answer) });
      await queryClient.invalidateQueries({ queryKey: ['resource', grades.name] });
      navigate(PAGES.grades.path);
    } catch (error) {
      if (error instanceof ApiError && error.status === 422 && error.data?.errors)
        setErrors(Object.fromEntries(Object.entries(error.data.errors).map(([field, messages]) => [field, messages[0] ?? ''])));
      else notifyError(error);
    } finally {
      setBusy(false);
    }
  };

  const offerExisting = (set: { form: string; term: string; year: number; subject_id: string }) => {
    const open = async () => {
      modals.closeAll();
      const found = await call(gradeEndpoints.list, { query: { ...set, per_page: 1 } });
      const first = (found.grades as GradeRow[])[0];
      if (first) navigate(pathTo(PAGES.gradeDetail, { id: first.id }));
    };
    modals.open({
      title: t('grades.existsTitle'),
      children: (
        <Stack data-testid="grade-set-exists">
          <Text size="sm">{translateMessage(SETTINGS_MESSAGES.gradeSetExists)}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => void open().catch(notifyError)}>
              {t('grades.openExisting')}
            </Button>
            <Button
              color="red"
              onClick={() => {
                modals.closeAll();
                void save(true);
              }}
            >
              {t('grades.replaceIt')}
            </Button>
          </Group>
        </Stack>
      ),
    });
  };

  const headerError = (field: string) => (errors[field] ? translateMessage(errors[field]) : undefined);
  if (failure)
    return (
      <RecordUnavailable
        error={failure.error}
        notFoundText="grades.notFound"
        back={{ to: PAGES.grades.path, label: 'grades.backToList' }}
        onRetry={() => {
          setFailure(null);
          setAttempt((count) => count + 1);
        }}
      />
    );
  if (!loaded || (!id && !calendarKnown)) return <PageLoading />;
  return (
    <Card withBorder padding="md" data-testid="grade-set">
      <Stack>
        <Title order={1} size="h3">
          {t(id ? 'pages.gradeDetail' : 'pages.newGrade')}
        </Title>
        <Fieldset variant="unstyled" disabled={!mayWrite} data-testid="grade-set-fields">
          <SimpleGrid cols={{ base: 1, sm: 4 }}>
            <Select
              label={t('fields.form')}
              withAsterisk
              data={classes}
              value={header.form}
              onChange={(form) => change('form', { form })}
              allowDeselect={false}
              error={headerError('form')}
            />
            <NumberInput
              label={t('fields.year')}
              withAsterisk
              value={header.year}
              onChange={(year) => change('year', { year })}
              error={headerError('year')}
            />
            <Select
              label={t('fields.term')}
              withAsterisk
              data={[...TERMS]}
              value={header.term}
              onChange={(term) => change('term', { term })}
              allowDeselect={false}
              error={headerError('term')}
            />
            <Select
              label={t('fields.subject_id')}
              withAsterisk
              searchable
              data={subjects}
              value={header.subject_id}
              onChange={(subject_id) => change('subject_id', { subject_id })}
              allowDeselect={false}
              error={headerError('subject_id')}
            />
          </SimpleGrid>
          <Group align="flex-end">
            <Select
              label={t('applyAll.label')}
              data={applyChoices}
              value={applyTo}
              onChange={(value) => value && setApplyTo(value)}
              allowDeselect={false}
              error={headerError('apply_to')}
              data-testid="apply-to"
              w={280}
            />
            {applyTo !== 'one' && (
              <Checkbox
                mb={8}
                label={t('applyAll.replace')}
                checked={replaceAll}
                onChange={(event) => setReplaceAll(event.currentTarget.checked)}
              />
            )}
          </Group>
          {problems.length > 0 && (
            <Alert color="red" title={t('grades.problemsTitle')} data-testid="grade-problems">
              <List size="sm">
                {problems.map((problem) => (
                  <List.Item key={`${problem.kind}-${problem.grade}-${String(problem.params.from ?? '')}`}>
                    {t(`grades.problems.${problem.kind}`, problem.params)}
                  </List.Item>
                ))}
              </List>
            </Alert>
          )}
          <Table withTableBorder striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('fields.grade')}</Table.Th>
                <Table.Th>{t('fields.lower')}</Table.Th>
                <Table.Th>{t('fields.upper')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {bands.map((band, index) => (
                // Keyed by place: the grade label is what is being edited.
                <Table.Tr key={index} data-grade={band.grade}>
                  <Table.Td>
                    <TextInput
                      aria-label={t('fields.grade')}
                      value={band.grade}
                      onChange={(event) => changeBand(index, { grade: event.currentTarget.value })}
                      w={90}
                    />
                  </Table.Td>
                  <Table.Td>
                    <NumberInput
                      aria-label={t('grades.lowerOf', { grade: band.grade })}
                      value={Number.isNaN(band.lower) ? '' : band.lower}
                      min={0}
                      max={100}
                      onChange={(value) => changeBand(index, { lower: typedBound(value) })}
                      error={troubled.has(band.grade) || Number.isNaN(band.lower)}
                      w={110}
                    />
                  </Table.Td>
                  <Table.Td>
                    <NumberInput
                      aria-label={t('grades.upperOf', { grade: band.grade })}
                      value={Number.isNaN(band.upper) ? '' : band.upper}
                      min={0}
                      max={100}
                      onChange={(value) => changeBand(index, { upper: typedBound(value) })}
                      error={troubled.has(band.grade) || Number.isNaN(band.upper)}
                      w={110}
                    />
                  </Table.Td>
                  <Table.Td>
                    {mayWrite && (
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('grades.removeRow', { grade: band.grade })}
                        onClick={() => setBands((all) => all.filter((_, at) => at !== index))}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Fieldset>
        {mayWrite ? (
          <Group justify="space-between">
            <Button
              variant="default"
              leftSection={<IconPlus size={16} />}
              onClick={() => setBands((all) => [...all, { grade: '', lower: 0, upper: 0 }])}
            >
              {t('grades.addRow')}
            </Button>
            <Group>
              <Button variant="default" onClick={() => navigate(PAGES.grades.path)}>
                {t('list.cancel')}
              </Button>
              <Button onClick={() => void save()} loading={busy} disabled={problems.length > 0}>
                {t('list.save')}
              </Button>
            </Group>
          </Group>
        ) : (
          <Group justify="flex-end">
            <Button variant="default" onClick={() => navigate(PAGES.grades.path)}>
              {t('list.back')}
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
