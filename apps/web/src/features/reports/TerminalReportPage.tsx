import { Alert, Button, Card, Checkbox, Group, Progress, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import {
  DEFAULT_REPORT_LABEL,
  listStudentsEndpoint,
  reportProgressEndpoint,
  TerminalReportQuerySchema,
  terminalReportEndpoint,
} from '@mustard/shared';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FittedFrame } from '../../components/FittedFrame.js';
import { api, call, withQuery } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { fieldErrorsOfIssues } from '../../lib/forms.js';
import { notifyError, runLongAction } from '../../lib/notify.js';
import { PAGES } from '../../lib/pages.js';
import { fieldErrorsOf, RawMarksCheckbox, ReportFilterFields, reportQueryOf, useReportFilter } from './report-filter.js';

/** A class's learners fit one answer. */
const ALL = 1000;
/** How often the page asks how far a class's PDF is. */
const PROGRESS_EVERY_MS = 600;

/**
 * Terminal Reports (`/terminalreport`, spec §2 "Comments and reports"): the filter (student,
 * class, stream, student category, term, year, report type, mark types, Display raw marks,
 * Seperate mark types, Preview, Label), then either the preview in a sandboxed 800 px frame,
 * where clicking a number shows why it is what it is, or the class's PDF, with the learners
 * drawn so far while it is made.
 */
export function TerminalReportPage() {
  const { t } = useTranslation();
  const { session } = useAuth();
  const { filter, setFilter, set, chosen } = useReportFilter({
    student_id: null as string | null,
    rawmark: false,
    separate: true,
    preview: true,
    label: DEFAULT_REPORT_LABEL,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [preview, setPreview] = useState<string | null>(null);
  /** The choices the preview shows: its Download PDF prints those, whatever the filter says now. */
  const [previewQuery, setPreviewQuery] = useState<ReturnType<typeof queryOf> | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [busy, setBusy] = useState(false);
  const learners = useQuery({
    queryKey: ['report-learners', session?.tenant?.id, filter.form, filter.stream],
    enabled: Boolean(filter.form),
    queryFn: () =>
      call(listStudentsEndpoint, {
        query: { form: filter.form ?? undefined, stream: filter.stream.trim() || undefined, per_page: ALL },
      }),
    staleTime: 30_000,
  });

  const queryOf = () => ({
    ...reportQueryOf(filter),
    student_id: filter.student_id ?? undefined,
    rawmark: filter.rawmark ? '1' : '0',
    separate: filter.separate ? '1' : '0',
    label: filter.label.trim() || undefined,
  });

  /** The class's PDF, with the learners drawn so far asked for while the server draws them. */
  const downloadPdf = async (query: ReturnType<typeof queryOf>) => {
    const token = crypto.randomUUID();
    setProgress({ done: 0, total: 0 });
    const timer = setInterval(() => {
      call(reportProgressEndpoint, { query: { token } })
        .then((now) => setProgress((shown) => (shown ? now : shown)))
        .catch(() => undefined);
    }, PROGRESS_EVERY_MS);
    try {
      await runLongAction(api.download(withQuery(terminalReportEndpoint.path, { ...query, progress: token })), t('terminalReport.ready'));
    } finally {
      clearInterval(timer);
      setProgress(null);
    }
  };

  const next = async (event: FormEvent) => {
    event.preventDefault();
    const query = queryOf();
    const parsed = TerminalReportQuerySchema.safeParse(query);
    if (!parsed.success) {
      setErrors(fieldErrorsOfIssues(parsed.error));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      if (filter.preview) {
        const answer = await call(terminalReportEndpoint, { query: { ...query, html: '1' } as never });
        setPreview('html' in answer ? answer.html : null);
        setPreviewQuery(query);
      } else {
        await downloadPdf(query);
      }
    } catch (error) {
      const named = fieldErrorsOf(error);
      if (named) setErrors(named);
      // The download's toast has said what went wrong; a preview's failure is said here.
      else if (filter.preview) notifyError(error);
    } finally {
      setBusy(false);
    }
  };

  const learnerChoices = (learners.data?.students ?? []).map((learner) => ({
    value: learner.id,
    label: `${learner.fullname} (${learner.studentid})`,
  }));

  return (
    <Stack>
      <Card withBorder padding="md">
        <Stack>
          <Title order={1} size="h3">
            {t(PAGES.terminalReport.title)}
          </Title>
          <form onSubmit={next} aria-label={t('terminalReport.filter')} noValidate>
            <Stack>
              <ReportFilterFields
                filter={filter}
                // A new class or stream is another list of learners: the learner chosen is cleared.
                change={(fields) =>
                  setFilter((now) => ({ ...now, ...fields, ...('form' in fields || 'stream' in fields ? { student_id: null } : {}) }))
                }
                chosen={chosen}
                errors={errors}
                typeLabel={t('terminalReport.reportType')}
              >
                <Select
                  label={t('fields.student')}
                  data={learnerChoices}
                  value={filter.student_id}
                  onChange={(value) => set('student_id', value)}
                  error={errors.student_id}
                  placeholder={filter.form ? t('terminalReport.wholeClass') : t('terminalReport.chooseClassFirst')}
                  disabled={!filter.form}
                  searchable
                  clearable
                  nothingFoundMessage={t('list.nothingFound')}
                />
                <TextInput
                  label={t('fields.label')}
                  value={filter.label}
                  onChange={(event) => set('label', event.currentTarget.value)}
                  error={errors.label}
                />
              </ReportFilterFields>
              <Group>
                <RawMarksCheckbox
                  label={t('terminalReport.rawmark')}
                  checked={filter.rawmark}
                  onChange={(checked) => set('rawmark', checked)}
                />
                <Checkbox
                  label={t('terminalReport.separate')}
                  checked={filter.separate}
                  onChange={(event) => set('separate', event.currentTarget.checked)}
                />
                <Checkbox
                  label={t('terminalReport.preview')}
                  checked={filter.preview}
                  onChange={(event) => set('preview', event.currentTarget.checked)}
                />
              </Group>
              <Group justify="flex-end">
                <Button type="submit" loading={busy}>
                  {t('marks.next')}
                </Button>
              </Group>
            </Stack>
          </form>
          {progress && (
            <Stack gap={4} data-testid="report-progress">
              <Text size="sm">
                {progress.total > 0 ? t('terminalReport.progress', { done: progress.done, total: progress.total }) : t('errors.pleaseWait')}
              </Text>
              <Progress value={progress.total > 0 ? (100 * progress.done) / progress.total : 0} animated />
            </Stack>
          )}
        </Stack>
      </Card>
      {preview !== null && (
        <Card withBorder padding={0}>
          <Alert variant="light" color="gray" radius={0}>
            <Group justify="space-between" wrap="wrap">
              <Text size="sm">{t('terminalReport.previewHint')}</Text>
              {previewQuery && (
                <Button
                  variant="light"
                  loading={progress !== null}
                  // The toast of the download says what went wrong.
                  onClick={() => downloadPdf(previewQuery).catch(() => undefined)}
                >
                  {t('terminalReport.downloadPdf')}
                </Button>
              )}
            </Group>
          </Alert>
          {/* The card (740 px) fits the width, a phone's too (issue 24 point 8). */}
          <FittedFrame title={t('terminalReport.previewTitle')} srcDoc={preview} width={760} height={800} />
        </Card>
      )}
    </Stack>
  );
}
