import { Button, Card, Checkbox, FileInput, Group, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  classOptions,
  type MarksGrid as Grid,
  type MarksGridQuery,
  MarksGridQuerySchema,
  marksGridEndpoint,
  markTypes,
  myAssignmentsEndpoint,
  PAPERS,
  RESULT_MESSAGES,
  type ResourceDefinition,
  studentCategories,
  subjects,
} from '@mustard/shared';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyNotice } from '../../components/EmptyNotice.js';
import { StreamSelect } from '../../components/StreamSelect.js';
import { useAccess } from '../../lib/access.js';
import { ApiError, call, downloadFrom } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { useCurrentTerm, useTermStart } from '../../lib/calendar.js';
import { fieldErrorsOfIssues } from '../../lib/forms.js';
import { FilterFoldButton, LoadedSheet, useLoadedSheet, useSheetHeading } from '../../lib/loaded-sheet.js';
import { translateMessage } from '../../lib/messages.js';
import { notifyError, runLongAction } from '../../lib/notify.js';
import { PAGES } from '../../lib/pages.js';
import { allRecords, choicesKey } from '../../lib/resource-calls.js';
import { TermYearFields } from '../reports/report-filter.js';
import { CompetencyBanner, useLinkedCompetency } from './competency.js';
import { MarksGrid } from './MarksGrid.js';

type Filter = {
  form: string | null;
  stream: string;
  studentcategory_id: string | null;
  term: string;
  year: number;
  paper: string;
  subject_id: string | null;
  topic_id: string | null;
  marktypes: string[];
  excel: boolean;
  file: File | null;
};

/**
 * Create marks (`/marks/create`, spec §2): the filter (class, stream, category, term, year,
 * paper, a filled sheet to upload, subject, download excel, mark types), then the grid. A
 * teacher is offered only the classes and subjects they may enter (issue 13's assignments).
 * With `?topic_id=` the grid is a competency's: its class, term and subject fill the filter
 * (and stay), and each mark type chosen is one activity of integration, scored 1 to 3.
 */
export function MarksEntryPage() {
  const { t } = useTranslation();
  const { session } = useAuth();
  const { can } = useAccess();
  const current = useCurrentTerm();
  const [filter, setFilter] = useState<Filter>({
    form: null,
    stream: '',
    studentcategory_id: null,
    term: current.term,
    year: current.year,
    paper: 'I',
    subject_id: null,
    topic_id: null,
    marktypes: [],
    excel: false,
    file: null,
  });
  const linked = useLinkedCompetency();
  const competency = linked.topic;
  // The competency fills the filter once it is known: its class, term and subject are the grid's.
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
  const [errors, setErrors] = useState<Record<string, string>>({});
  // The grid belongs to the choices it was loaded for; a file to upload or a download does not change which grid it is.
  const { file: _file, excel: _excel, ...choices } = filter;
  const { loaded, stale, show, clear, fold } = useLoadedSheet<{ grid: Grid; query: MarksGridQuery }, typeof choices>(choices);
  const heading = useSheetHeading();
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof Filter>(name: K, value: Filter[K]) => setFilter((now) => ({ ...now, [name]: value }));
  // The term and year start at the school's own current term once its calendar is known.
  // A competency's term is its own: the calendar then gives the year alone.
  const { chosen } = useTermStart((start) => setFilter((now) => (now.topic_id ? { ...now, year: start.year } : { ...now, ...start })));

  // The same query as a select of these records (useChoices): one answer, and a write refreshes both.
  const list = <D extends ResourceDefinition>(resource: D) =>
    useQuery({
      queryKey: choicesKey(resource, session?.tenant?.id),
      queryFn: () => allRecords(resource),
      select: (answer) => answer.rows,
      staleTime: 60_000,
    });
  const subjectRows = list(subjects);
  const typeRows = list(markTypes);
  const categoryRows = list(studentCategories);
  const mine = useQuery({
    queryKey: ['my-assignments', session?.tenant?.id, filter.term, filter.year],
    queryFn: () => call(myAssignmentsEndpoint, { query: { term: filter.term as MarksGridQuery['term'], year: filter.year } }),
  });

  // Only what the member may enter: everything for those who manage marks, else their assignments.
  const assigned = mine.data?.reach.marks === 'assigned' ? mine.data.subjects : null;
  const classes = useMemo(() => {
    const all = classOptions(session?.tenant ?? {});
    if (!assigned) return all;
    const held = new Set(assigned.map((row) => row.form.toLowerCase()));
    return all.filter((form) => held.has(form.toLowerCase()));
  }, [session?.tenant, assigned]);
  // A teacher's streams: those he teaches the chosen subject in (any subject before one is chosen).
  const taught = useMemo(
    () => assigned?.filter((row) => !filter.subject_id || row.subject_id === filter.subject_id) ?? null,
    [assigned, filter.subject_id],
  );
  const subjectChoices = (subjectRows.data ?? [])
    .filter((subject) => subject.active)
    .filter(
      (subject) =>
        !assigned ||
        assigned.some((row) => row.subject_id === subject.id && (!filter.form || row.form.toLowerCase() === filter.form.toLowerCase())),
    )
    .map((subject) => ({ value: subject.id, label: subject.name }));
  // A competency's activities of integration: any active mark type but an exam (the card's summative part).
  const activeTypes = (typeRows.data ?? []).filter((type) => type.status !== 'inactive' && !(competency && type.category === 'exam'));
  const subjectName = (id: string) => subjectRows.data?.find((subject) => subject.id === id)?.name ?? null;
  const categoryName = (id: string | null | undefined) => (id ? (categoryRows.data?.find((row) => row.id === id)?.name ?? null) : null);

  const next = async (event: FormEvent) => {
    event.preventDefault();
    const fields = {
      ...filter,
      form: filter.form ?? '',
      subject_id: filter.subject_id ?? '',
      topic_id: filter.topic_id ?? undefined,
      excel: filter.excel ? '1' : '0',
    };
    const { file, ...sent } = fields;
    const parsed = MarksGridQuerySchema.safeParse(sent);
    // The grid on screen is of the choices before: whatever this Next does, it goes.
    clear();
    if (!parsed.success) {
      setErrors(fieldErrorsOfIssues(parsed.error));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      if (file) {
        // A filled sheet: read back and saved on the server, all or nothing.
        const form = new FormData();
        for (const [name, value] of Object.entries(sent)) {
          if (Array.isArray(value)) for (const item of value) form.append(`${name}[]`, item);
          else if (value !== null && value !== undefined && value !== '') form.set(name, String(value));
        }
        form.set('file', file, file.name);
        // Says what the sheet changed, and when it changed nothing, that too (issue 24 point 6).
        await runLongAction(call(marksGridEndpoint, { body: form }), (answer) =>
          !('saved' in answer) || answer.saved === 0
            ? t('marks.sheetUnchanged')
            : t('marks.sheetSaved', { saved: answer.saved, unchanged: answer.unchanged }),
        );
        // Read back and saved: a second Next opens the grid, it does not send the same sheet again.
        set('file', null);
      } else if (filter.excel) {
        await runLongAction(
          downloadFrom(marksGridEndpoint, { body: { ...sent, term: parsed.data.term, excel: '1' } }),
          translateMessage(RESULT_MESSAGES.excelReady),
        );
        return;
      }
      const answer = await call(marksGridEndpoint, { body: { ...sent, term: parsed.data.term, excel: '0' } });
      if ('students' in answer) show({ grid: answer, query: parsed.data }, choices);
    } catch (error) {
      if (error instanceof ApiError && error.status === 403)
        notifyError(new ApiError(422, error.data?.message ?? error.message, error.data));
      else if (error instanceof ApiError && error.data?.errors)
        setErrors(
          Object.fromEntries(
            Object.entries(error.data.errors).map(([name, texts]) => [name.split('.')[0] ?? name, translateMessage(texts[0] ?? '')]),
          ),
        );
      else notifyError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack>
      <Card withBorder padding="md">
        <Stack>
          <Title order={1} size="h3">
            {t(competency ? 'marks.recordCompetencyScores' : PAGES.createMarks.title)}
          </Title>
          {subjectRows.data?.every((subject) => !subject.active) && (
            <EmptyNotice text={t('empty.noSubjects')} to={PAGES.subjects.path} link={t('empty.addSubjects')} testId="no-subjects" />
          )}
          {typeRows.data && activeTypes.length === 0 && (
            <EmptyNotice text={t('empty.noMarkTypes')} to={PAGES.markTypes.path} link={t('empty.addMarkTypes')} testId="no-mark-types" />
          )}
          <CompetencyBanner topic={competency} failed={linked.failed} page={PAGES.createMarks} scale />
          <FilterFoldButton fold={fold} />
          <form onSubmit={next} aria-label={t('marks.filter')} noValidate hidden={fold.folded}>
            <Stack>
              <SimpleGrid cols={{ base: 1, sm: 3, md: 4 }}>
                <Select
                  label={t('fields.form')}
                  data={classes}
                  value={filter.form}
                  onChange={(value) => set('form', value)}
                  error={errors.form ?? errors.topic_id}
                  disabled={Boolean(competency)}
                  classNames={competency ? { input: 'mustard-locked' } : undefined}
                  searchable
                  withAsterisk
                />
                <StreamSelect
                  form={filter.form}
                  value={filter.stream}
                  onChange={(stream) => set('stream', stream)}
                  error={errors.stream}
                  taught={taught}
                />
                <Select
                  label={t('fields.studentcategory_id')}
                  data={(categoryRows.data ?? []).map((row) => ({ value: row.id, label: row.name }))}
                  value={filter.studentcategory_id}
                  onChange={(value) => set('studentcategory_id', value)}
                  clearable
                />
                <TermYearFields
                  filter={filter}
                  change={(fields) => setFilter((now) => ({ ...now, ...fields }))}
                  chosen={chosen}
                  errors={errors}
                  lockTerm={Boolean(competency)}
                />
                <Select
                  label={t('fields.paper')}
                  data={[...PAPERS]}
                  value={filter.paper}
                  onChange={(value) => value && set('paper', value)}
                  error={errors.paper}
                  allowDeselect={false}
                />
                <Select
                  label={t('fields.subject')}
                  data={subjectChoices}
                  value={filter.subject_id}
                  onChange={(value) => set('subject_id', value)}
                  error={errors.subject_id}
                  disabled={Boolean(competency)}
                  classNames={competency ? { input: 'mustard-locked' } : undefined}
                  searchable
                  withAsterisk
                  nothingFoundMessage={t('list.nothingFound')}
                />
                <FileInput
                  label={t('marks.uploadFile')}
                  accept=".xlsx"
                  value={filter.file}
                  onChange={(file) => set('file', file)}
                  clearable
                  placeholder={t('marks.chooseFile')}
                  error={errors.file}
                />
              </SimpleGrid>
              <Checkbox
                label={t('list.downloadExcel')}
                checked={filter.excel}
                onChange={(event) => set('excel', event.currentTarget.checked)}
              />
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  {t('marks.markTypes')}
                </Text>
                <Group>
                  {activeTypes.map((type) => (
                    <Checkbox
                      key={type.id}
                      label={type.label}
                      checked={filter.marktypes.includes(type.id)}
                      onChange={(event) => {
                        const checked = event.currentTarget.checked;
                        set('marktypes', checked ? [...filter.marktypes, type.id] : filter.marktypes.filter((id) => id !== type.id));
                      }}
                    />
                  ))}
                </Group>
                {errors.marktypes && (
                  <Text size="xs" c="red">
                    {errors.marktypes}
                  </Text>
                )}
              </Stack>
              <Group justify="flex-end">
                <Button type="submit" loading={busy}>
                  {t('marks.next')}
                </Button>
              </Group>
            </Stack>
          </form>
        </Stack>
      </Card>
      {loaded && session?.tenant && (
        <LoadedSheet
          stale={stale}
          heading={heading({
            form: loaded.sheet.query.form,
            stream: loaded.sheet.query.stream,
            subject: subjectName(loaded.sheet.query.subject_id),
            paper: loaded.sheet.query.paper,
            term: loaded.sheet.query.term,
            year: loaded.sheet.query.year,
            marktypes: loaded.sheet.grid.marktypes.map((type) => type.label),
            more: [categoryName(loaded.sheet.query.studentcategory_id), competency?.title ?? null],
          })}
        >
          {loaded.sheet.grid.students.length === 0 && (
            <EmptyNotice text={t('empty.noLearners')} to={PAGES.students.path} link={t('empty.addLearners')} testId="no-learners" />
          )}
          <MarksGrid
            key={`${JSON.stringify(loaded.sheet.query)}:${loaded.at}`}
            grid={loaded.sheet.grid}
            query={loaded.sheet.query}
            owner={{ tenantId: session.tenant.id, userId: session.user.id }}
            mayChangePublished={can('manage', 'mark')}
          />
        </LoadedSheet>
      )}
    </Stack>
  );
}
