import {
  Alert,
  Button,
  Card,
  Checkbox,
  FileInput,
  Group,
  Loader,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  AttendanceRequestSchema,
  attendanceEndpoint,
  classOptions,
  type EndpointInput,
  type LearnerValuesSaved,
  MarkTargetRequestSchema,
  markTargetGridEndpoint,
  RESULT_MESSAGES,
  type ReadLearnerValue,
  readDaysAttended,
  readTarget,
  readTotalDays,
  subjects,
} from '@mustard/shared';
import { type FormEvent, type KeyboardEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StreamSelect } from '../../components/StreamSelect.js';
import { ApiError, call, downloadFrom } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { useCurrentTerm, useTermStart } from '../../lib/calendar.js';
import { fieldErrorsOfIssues } from '../../lib/forms.js';
import { FilterFoldButton, LoadedSheet, useLoadedSheet, useSheetHeading } from '../../lib/loaded-sheet.js';
import { translateMessage } from '../../lib/messages.js';
import { notifyError, runLongAction } from '../../lib/notify.js';
import { PAGES, type RouteDefinition } from '../../lib/pages.js';
import { useChoices } from '../../resources/choices.js';
import { TermYearFields } from '../reports/report-filter.js';

/*
 * A class's one value per learner for a term (issue 14 points 6 and 7): the attendance page
 * (days attended out of the term's total days) and the mark targets page (a target per learner
 * in a subject). One page for both: the filter (class, stream, term, year, and the subject for
 * targets; a filled sheet to upload; Download Excel; Next), then the learners with a value
 * each, checked as typed by the shared rules the server applies, and the save.
 */

interface Learner {
  id: string;
  studentid: string;
  fullname: string;
}

/** What the page is for: its endpoint, texts and rules. */
interface ClassValuesKind {
  page: RouteDefinition;
  /** The filter's rule (the request's schema): what the server would refuse is named before sending. */
  schema: typeof AttendanceRequestSchema | typeof MarkTargetRequestSchema;
  /**
   * The page's one contract (POST): the class's learners with their values, or with values a
   * save, or with a file a filled sheet read back and saved.
   */
  send(body: ClassValuesBody | FormData): Promise<ClassValuesAnswer>;
  /** The sheet to fill, downloaded (`excel=1`). */
  download(body: ClassValuesBody): Promise<string>;
  /** The field the save sends, by learner id. */
  field: 'daysattended' | 'target';
  /** The value column's heading (i18n key). */
  column: string;
  withSubject: boolean;
  /** The term's total days, typed once for the class (attendance). */
  withTotal: boolean;
  saveLabel: string;
  loadingText: string;
  uploadLabel: string;
  read: (text: string, total: number) => ReadLearnerValue;
}

/** What the filter and a save send: the class, term and year (and subject), and the values by learner. */
type ClassValuesBody = Record<string, string | Record<string, string>>;
/** The learners with their values and the recorded total, or what a save or an upload did. */
type ClassValuesAnswer =
  | { kind: 'rows'; learners: Learner[]; values: Record<string, string>; total: number | null }
  | ({ kind: 'saved' } & LearnerValuesSaved);
type AttendanceBody = EndpointInput<typeof attendanceEndpoint>['body'];
type TargetsBody = EndpointInput<typeof markTargetGridEndpoint>['body'];

/** What a save or an upload says it did. */
const savedText = (answer: ClassValuesAnswer) => (answer.kind === 'saved' ? translateMessage(answer.message) : '');

const text = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value));

const ATTENDANCE: ClassValuesKind = {
  page: PAGES.attendance,
  schema: AttendanceRequestSchema,
  send: async (body) => {
    const answer = await call(attendanceEndpoint, { body: body as AttendanceBody });
    if ('message' in answer) return { kind: 'saved', ...answer };
    return {
      kind: 'rows',
      learners: answer.students.map((row) => row.student),
      values: Object.fromEntries(answer.students.map((row) => [row.student.id, text(row.daysattended)])),
      total: answer.totaldays,
    };
  },
  download: (body) => downloadFrom(attendanceEndpoint, { body: { ...body, excel: '1' } as AttendanceBody }),
  field: 'daysattended',
  column: 'classValues.daysAttended',
  withSubject: false,
  withTotal: true,
  saveLabel: 'marks.save',
  loadingText: 'classValues.loadingLearners',
  uploadLabel: 'marks.uploadFile',
  read: (typed, total) => readDaysAttended(typed, total),
};

const TARGETS: ClassValuesKind = {
  page: PAGES.createMarkTargets,
  schema: MarkTargetRequestSchema,
  send: async (body) => {
    const answer = await call(markTargetGridEndpoint, { body: body as TargetsBody });
    if (!Array.isArray(answer)) return { kind: 'saved', ...answer };
    return {
      kind: 'rows',
      learners: answer.map((row) => row.student),
      values: Object.fromEntries(answer.map((row) => [row.student.id, text(row.targets?.target)])),
      total: null,
    };
  },
  download: (body) => downloadFrom(markTargetGridEndpoint, { body: { ...body, excel: '1' } as TargetsBody }),
  field: 'target',
  column: 'classValues.target',
  withSubject: true,
  withTotal: false,
  saveLabel: 'classValues.createTargets',
  loadingText: 'classValues.loadingTargets',
  uploadLabel: 'classValues.uploadExcel',
  read: (typed) => readTarget(typed),
};

const SUBJECT_CHOICES = { resource: subjects, label: 'name', activeOnly: true } as const;

type Filter = { form: string | null; stream: string; term: string; year: number; subject_id: string | null; excel: boolean };
/** What names a class's values: the filter without Download Excel. */
type Choices = Omit<Filter, 'excel'>;

function ClassValuesPage({ kind }: { kind: ClassValuesKind }) {
  const { t } = useTranslation();
  const { session } = useAuth();
  const current = useCurrentTerm();
  // Targets are set in the subjects the school teaches now; attendance names none.
  const subjectChoices = useChoices(kind.withSubject ? SUBJECT_CHOICES : undefined);
  const [filter, setFilter] = useState<Filter>({
    form: null,
    stream: '',
    term: current.term,
    year: current.year,
    subject_id: null,
    excel: false,
  });
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [loading, setLoading] = useState(false);
  // The learners shown belong to the choices they were loaded for (issue 23 item 16); a download changes nothing of that.
  const { excel: _excel, ...choices } = filter;
  const { loaded, stale, show, clear, fold } = useLoadedSheet<{ learners: Learner[]; stored: Record<string, string> }, Choices>(choices);
  const heading = useSheetHeading();
  const [values, setValues] = useState<Record<string, string>>({});
  const [total, setTotal] = useState('');
  const [cellErrors, setCellErrors] = useState<Record<string, string>>({});
  const [wrongCount, setWrongCount] = useState(0);
  const inputs = useRef<Array<HTMLInputElement | null>>([]);
  const set = <K extends keyof Filter>(name: K, value: Filter[K]) => setFilter((now) => ({ ...now, [name]: value }));

  const { chosen } = useTermStart((start) => setFilter((now) => ({ ...now, ...start })));

  const fieldsOf = (about: Choices) => ({
    form: about.form ?? '',
    stream: about.stream,
    term: about.term,
    year: String(about.year),
    ...(kind.withSubject ? { subject_id: about.subject_id ?? '' } : {}),
  });

  /** A 422's field errors beside the filter's fields (a file's or a row's under the file). */
  const showErrors = (error: unknown) => {
    if (error instanceof ApiError && error.status === 422 && error.data?.errors) {
      const shown: Record<string, string> = {};
      const rows: string[] = [];
      for (const [name, texts] of Object.entries(error.data.errors)) {
        const message = translateMessage(texts[0] ?? '');
        if (/^\d+\./.test(name)) rows.push(t('classValues.rowError', { row: name.split('.')[0], message }));
        else shown[name.split('.')[0] ?? name] = message;
      }
      if (rows.length > 0) shown.file = rows.slice(0, 5).join(' · ') + (rows.length > 5 ? ' …' : '');
      setErrors(shown);
    } else notifyError(error);
  };

  const load = async (about: Choices) => {
    setLoading(true);
    const rows = await kind.send(fieldsOf(about)).finally(() => setLoading(false));
    if (rows.kind !== 'rows') return;
    show({ learners: rows.learners, stored: rows.values }, about);
    setValues(rows.values);
    setTotal(text(rows.total));
    setCellErrors({});
    setWrongCount(0);
  };

  const next = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = kind.schema.safeParse(fieldsOf(choices));
    // The learners on screen are of the choices before: whatever this Next does, they go.
    clear();
    if (!parsed.success) {
      setErrors(fieldErrorsOfIssues(parsed.error));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      if (file) {
        const form = new FormData();
        for (const [name, value] of Object.entries(fieldsOf(choices))) form.set(name, value);
        form.set('file', file, file.name);
        await runLongAction(kind.send(form), savedText);
        setFile(null);
      } else if (filter.excel) {
        await runLongAction(kind.download(fieldsOf(choices)), translateMessage(RESULT_MESSAGES.excelReady));
        return;
      }
      await load(choices);
    } catch (error) {
      showErrors(error);
    } finally {
      setBusy(false);
    }
  };

  const totalDays = kind.withTotal ? readTotalDays(total) : ({ ok: true, value: 100 } as const);
  const check = (typed: string) => (totalDays.ok && totalDays.value !== null ? kind.read(typed, totalDays.value) : null);
  const errorOf = (id: string) => {
    if (cellErrors[id]) return cellErrors[id];
    const read = check(values[id] ?? '');
    return read && !read.ok ? translateMessage(read.error) : undefined;
  };

  const save = async () => {
    if (!loaded) return;
    const wrong = loaded.sheet.learners.filter((learner) => errorOf(learner.id)).length;
    setWrongCount(wrong);
    if (kind.withTotal && !totalDays.ok) {
      setErrors({ totaldays: translateMessage(totalDays.error) });
      return;
    }
    if (wrong > 0) return;
    setBusy(true);
    try {
      const body = {
        ...fieldsOf(loaded.choices),
        ...(kind.withTotal ? { totaldays: total } : {}),
        [kind.field]: Object.fromEntries(loaded.sheet.learners.map((learner) => [learner.id, (values[learner.id] ?? '').trim()])),
      };
      await runLongAction(kind.send(body), savedText);
      setErrors({});
      await load(loaded.choices);
    } catch (error) {
      if (error instanceof ApiError && error.status === 422 && error.data?.errors) {
        const byLearner: Record<string, string> = {};
        const others: Record<string, string> = {};
        for (const [name, texts] of Object.entries(error.data.errors)) {
          const [field, id] = name.split('.');
          if (field === kind.field && id) byLearner[id] = translateMessage(texts[0] ?? '');
          else others[field ?? name] = translateMessage(texts[0] ?? '');
        }
        setCellErrors(byLearner);
        setErrors(others);
        setWrongCount(Object.keys(byLearner).length);
      } else notifyError(error);
    } finally {
      setBusy(false);
    }
  };

  /** Enter and the arrows move down and up the column, as in a spreadsheet. */
  const move = (event: KeyboardEvent<HTMLInputElement>, index: number) => {
    const step = event.key === 'ArrowDown' || event.key === 'Enter' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
    if (step === 0) return;
    const target = inputs.current[index + step];
    if (!target) return;
    event.preventDefault();
    target.focus();
    target.select();
  };

  const unsaved = loaded
    ? loaded.sheet.learners.filter((learner) => (values[learner.id] ?? '') !== (loaded.sheet.stored[learner.id] ?? '')).length
    : 0;

  return (
    <Stack>
      <Card withBorder padding="md">
        <Stack>
          <Title order={1} size="h3">
            {t(kind.page.title)}
          </Title>
          <FilterFoldButton fold={fold} />
          <form onSubmit={next} aria-label={t('classValues.filter')} noValidate hidden={fold.folded}>
            <Stack>
              <SimpleGrid cols={{ base: 1, sm: 3, md: 4 }}>
                <Select
                  label={t('fields.form')}
                  data={classOptions(session?.tenant ?? {})}
                  value={filter.form}
                  onChange={(value) => set('form', value)}
                  error={errors.form}
                  searchable
                  withAsterisk
                />
                <StreamSelect form={filter.form} value={filter.stream} onChange={(stream) => set('stream', stream)} error={errors.stream} />
                <TermYearFields
                  filter={filter}
                  change={(fields) => setFilter((now) => ({ ...now, ...fields }))}
                  chosen={chosen}
                  errors={errors}
                />
                {kind.withSubject && (
                  <Select
                    label={t('fields.subject')}
                    data={subjectChoices}
                    value={filter.subject_id}
                    onChange={(value) => set('subject_id', value)}
                    error={errors.subject_id}
                    searchable
                    withAsterisk
                    nothingFoundMessage={t('list.nothingFound')}
                  />
                )}
                <FileInput
                  label={t(kind.uploadLabel)}
                  accept=".xlsx"
                  value={file}
                  onChange={setFile}
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
              <Group justify="flex-end">
                <Button type="submit" loading={busy}>
                  {t('marks.next')}
                </Button>
              </Group>
            </Stack>
          </form>
        </Stack>
      </Card>
      {loading && (
        <Group gap="xs" role="status">
          <Loader size="sm" />
          <Text>{t(kind.loadingText)}</Text>
        </Group>
      )}
      {loaded && (
        <LoadedSheet
          stale={stale}
          heading={heading({
            form: loaded.choices.form ?? '',
            stream: loaded.choices.stream,
            subject: kind.withSubject ? subjectChoices.find((subject) => subject.value === loaded.choices.subject_id)?.label : null,
            term: loaded.choices.term,
            year: loaded.choices.year,
          })}
        >
          <Stack>
            {kind.withTotal && (
              <NumberInput
                label={t('classValues.totalDays')}
                value={total}
                onChange={(value) => {
                  setTotal(String(value));
                  setErrors((now) => ({ ...now, totaldays: '' }));
                  setWrongCount(0);
                }}
                error={errors.totaldays}
                allowDecimal={false}
                min={1}
                max={366}
                // Out of range is named by the rule at SAVE, not clamped unseen on blur (400 becoming 366).
                clampBehavior="none"
                w={200}
                withAsterisk
              />
            )}
            {loaded.sheet.learners.length === 0 ? (
              <Text c="dimmed">{t('classValues.noLearners')}</Text>
            ) : (
              <Table.ScrollContainer minWidth={420}>
                <Table striped withTableBorder aria-label={t(kind.column)}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('fields.studentid')}</Table.Th>
                      <Table.Th className="mustard-sheet-name">{t('fields.student')}</Table.Th>
                      <Table.Th>{t(kind.column)}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {loaded.sheet.learners.map((learner, index) => {
                      const error = errorOf(learner.id);
                      const changed = (values[learner.id] ?? '') !== (loaded.sheet.stored[learner.id] ?? '');
                      return (
                        <Table.Tr key={learner.id} data-studentid={learner.studentid}>
                          <Table.Td>{learner.studentid}</Table.Td>
                          <Table.Td className="mustard-sheet-name">{learner.fullname}</Table.Td>
                          <Table.Td>
                            <TextInput
                              ref={(element) => {
                                inputs.current[index] = element;
                              }}
                              aria-label={`${t(kind.column)}: ${learner.fullname}`}
                              value={values[learner.id] ?? ''}
                              onChange={(event) => {
                                const typed = event.currentTarget.value;
                                setValues((now) => ({ ...now, [learner.id]: typed }));
                                setCellErrors(({ [learner.id]: _dropped, ...rest }) => rest);
                                // The count of wrong cells is SAVE's answer: a change makes it stale, as in the marks grid.
                                setWrongCount(0);
                              }}
                              onKeyDown={(event) => move(event, index)}
                              inputMode="decimal"
                              error={error}
                              data-unsaved={changed || undefined}
                              w={140}
                              size="xs"
                            />
                          </Table.Td>
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            {wrongCount > 0 && (
              <Alert color="red" role="alert">
                {t('classValues.wrongCells', { count: wrongCount })}
              </Alert>
            )}
            <Group justify="space-between">
              <Text size="sm" c="dimmed">
                {unsaved > 0 ? t('typing.unsaved', { count: unsaved }) : ''}
              </Text>
              <Button onClick={() => void save()} loading={busy} disabled={loaded.sheet.learners.length === 0}>
                {t(kind.saveLabel)}
              </Button>
            </Group>
          </Stack>
        </LoadedSheet>
      )}
    </Stack>
  );
}

/** Record attendance (`/attendance/create`, manage on remark). */
export function AttendancePage() {
  return <ClassValuesPage kind={ATTENDANCE} />;
}

/** Set a class's targets in a subject (`/school/marktargets/create`, manage on mark). */
export function CreateMarkTargetsPage() {
  return <ClassValuesPage kind={TARGETS} />;
}
